// Tweak and rerun: fixing one bad row of a stress dataset changes only the cases that draw its passages. Every other
// case is sent byte for byte as before and answered from the cache, because each row ranks the distractor pool by a
// seeded hash of (row, passage text) rather than by position in the file (rank.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { EvalCase } from '../../../src/core/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { expandStressRow } from '../../../src/core/suites/stress/cases.js';
import { parseStressParams } from '../../../src/core/suites/stress/params.js';
import { poolFromRows } from '../../../src/core/suites/stress/pool.js';
import { caseRequests } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;
let dir: string;
useFixtureServer((started) => { server = started; });
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'stress-edit-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 20;
const BAD = 7;

/** Row i: one passage with its own code word, two about other things; every passage text distinct. */
function rowData(i: number, withQuestion = true): Record<string, unknown> {
  return {
    id: `r${i}`,
    ...(withQuestion ? { user_input: `Which code word opens vault ${i}?` } : {}),
    reference: `kestrel-${i}`,
    retrieved_contexts: [`Vault ${i} opens with the code word kestrel-${i}.`, `Vault ${i} was built in ${1900 + i}.`, `Guard ${i} patrols corridor ${i % 4}.`],
  };
}

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const dataset = (fixed: boolean) => jsonl(Array.from({ length: ROWS }, (_, i) => rowData(i, fixed || i !== BAD)));

function evalFile(ws: string): string {
  const file = path.join(ws, 'edit.eval.yaml');
  writeFileSync(file, `version: 1
models:
  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }
maxRetries: 0
suites:
  - { id: noise, method: stress, dataset: qa.jsonl, params: { testbed: noise_robustness } }
  - { id: rejection, method: stress, dataset: qa.jsonl, params: { testbed: negative_rejection } }
  - { id: position, method: stress, dataset: qa.jsonl, params: { testbed: position, k: 3 } }
`);
  return file;
}

async function casesOf(logFile: string): Promise<Map<string, { evalCase: EvalCase; cached: boolean }>> {
  const log = await readRunLog(logFile);
  return new Map(log.cases.map((line) => [line.case.id, { evalCase: line.case, cached: line.result.response?.cached === true }]));
}

const credentials = envCredentials({});

describe('editing one row of a stress dataset', () => {
  it('fixing a bad row: every case that draws none of its passages is sent byte for byte as before and comes from the cache', async () => {
    server.addRule({ match: { model: 'model-a' }, reply: 'insufficient information' });
    const ws = mkdtempSync(path.join(dir, 'ws-'));
    writeFileSync(path.join(ws, 'qa.jsonl'), dataset(false));
    const file = evalFile(ws);
    const first = await runEvaluation(file, { signal: new AbortController().signal, credentials });
    assert.ok(first.problems.some((p) => p.line === BAD + 1), 'the row without a question is reported at its line');
    const before = await casesOf(first.logFile);
    assert.equal(before.size, (ROWS - 1) * (5 + 1 + 4));

    writeFileSync(path.join(ws, 'qa.jsonl'), dataset(true));
    server.requests.length = 0;
    const second = await runEvaluation(file, { signal: new AbortController().signal, credentials });
    assert.deepEqual(second.problems, []);
    const after = await casesOf(second.logFile);
    assert.equal(after.size, ROWS * (5 + 1 + 4));

    const fixedPassages = new Set(rowData(BAD).retrieved_contexts as string[]);
    const drawsFixed = (c: EvalCase) => c.documents.some((d) => fixedPassages.has(d.text));
    let untouched = 0;
    const changed: string[] = [];
    for (const [id, { evalCase, cached }] of after) {
      const earlier = before.get(id);
      if (!earlier) {
        assert.equal(evalCase.row.line, BAD + 1, `${id} is new but not of the fixed row`);
        continue;
      }
      if (drawsFixed(evalCase)) {
        changed.push(id);
        continue;
      }
      assert.equal(JSON.stringify(evalCase.messages), JSON.stringify(earlier.evalCase.messages), `${id}: its messages changed though it draws none of the fixed row's passages`);
      assert.deepEqual(evalCase.documents.map((d) => d.source), earlier.evalCase.documents.map((d) => d.source), `${id}: its passages' sources changed`);
      assert.ok(cached, `${id} was asked again`);
      untouched++;
    }
    // Only the fixed row's cases and those that now draw one of its passages went to the model.
    const sent = new Set(caseRequests(server.requests).map((r) => r.lastUserMessage));
    const expected = new Set([...after.values()].filter(({ evalCase }) => !before.has(evalCase.id) || drawsFixed(evalCase)).map(({ evalCase }) => evalCase.messages.at(-1)!.content));
    for (const message of sent) assert.ok(expected.has(message), `a request no edit explains was sent: ${message.slice(0, 120)}`);
    assert.ok(untouched > changed.length, `${untouched} untouched, ${changed.length} changed by the fix`);
  });

  it('removing a row: the other rows\' cases keep their passages (same texts, same order) unless they drew the removed row\'s', () => {
    const params = parseStressParams({ testbed: 'negative_rejection', passageNum: 4 }, { file: '/data/x.eval.yaml' });
    const context = { suiteId: 's', seed: 2333, models: [] };
    const all = Array.from({ length: ROWS }, (_, i) => rowData(i));
    const without = all.filter((_, i) => i !== BAD);
    const build = (rows: Record<string, unknown>[]) => {
      const pool = poolFromRows(rows.map((data, index) => ({ index, data })));
      return new Map(rows.map((data, index) => {
        const [c] = expandStressRow({ ref: { file: '/data/qa.jsonl', line: index + 1, index }, data }, params, context, pool);
        return [c!.id, c!.documents.map((d) => d.text)];
      }));
    };
    const full = build(all);
    const removed = new Set(all[BAD]!.retrieved_contexts as string[]);
    let kept = 0;
    for (const [id, texts] of build(without)) {
      const earlier = full.get(id)!;
      if (earlier.some((t) => removed.has(t))) continue;
      assert.deepEqual(texts, earlier, id);
      kept++;
    }
    assert.ok(kept > 0);
  });
});
