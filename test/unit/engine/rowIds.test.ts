// Rows whose ids collide keep their own cases in every method that reads rows, and the collision is an input problem
// at both rows' lines; end to end, such a run logs every row, a rerun is served from the cache, and a resume of it
// neither reruns nor drops a case.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeEach, test } from 'node:test';
import { buildPlan } from '../../../src/core/engine/plan.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { InputProblem } from '../../../src/core/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from './workspace.js';

const EXAMPLES = path.resolve(__dirname, '../../../examples');

/** The first `count` rows of a bundled example dataset, without their ids. */
function exampleRows(file: string, count: number): Record<string, unknown>[] {
  return readFileSync(path.join(EXAMPLES, file), 'utf8').split('\n').filter((l) => l.trim()).slice(0, count).map((line) => {
    const { id: _id, ...row } = JSON.parse(line) as Record<string, unknown>;
    return row;
  });
}

/**
 * Four rows named so that every kind of collision happens: lines 1 and 2 both say id 7; line 3 has no id, so it is
 * named by its position 2, and line 4 says id 2.
 */
const COLLIDING: (string | number | undefined)[] = [7, 7, undefined, 2];
const UNIQUE = ['a', 'b', 'c', 'd'];

function withIds(rows: Record<string, unknown>[], ids: (string | number | undefined)[]): string[] {
  return rows.map((row, i) => JSON.stringify(ids[i] === undefined ? row : { id: ids[i], ...row }));
}

interface MethodCase {
  method: string;
  rows: Record<string, unknown>[];
  params: string;
}

const llmEvalRows = [0, 1, 2, 3].map((i) => ({ context: `User: how do I reset device ${i}?`, response: `Hold the button of device ${i} for ten seconds.` }));

const METHODS: MethodCase[] = [
  { method: 'rgb', rows: exampleRows('rgb/en.jsonl', 4), params: '{ testbed: noise_robustness, noiseRates: [0, 0.4] }' },
  { method: 'ifrag', rows: exampleRows('ifrag/ifrag.jsonl', 4), params: '{ instruction: A }' },
  { method: 'ragas', rows: exampleRows('ragas/ragas.jsonl', 4), params: '{}' },
  { method: 'llm-eval', rows: llmEvalRows, params: '{ dimensions: [ content ] }' },
  { method: 'stress', rows: exampleRows('stress/qa.jsonl', 4), params: '{ testbed: noise_robustness }' },
];

/** Planned (not run) with a judge named, so methods that score with one accept their params; nothing is called. */
async function planned(method: MethodCase, ids: (string | number | undefined)[]) {
  const ws = createWorkspace({
    rows: [],
    extraLines: withIds(method.rows, ids),
    evalYaml: ({ dataset }) => `version: 1
name: colliding ids
models: [ "extractive:bm25" ]
judge: { provider: openai-compatible, model: fixture-judge, baseUrl: "http://127.0.0.1:9/v1" }
suites:
  - { id: s, method: ${method.method}, dataset: ${dataset}, params: ${method.params} }
`,
  });
  try {
    const plan = await buildPlan(await loadEvalSpec(ws.evalFile), new AbortController().signal);
    return { cases: plan.suites[0]!.cases, problems: plan.problems };
  } finally {
    ws.cleanup();
  }
}

const idProblemLines = (problems: InputProblem[]) => problems.filter((p) => /row id|this row/.test(p.message)).map((p) => p.line);

for (const method of METHODS) {
  test(`${method.method}: rows whose ids collide keep their own cases, and each collision is told at both rows' lines`, async () => {
    const unique = await planned(method, UNIQUE);
    assert.deepEqual(unique.problems, [], 'the rows are good rows');
    assert.ok(unique.cases.length >= 4, `${unique.cases.length} cases`);

    const colliding = await planned(method, COLLIDING);
    assert.equal(colliding.cases.length, unique.cases.length, 'as many cases as with unique ids: no row merged or dropped');
    assert.equal(new Set(colliding.cases.map((c) => c.id)).size, colliding.cases.length, 'every case has its own id');
    assert.deepEqual(new Set(colliding.cases.map((c) => c.row.line)), new Set([1, 2, 3, 4]), 'every row has cases');
    assert.deepEqual(idProblemLines(colliding.problems), [1, 2, 3, 4]);
    assert.ok(colliding.problems.every((p) => p.hint?.includes('give each row a unique id')), JSON.stringify(colliding.problems));
    const later = colliding.cases.filter((c) => c.row.line === 2).map((c) => c.id);
    assert.ok(later.every((id) => id.startsWith('s/7@line2')), later.join(', '));
  });

  test(`${method.method}: a row whose id is neither a string nor a number is told at its line and builds no case`, async () => {
    const planned3 = await planned(method, ['a', { x: 1 } as unknown as string, 'c', 'd']);
    assert.deepEqual(planned3.problems.map((p) => [p.line, p.message]), [[2, 'row id: expected a string or number, got a mapping']]);
    assert.ok(!planned3.cases.some((c) => c.row.line === 2));
  });
}

test('needle builds its own grid: its case ids are unique without any dataset ids', async () => {
  const ws = createWorkspace({
    rows: [],
    evalYaml: () => `version: 1
name: needle ids
models: [ "extractive:bm25" ]
suites:
  - { id: n, method: needle, params: { contextLengths: [1000, 2000], depths: [0, 50, 100] } }
`,
  });
  try {
    const plan = await buildPlan(await loadEvalSpec(ws.evalFile), new AbortController().signal);
    const ids = plan.suites[0]!.cases.map((c) => c.id);
    assert.equal(ids.length, 6);
    assert.equal(new Set(ids).size, ids.length);
  } finally {
    ws.cleanup();
  }
});

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});
beforeEach(() => {
  server.setLatency(0);
});

const options = (signal = new AbortController().signal) => ({ signal, credentials: envCredentials({}) });

/** Six landmark rows: three say id 7, the fourth has none (position 3), the last two say id 3. */
function collidingLandmarks() {
  const ids: (number | undefined)[] = [7, 7, 7, undefined, 3, 3];
  const rows = rgbRows(6).map((row, i) => {
    const { id: _id, ...rest } = row;
    return ids[i] === undefined ? rest : { ...rest, id: ids[i] };
  });
  return createWorkspace({ rows: [], extraLines: rows.map((r) => JSON.stringify(r)), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
}

test('a run over colliding ids logs one case per row, says so as input problems, and an unchanged rerun comes from the cache', async (t) => {
  const ws = collidingLandmarks();
  t.after(() => ws.cleanup());
  answerLandmarks(server, 6);
  server.requests.length = 0;

  const first = await runEvaluation(ws.evalFile, options());
  assert.equal(first.totals.cases, 6);
  assert.equal(first.totals.modelCalls, 6);
  assert.deepEqual(idProblemLines(first.problems), [1, 2, 1, 3, 4, 5, 4, 6]);
  const log = await readRunLog(first.logFile);
  assert.deepEqual(log.cases.map((c) => c.case.id).sort(), ['noise/3/noise=0', 'noise/3@line5/noise=0', 'noise/3@line6/noise=0', 'noise/7/noise=0', 'noise/7@line2/noise=0', 'noise/7@line3/noise=0']);
  assert.equal(log.summary?.problems.length, 8, 'the problems are kept with the run');

  const second = await runEvaluation(ws.evalFile, options());
  assert.equal(second.totals.modelCalls, 0, 'the same rows get the same case ids, and so the cache');
  assert.equal(second.totals.cacheHits, 6);
  assert.deepEqual((await readRunLog(second.logFile)).cases.map((c) => c.case.id).sort(), log.cases.map((c) => c.case.id).sort());
});

test('resuming a cancelled run over colliding ids runs only the missing rows and drops none', async (t) => {
  const ws = collidingLandmarks();
  t.after(() => ws.cleanup());
  answerLandmarks(server, 6);
  server.setLatency(30);

  const controller = new AbortController();
  const cancelled = await runEvaluation(ws.evalFile, {
    ...options(controller.signal),
    noCache: true,
    onEvent: (e) => { if (e.type === 'case-finished' && e.done === 2) controller.abort(); },
  });
  assert.equal(cancelled.status, 'cancelled');
  const finishedBefore = new Set((await readRunLog(cancelled.logFile)).cases.map((c) => c.case.row.line));
  assert.ok(finishedBefore.size >= 2 && finishedBefore.size < 6, `finished ${finishedBefore.size}`);

  server.requests.length = 0;
  const resumed = await runEvaluation(ws.evalFile, { ...options(), noCache: true, resume: cancelled.logFile });
  assert.equal(resumed.totals.cases, 6);
  const full = await readRunLog(cancelled.logFile);
  assert.equal(full.cases.length, 6, 'every row once');
  assert.equal(new Set(full.cases.map((c) => c.case.id)).size, 6);
  const asked = server.requests.map((r) => Number(/landmark number (\d+)\?/.exec(r.text)?.[1]));
  assert.equal(asked.length, 6 - finishedBefore.size, 'only the rows not finished before are asked');
  for (const row of asked) assert.ok(!finishedBefore.has(row + 1), `row at line ${row + 1} was asked again`);
});
