// Builds every bundle: the CLI and the extension host (Node, CommonJS) and, once it exists, the webview (browser).
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

const builds = [
  {
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
];
// The tokenizer encodings go in files of their own, loaded on first use (src/core/prompt/encodings.ts).
builds.push({
  ...common,
  entryPoints: { 'encodings/o200k_base': 'gpt-tokenizer/encoding/o200k_base', 'encodings/cl100k_base': 'gpt-tokenizer/encoding/cl100k_base' },
  outdir: 'dist',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: false,
});
if (existsSync('src/extension/extension.ts')) {
  builds.push({
    ...common,
    entryPoints: { extension: 'src/extension/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  });
}
if (existsSync('webview/main.ts')) {
  builds.push({
    ...common,
    entryPoints: { webview: 'webview/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
  });
}

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
