// What the built CLI spends before a run's first call, for a run that does not need it: ICU (the first Intl object a
// process makes costs 10–25 ms), here asserted as never started by a run of plain ASCII text against an
// OpenAI-compatible server (the extractive reader needs it for the built-in prompt's punctuation). The built CLI (dist/cli.js; `npm run test:unit` builds it) runs with a
// preloaded tracer that records each Intl service and locale-aware method it is asked for.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { createWorkspace, rgbRows } from '../engine/workspace.js';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

/** Records (in INTL_USED, at exit) the first use of each Intl constructor and locale-aware method, with where it came from. */
const TRACER = `
const used = new Map();
const note = (name) => { if (!used.has(name)) used.set(name, new Error().stack.split('\\n').slice(3, 6).join(' < ')); };
for (const name of Object.getOwnPropertyNames(Intl)) {
  const original = Intl[name];
  if (typeof original !== 'function') continue;
  Intl[name] = new Proxy(original, {
    apply: (target, self, args) => (note('Intl.' + name), Reflect.apply(target, self, args)),
    construct: (target, args) => (note('Intl.' + name), Reflect.construct(target, args)),
  });
}
for (const [owner, name] of [[String.prototype, 'localeCompare'], [Number.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleDateString']]) {
  const original = owner[name];
  owner[name] = function (...args) { note(name); return original.apply(this, args); };
}
process.on('exit', () => require('node:fs').writeFileSync(process.env.INTL_USED, JSON.stringify(Object.fromEntries(used))));
`;

let server: FixtureServer;
let tracerDir: string;

before(async () => {
  server = await startFixtureServer();
  tracerDir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-intl-'));
  writeFileSync(path.join(tracerDir, 'tracer.cjs'), TRACER);
});
after(async () => {
  await server.close();
  rmSync(tracerDir, { recursive: true, force: true });
});

async function intlUsedByRun(t: { after(fn: () => void): void }, model: string): Promise<Record<string, string>> {
  const ws = createWorkspace({
    rows: rgbRows(3),
    evalYaml: () => `version: 1\nname: startup\nmodels:\n  - ${model}\nmaxRetries: 0\nsuites:\n  - id: noise\n    method: rgb\n    dataset: data.jsonl\n    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }\n`,
  });
  t.after(() => ws.cleanup());
  const usedFile = path.join(ws.dir, 'intl.json');
  const env = { PATH: process.env.PATH ?? '', HOME: ws.dir, CI: 'true', INTL_USED: usedFile };
  // Asynchronously: the fixture server answering the CLI runs in this process. Rejects unless the run exits 0.
  await promisify(execFile)(process.execPath, ['--require', path.join(tracerDir, 'tracer.cjs'), CLI, 'run', ws.evalFile, '--no-cache', '--quiet'], { cwd: ws.dir, env, timeout: 60_000 });
  return JSON.parse(readFileSync(usedFile, 'utf8')) as Record<string, string>;
}

test('a run of plain ASCII text against an OpenAI-compatible server starts no ICU: no Intl object, no locale-aware method', async (t) => {
  assert.deepEqual(await intlUsedByRun(t, `{ provider: openai-compatible, model: fixture-model, baseUrl: ${server.openaiBaseUrl} }`), {});
});
