// Benchmark: production bundle sizes (raw and gzip) and the cost of loading the extension bundle, the part of
// activation that happens before any VS Code API is called. Prints figures (BENCHMARKS.md keeps them); asserts nothing.
// Run: npm run bench -- extensionBundle
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import Module from 'node:module';

const ROOT = path.resolve(__dirname, '..');

async function buildProduction(outdir: string): Promise<void> {
  const common = { bundle: true, minify: true, sourcemap: false, legalComments: 'none' as const, logLevel: 'warning' as const, absWorkingDir: ROOT };
  await Promise.all([
    esbuild.build({ ...common, entryPoints: { extension: 'src/extension/extension.ts' }, outdir, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
    esbuild.build({ ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir, platform: 'node', format: 'cjs', target: 'node20' }),
    esbuild.build({ ...common, entryPoints: { webview: 'webview/main.ts' }, outdir, platform: 'browser', format: 'esm', target: 'es2022' }),
    esbuild.build({ ...common, entryPoints: { 'encodings/o200k_base': 'gpt-tokenizer/encoding/o200k_base', 'encodings/cl100k_base': 'gpt-tokenizer/encoding/cl100k_base' }, outdir, platform: 'node', format: 'cjs', target: 'node20' }),
  ]);
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

async function main(): Promise<void> {
  const outdir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-bundles-'));
  try {
    await buildProduction(outdir);
    for (const name of ['extension.js', 'webview.js', 'cli.js', 'encodings/o200k_base.js', 'encodings/cl100k_base.js']) {
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

void main();
