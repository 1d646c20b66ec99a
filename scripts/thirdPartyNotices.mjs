// The third-party notices of a production build: every npm package esbuild put into a bundle, with its licence text,
// written to dist/THIRD_PARTY_NOTICES.txt (shipped in the .vsix). Built from esbuild's metafiles, so a package added
// to a bundle is named without anyone keeping a list.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const NOTICES_FILE = 'THIRD_PARTY_NOTICES.txt';

/** Code a package carries from another project without that project's licence file: named in the package's notice. */
const CARRIED = {
  unpdf: "It carries a build of Mozilla's pdf.js (https://github.com/mozilla/pdf.js), Copyright Mozilla Foundation, licensed under the Apache License, Version 2.0 (the text is given above for the Apache-2.0 packages; also http://www.apache.org/licenses/LICENSE-2.0).",
};

/** Licence-like files a package ships at its root (LICENSE, LICENCE.md, COPYING, NOTICE …). */
const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;

/**
 * The package folders a build's inputs come from, relative to `root`: `node_modules/<name>` or
 * `node_modules/@scope/name`, the innermost for a nested copy (`node_modules/a/node_modules/b`).
 * @param {readonly { inputs: Record<string, unknown> }[]} metafiles
 * @returns {string[]} sorted, each once
 */
export function bundledPackageDirs(metafiles) {
  const dirs = new Set();
  for (const { inputs } of metafiles) {
    for (const input of Object.keys(inputs)) {
      const parts = input.split('/');
      const at = parts.lastIndexOf('node_modules');
      if (at < 0 || at + 1 >= parts.length) continue;
      const nameParts = parts[at + 1].startsWith('@') ? 2 : 1;
      dirs.add(parts.slice(0, at + 1 + nameParts).join('/'));
    }
  }
  return [...dirs].sort();
}

/**
 * One package's notice: name, version, declared licence, then the text of each licence file it ships (or a line
 * saying it ships none, so the gap is visible rather than silent).
 * @param {string} dir the package's folder
 */
export function packageNotice(dir) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const licence = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type ?? 'not declared';
  const files = readdirSync(dir).filter((file) => LICENCE_FILE.test(file)).sort();
  const texts = files.map((file) => readFileSync(path.join(dir, file), 'utf8').trim());
  const body = texts.length > 0 ? texts.join('\n\n') : `(the package ships no licence file; its package.json declares ${licence})`;
  const carried = CARRIED[manifest.name] ? `\n\n${CARRIED[manifest.name]}` : '';
  return `${manifest.name} ${manifest.version} — ${licence}\n\n${body}${carried}`;
}

/**
 * Writes the notices of every package the builds bundled into `<outdir>/THIRD_PARTY_NOTICES.txt`.
 * @param {string} root the project folder the metafiles' paths are relative to
 * @param {readonly { inputs: Record<string, unknown> }[]} metafiles
 * @param {string} outdir
 * @returns {string[]} the packages' folders
 */
export function writeThirdPartyNotices(root, metafiles, outdir) {
  const dirs = bundledPackageDirs(metafiles);
  const rule = `\n\n${'-'.repeat(78)}\n\n`;
  const head = 'RAG Inspector bundles the following npm packages. Each is listed with its licence as it ships it.';
  writeFileSync(path.join(outdir, NOTICES_FILE), `${head}${rule}${dirs.map((dir) => packageNotice(path.join(root, dir))).join(rule)}\n`);
  return dirs;
}
