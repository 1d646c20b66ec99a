// Builds every bundle: the CLI and the extension host (Node, CommonJS) and, once it exists, the webview (browser).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --outdir <dir>: somewhere other than dist/ (bench/extensionBundle.ts measures a production build in a temp dir).
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt < 0 ? 'dist' : process.argv[outdirAt + 1];

// LanceDB (the embedded vector store) is a native module: a .node file per platform that no bundle can hold. Every
// Node bundle leaves it to a require at run time, which finds it in the node_modules the CLI was installed with
// (src/core/corpus/stores/lanceModule.ts); the .vsix ships none, so the extension says to use the CLI for it.
const nativeModules = ['@lancedb/lancedb'];

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
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: nativeModules,
  },
];
// The tokenizer encodings go in files of their own, loaded on first use (src/core/prompt/encodings.ts).
builds.push({
  ...common,
  entryPoints: { 'encodings/o200k_base': 'gpt-tokenizer/encoding/o200k_base', 'encodings/cl100k_base': 'gpt-tokenizer/encoding/cl100k_base' },
  outdir,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: false,
});
// The vendor libraries a run may not use (the OpenAI and Anthropic SDKs, the OpenTelemetry exporter) likewise: one
// file each in dist/vendor/, required on first use by src/core/vendor/load.ts; every other file of that folder is a
// barrel naming what core uses. Shared by the CLI and the extension, so the two main bundles stay CommonJS (what the
// extension host loads) rather than going to ESM for esbuild's code splitting.
builds.push({
  ...common,
  entryPoints: Object.fromEntries(readdirSync('src/core/vendor').filter((file) => file !== 'load.ts' && file !== 'pdf.ts').map((file) => [`vendor/${file.replace(/\.ts$/, '')}`, `src/core/vendor/${file}`])),
  outdir,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
});
// pdf.js (through unpdf) sets browser globals when it loads, `globalThis.navigator ??= {}` among them; VS Code's
// extension host makes `navigator` a getter that reports an error when read and throws when written, so the PDF
// reader would fail to load there. This bundle gets a navigator of its own instead of the global one (pdf.js reads
// only its platform, user agent and language, which matter to drawing, not to text).
builds.push({
  ...common,
  entryPoints: { 'vendor/pdf': 'src/core/vendor/pdf.ts' },
  outdir,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  define: { 'globalThis.navigator': 'pdfNavigator', navigator: 'pdfNavigator' },
  banner: { js: "var pdfNavigator = { platform: '', userAgent: '', language: 'en-US' };" },
});
if (existsSync('src/extension/extension.ts')) {
  builds.push({
    ...common,
    entryPoints: { extension: 'src/extension/extension.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', ...nativeModules],
  });
}
if (existsSync('webview/main.ts')) {
  builds.push({
    ...common,
    entryPoints: { webview: 'webview/main.ts' },
    outdir,
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
