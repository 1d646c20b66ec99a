// Benchmark: production bundle sizes (raw and gzip) and the cost of loading the extension bundle, the part of
// activation that happens before any VS Code API is called. Prints figures (BENCHMARKS.md keeps them); asserts nothing.
// Run: npm run bench -- extensionBundle
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import Module from 'node:module';

const ROOT = path.resolve(__dirname, '..');

/** The production build itself (esbuild.mjs --production), written to `outdir` instead of dist/. */
function buildProduction(outdir: string): void {
  const built = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', outdir], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`esbuild.mjs --production exited with ${built.status}`);
}

/** Loads the extension bundle with `vscode` answered by an empty object: module evaluation only, no activate(). */
function loadMilliseconds(file: string): number {
  const resolve = (Module as unknown as { _resolveFilename: (...args: unknown[]) => string })._resolveFilename;
  (Module as unknown as { _resolveFilename: (...args: unknown[]) => string })._resolveFilename = function (request: unknown, ...rest: unknown[]) {
    return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: {} } as unknown as NodeJS.Module;
  const started = process.hrtime.bigint();
  // A plain require is the point: this is how the extension host loads the bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(file);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function main(): void {
  const outdir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-bundles-'));
  try {
    buildProduction(outdir);
    const loadedOnFirstUse = ['encodings', 'vendor'].flatMap((folder) => readdirSync(path.join(outdir, folder)).map((file) => `${folder}/${file}`));
    for (const name of ['extension.js', 'webview.js', 'cliMain.js', 'cli.js', ...loadedOnFirstUse]) {
      const file = path.join(outdir, name);
      const raw = statSync(file).size;
      const gzip = gzipSync(readFileSync(file)).length;
      console.log(`${name.padEnd(26)} ${(raw / 1024).toFixed(0).padStart(6)} KiB   gzip ${(gzip / 1024).toFixed(0).padStart(5)} KiB`);
    }
    console.log(`load dist/extension.js (production, first require in a fresh process): ${loadMilliseconds(path.join(outdir, 'extension.js')).toFixed(1)} ms`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

main();
