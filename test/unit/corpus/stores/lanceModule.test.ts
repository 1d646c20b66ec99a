// LanceDB as the platform-specific .vsix ships it: the vendor bundle loads its native module from beside it with no
// node_modules in reach, and without it says which platform's module is missing and how to get it; the platform
// table agrees with the packages LanceDB publishes; `npm run package` refuses a target it cannot fill, before building.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { lanceMissing } from '../../../../src/core/corpus/stores/lanceModule.js';
import { currentVsixTarget, LANCE_BINARIES, lanceFile, lancePackage, LANCEDB_VERSION, vsixTargetOf } from '../../../../src/core/corpus/stores/lancePlatforms.js';

const REPO = path.resolve(__dirname, '../../../..');
const requireFromRepo = createRequire(path.join(REPO, 'package.json'));
const run = promisify(execFile);

test('the platform table names the packages and files LanceDB publishes, at the version package.json pins', () => {
  const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(manifest.dependencies['@lancedb/lancedb'], LANCEDB_VERSION);
  const lance = JSON.parse(readFileSync(path.join(REPO, 'node_modules/@lancedb/lancedb/package.json'), 'utf8')) as { version: string; optionalDependencies: Record<string, string> };
  assert.equal(lance.version, LANCEDB_VERSION);
  const published = Object.keys(lance.optionalDependencies).filter((name) => name.startsWith('@lancedb/lancedb-'));
  const named = Object.values(LANCE_BINARIES).flatMap((binary) => (binary ? [lancePackage(binary)] : []));
  assert.deepEqual([...named].sort(), [...published].sort(), 'every published native module has its VS Code target, and no target names one that is not published');
  // This machine's: installed by npm, holding the file the loader looks for beside its bundle.
  const here = currentVsixTarget();
  assert.ok(here, `${process.platform}-${process.arch} has a VS Code target`);
  const binary = LANCE_BINARIES[here];
  assert.ok(binary, `LanceDB publishes a module for ${here}`);
  const installed = path.dirname(requireFromRepo.resolve(`${lancePackage(binary)}/package.json`));
  assert.ok(existsSync(path.join(installed, lanceFile(binary))), `${lanceFile(binary)} in ${installed}`);
});

test('a machine\'s VS Code target: musl Linux is Alpine, 32-bit ARM is armhf, an unknown platform has none', () => {
  assert.equal(vsixTargetOf('linux', 'x64', false), 'linux-x64');
  assert.equal(vsixTargetOf('linux', 'x64', true), 'alpine-x64');
  assert.equal(vsixTargetOf('linux', 'arm', false), 'linux-armhf');
  assert.equal(vsixTargetOf('darwin', 'arm64', false), 'darwin-arm64');
  assert.equal(vsixTargetOf('win32', 'x64', false), 'win32-x64');
  assert.equal(vsixTargetOf('freebsd', 'x64', false), undefined);
});

test('without its module the embedded store says which platform lacks it and what to do', () => {
  const missing = lanceMissing('Cannot find module', 'linux-arm64', ['linux-x64-gnu'], 'linux-arm64');
  assert.equal(missing.setting, 'index.store');
  assert.match(missing.message, /needs LanceDB's native module for linux-arm64 \(lancedb\.linux-arm64-gnu\.node\), which is not installed here \(this RAG Inspector package carries the one for linux-x64\)/);
  assert.ok(missing.message.includes(`install the .vsix built for linux-arm64 (\`npm install --no-save --force @lancedb/lancedb-linux-arm64-gnu@${LANCEDB_VERSION}\`, then \`npm run package -- --target linux-arm64\`)`), missing.message);
  assert.match(missing.message, /for the CLI install it with npm on this machine.*set index\.store to pgvector, qdrant, elasticsearch or opensearch/);

  const unpublished = lanceMissing('Cannot find module', 'darwin-x64', [], 'darwin-x64');
  assert.match(unpublished.message, /publishes no native module for darwin-x64.* — set index\.store to pgvector/);
  assert.doesNotMatch(unpublished.message, /npm run package/, 'no package can hold a module that does not exist');

  const refused = lanceMissing('GLIBC_2.28 not found', 'linux-x64', ['linux-x64-gnu'], 'linux-x64');
  assert.match(refused.message, /lancedb\.linux-x64-gnu\.node\) is installed but could not be loaded \(GLIBC_2\.28 not found\)/);
});

test('the vendor bundle with no node_modules in reach: no module beside it is a StoreError naming this platform; the module beside it loads', async (t) => {
  // As the installed extension has it: a bundle calling the embedded store's loader, and dist/vendor/lancedb.js
  // (`npm run test:unit` builds it) in vendor/ beside it, in a temporary folder with no node_modules above.
  const here = currentVsixTarget()!;
  const binary = LANCE_BINARIES[here]!;
  const dir = mkdtempSync(path.join(tmpdir(), 'lance-vsix-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'vendor'));
  copyFileSync(path.join(REPO, 'dist/vendor/lancedb.js'), path.join(dir, 'vendor/lancedb.js'));
  const main = path.join(dir, 'main.js');
  await build({
    stdin: {
      contents: `const { loadLanceDb } = require(${JSON.stringify(path.join(REPO, 'src/core/corpus/stores/lanceModule.ts'))});
        (async () => {
          try {
            const db = await loadLanceDb().connect(${JSON.stringify(path.join(dir, 'db'))});
            const table = await db.createTable('t', [{ id: 'a', vector: [1, 0] }, { id: 'b', vector: [0, 1] }]);
            console.log('nearest', (await table.search([0.1, 1]).limit(1).toArray())[0].id, process.env.NAPI_RS_NATIVE_LIBRARY_PATH ?? 'and the loader variable put back');
          } catch (error) { console.log(error.name, error.message); }
        })();`,
      resolveDir: REPO,
      loader: 'js',
    },
    outfile: main, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error',
  });
  const without = await run(process.execPath, [main], { cwd: dir });
  assert.match(without.stdout, new RegExp(`^StoreError index\\.store: the embedded vector store needs LanceDB's native module for ${here} \\(lancedb\\.${binary}\\.node\\), which is not installed here — in VS Code install the \\.vsix built for ${here}`));

  copyFileSync(requireFromRepo.resolve(`${lancePackage(binary)}/${lanceFile(binary)}`), path.join(dir, 'vendor', lanceFile(binary)));
  const beside = await run(process.execPath, [main], { cwd: dir });
  assert.equal(beside.stdout.trim(), 'nearest b and the loader variable put back');
});

test('npm run package refuses a target it cannot fill, before building anything', async () => {
  const script = path.join(REPO, 'scripts/packageVsix.ts');
  const fails = async (...args: string[]) => {
    const error = await run(process.execPath, ['--import', 'tsx', script, ...args], { cwd: REPO }).then(() => undefined, (e: { code: number; stderr: string }) => e);
    assert.ok(error, `packageVsix ${args.join(' ')} should fail`);
    assert.equal(error.code, 1);
    return error.stderr;
  };
  assert.match(await fails('--target', 'web'), /--target web is not a platform the extension is packaged for: one of linux-x64, .*no web package/);
  assert.match(await fails('--out', 'x'), /unknown argument --out: the one option is --target/);
  // Another platform's module, which npm installed no copy of on this machine.
  const foreign = Object.entries(LANCE_BINARIES).find(([, binary]) => {
    if (!binary) return false;
    try {
      requireFromRepo.resolve(`${lancePackage(binary)}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
  assert.ok(foreign, 'some platform\'s module is not installed here');
  const [target, binary] = foreign as [string, string];
  const stderr = await fails(`--target=${target}`);
  assert.ok(stderr.includes(`the .vsix for ${target} carries LanceDB's native module ${lancePackage(binary)}, which is not in node_modules`), stderr);
  assert.ok(stderr.includes(`npm install --no-save --force ${lancePackage(binary)}@${LANCEDB_VERSION}`), stderr);
});
