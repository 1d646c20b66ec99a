// Builds every bundle: the CLI and the extension host (Node, CommonJS) and, once it exists, the webview (browser).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { writeThirdPartyNotices } from './scripts/thirdPartyNotices.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --outdir <dir>: somewhere other than dist/ (bench/extensionBundle.ts measures a production build in a temp dir).
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt < 0 ? 'dist' : process.argv[outdirAt + 1];

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // A production build names what it bundled (dist/THIRD_PARTY_NOTICES.txt) from esbuild's record of its inputs.
  metafile: production,
};

const builds = [
  // The command line: dist/cli.js (the bin) only starts dist/cliMain.js with its compiled code cached between starts
  // (src/cli/codeCache.ts); the bundle itself is no command of its own.
  {
    ...common,
    entryPoints: { cli: 'src/cli/bin.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: { cliMain: 'src/cli/main.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
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
//
// LanceDB (vendor/lancedb.js, the embedded vector store) is such a bundle too, apache-arrow inside, but its native
// module is a .node file per platform (~160 MB) that no bundle can hold: its loader's requires of
// `./lancedb.<platform>.node` (the file the platform-specific .vsix puts beside the bundle, scripts/packageVsix.ts)
// and of `@lancedb/lancedb-<platform>` (node_modules, for the CLI) are left to run time.
builds.push({
  ...common,
  external: ['*.node', '@lancedb/lancedb-*'],
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
  // unpdf's build of pdf.js carries no licence comment of its own: the bundle says whose code it holds.
  banner: { js: "/*! Contains Mozilla's pdf.js (https://github.com/mozilla/pdf.js), Copyright Mozilla Foundation, licensed under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0), through unpdf (MIT). */\nvar pdfNavigator = { platform: '', userAgent: '', language: 'en-US' };" },
});
if (existsSync('src/extension/extension.ts')) {
  builds.push({
    ...common,
    entryPoints: { extension: 'src/extension/extension.ts' },
    outdir,
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
    outdir,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
  });
}

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  const results = await Promise.all(builds.map((options) => esbuild.build(options)));
  if (production) writeThirdPartyNotices(process.cwd(), results.map((result) => result.metafile), outdir);
}
