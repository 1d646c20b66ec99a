// `npm run package [-- --target <VS Code target>]`: the platform-specific .vsix. The production bundles, then the
// embedded vector store's native module for that platform (LanceDB's `lancedb.<binary>.node`, from node_modules) put
// beside its bundle in dist/vendor/, then `vsce package --target`, which names the file
// `rag-inspector-<target>-<version>.vsix`. The target defaults to this machine's; another platform's module must be
// in node_modules first (the error gives the command). Prints the package's size and how long it took.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { currentVsixTarget, fetchCommand, isVsixTarget, LANCE_BINARIES, lanceFile, lancePackage } from '../src/core/corpus/stores/lancePlatforms.js';
import type { VsixTarget } from '../src/core/corpus/stores/lancePlatforms.js';
import { NOTICES_FILE, packageNotice } from './thirdPartyNotices.mjs';

const ROOT = path.resolve(__dirname, '..');
const VENDOR = path.join(ROOT, 'dist', 'vendor');
const TARGETS = Object.keys(LANCE_BINARIES).join(', ');
/** The licences of the Rust crates compiled into LanceDB's native module, as LanceDB publishes them; shipped beside it. */
const RUST_LICENCES = 'lancedb.RUST_THIRD_PARTY_LICENSES.html';

/** The target asked for (`--target x` or `--target=x`), else this machine's. */
function targetFrom(argv: readonly string[]): VsixTarget {
  let asked: string | undefined;
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at]!;
    if (arg === '--target') asked = argv[++at];
    else if (arg.startsWith('--target=')) asked = arg.slice('--target='.length);
    else throw new Error(`unknown argument ${arg}: the one option is --target <${TARGETS}>`);
  }
  if (asked !== undefined) {
    if (!isVsixTarget(asked)) throw new Error(`--target ${asked} is not a platform the extension is packaged for: one of ${TARGETS} (the extension runs in a Node extension host, so there is no web package)`);
    return asked;
  }
  const here = currentVsixTarget();
  if (!here) throw new Error(`VS Code publishes no build for ${process.platform}-${process.arch}: name the platform to package for with --target <${TARGETS}>`);
  return here;
}

/** The platform's native module in node_modules, or an error saying how to fetch it. */
function nativeModuleFile(target: VsixTarget, binary: string): string {
  const name = lancePackage(binary);
  try {
    const manifest = createRequire(path.join(ROOT, 'package.json')).resolve(`${name}/package.json`);
    return path.join(path.dirname(manifest), lanceFile(binary));
  } catch {
    throw new Error(`the .vsix for ${target} carries LanceDB's native module ${name}, which is not in node_modules (npm installs only this machine's). Fetch it with\n  ${fetchCommand(binary)}\nand package again.`);
  }
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${result.status ?? result.signal})`);
}

function main(): void {
  const started = performance.now();
  const target = targetFrom(process.argv.slice(2));
  const binary = LANCE_BINARIES[target];
  // Checked before building, so a missing module fails in a second, not after the bundles.
  const native = binary ? nativeModuleFile(target, binary) : undefined;
  run(process.execPath, ['esbuild.mjs', '--production']);
  // Only this target's module: an earlier package for another platform may have left its own.
  for (const file of readdirSync(VENDOR).filter((f) => /^lancedb\..+\.node$/.test(f) || f === RUST_LICENCES)) rmSync(path.join(VENDOR, file));
  if (native && binary) {
    copyFileSync(native, path.join(VENDOR, lanceFile(binary)));
    // The module is not bundled, so the build's notices do not name it: its package and its crates' licences are added here.
    const lanceDir = path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('@lancedb/lancedb/package.json'));
    copyFileSync(path.join(lanceDir, 'RUST_THIRD_PARTY_LICENSES.html'), path.join(VENDOR, RUST_LICENCES));
    appendFileSync(path.join(ROOT, 'dist', NOTICES_FILE), `\n${'-'.repeat(78)}\n\n${packageNotice(path.dirname(native))}\n\nThe Rust crates compiled into it: dist/vendor/${RUST_LICENCES}.\n`);
  } else console.log(`LanceDB publishes no native module for ${target}: this package's embedded vector store will say so and name the other stores.`);
  const { name, version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  run(process.execPath, [path.join(ROOT, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--skip-license', '--no-rewrite-relative-links', '--target', target]);
  const vsix = path.join(ROOT, `${name}-${target}-${version}.vsix`);
  // In vsce's units (MB of 2^20 bytes), so the two lines agree.
  const megabytes = statSync(vsix).size / 2 ** 20;
  console.log(`${path.basename(vsix)}: ${megabytes.toFixed(1)} MB, ${binary ? `LanceDB ${binary} inside` : 'no LanceDB'}, packaged in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    console.error(`npm run package: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
