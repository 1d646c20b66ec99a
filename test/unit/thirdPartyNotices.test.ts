// The production build's third-party notices: the packages are found from esbuild's inputs (scoped, nested), and each
// notice carries the licence text the package ships, or says plainly that it ships none.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { bundledPackageDirs, NOTICES_FILE, packageNotice, writeThirdPartyNotices } from '../../scripts/thirdPartyNotices.mjs';

function fakePackage(root: string, dir: string, manifest: object, files: Record<string, string> = {}): void {
  mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, dir, 'package.json'), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, dir, name), text);
}

test('the bundled packages are read off the inputs: scoped names, the innermost of nested copies, own sources left out', () => {
  const inputs = {
    'src/cli/main.ts': {},
    'node_modules/yaml/dist/index.js': {},
    'node_modules/yaml/dist/compose.js': {},
    'node_modules/@lancedb/lancedb/dist/index.js': {},
    'node_modules/openai/node_modules/undici/lib/fetch.js': {},
  };
  assert.deepEqual(bundledPackageDirs([{ inputs }, { inputs: { 'node_modules/lit/index.js': {} } }]), [
    'node_modules/@lancedb/lancedb', 'node_modules/lit', 'node_modules/openai/node_modules/undici', 'node_modules/yaml',
  ]);
});

test('a notice holds the package\'s licence files, or says it ships none', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'notices-'));
  fakePackage(root, 'node_modules/with-licence', { name: 'with-licence', version: '1.2.3', license: 'MIT' }, { 'LICENSE.md': 'MIT License\nCopyright (c) Someone', 'README.md': 'not a licence' });
  fakePackage(root, 'node_modules/@scope/bare', { name: '@scope/bare', version: '0.1.0', license: 'Apache-2.0' });
  assert.equal(packageNotice(path.join(root, 'node_modules/with-licence')), 'with-licence 1.2.3 — MIT\n\nMIT License\nCopyright (c) Someone');
  assert.match(packageNotice(path.join(root, 'node_modules/@scope/bare')), /^@scope\/bare 0\.1\.0 — Apache-2\.0\n\n\(the package ships no licence file; its package\.json declares Apache-2\.0\)$/);

  const out = path.join(root, 'dist');
  mkdirSync(out);
  writeThirdPartyNotices(root, [{ inputs: { 'node_modules/with-licence/index.js': {}, 'node_modules/@scope/bare/x.js': {} } }], out);
  const text = readFileSync(path.join(out, NOTICES_FILE), 'utf8');
  assert.ok(text.indexOf('\n@scope/bare 0.1.0') < text.indexOf('\nwith-licence 1.2.3'), 'sorted by folder');
  assert.ok(!text.includes('not a licence'));
});
