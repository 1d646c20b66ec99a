// IF-RAG end to end: three suites (A, B, C) over one dataset through runEvaluation, the real OpenAI SDK and the fixture server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { formatTable } from '../../../src/core/report/summaryText.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { combineIfRagTables, isIfRagReport } from '../../../src/core/suites/ifrag/report.js';
import type { ReportTable } from '../../../src/core/suites/contract.js';
import { createWorkspace } from '../engine/workspace.js';
import { loggedRun } from '../engine/loggedRun.js';

const ROWS = 4;
const REFUSAL = 'I cannot answer the question due to the insufficient information in the documents.';

/** Row i: "What is item i?", true answer Alpha<i>, counterfactual Omega<i>, two passages each. */
function rows(): string[] {
  return Array.from({ length: ROWS }, (_, i) => JSON.stringify({
    id: `item${i}`,
    question: `What is item ${i}?`,
    answer: `Alpha${i}`,
    passages: [`Item ${i} is Alpha${i}.`, `Records list item ${i} as Alpha${i}.`],
    counterfactual: { answer: `Omega${i}`, passages: [`Item ${i} is Omega${i}.`, `Records list item ${i} as Omega${i}.`] },
  }));
}

/**
 * The scripted model under test, reading the prompt like a model would: it answers with the first of its row's
 * answers in document order; under B it cites that document for even rows only; under C it lists both answers
 * only for row 0; under A it refuses row 3's factual question.
 */
function goodModel(req: RecordedRequest): string {
  const row = Number(/What is item (\d+)\?/.exec(req.lastUserMessage)?.[1]);
  const instruction = req.text.includes('point out the document ID') ? 'B' : req.text.includes('provide all of them') ? 'C' : 'A';
  const docs = [...req.lastUserMessage.matchAll(/^(\[Document \d+\]) (.*)$/gm)].map((m) => ({ label: m[1]!, text: m[2]! }));
  const answers = [`Alpha${row}`, `Omega${row}`].filter((a) => docs.some((d) => d.text.includes(a)));
  const first = docs.find((d) => answers.some((a) => d.text.includes(a)))!;
  const answer = answers.find((a) => first.text.includes(a))!;
  if (instruction === 'A' && row === 3 && answers.length === 1 && answer.startsWith('Alpha')) return REFUSAL;
  if (instruction === 'B') return row % 2 === 0 ? `${answer} ${first.label}` : answer;
  if (instruction === 'C' && row === 0) return answers.join(' and ');
  return `It is ${answer}.`;
}

let server: FixtureServer;
before(async () => {
  server = await startFixtureServer({
    rules: [
      { match: { model: 'fixture-good' }, reply: goodModel },
      { match: { model: 'fixture-refuser' }, reply: REFUSAL },
    ],
  });
});
after(async () => {
  await server.close();
});

function evalYaml(baseUrl: string): string {
  const suite = (id: string, instruction: string) => `  - { id: ${id}, method: ifrag, dataset: data.jsonl, params: { instruction: ${instruction}, k: 4 } }`;
  return [
    'version: 1',
    'name: ifrag engine test',
    'models:',
    `  - { provider: openai-compatible, model: fixture-good, baseUrl: "${baseUrl}" }`,
    `  - { provider: openai-compatible, model: fixture-refuser, baseUrl: "${baseUrl}" }`,
    'concurrency: 4',
    'maxRetries: 1',
    'timeoutMs: 5000',
    'seed: 99',
    'suites:',
    suite('if-a', 'A'),
    suite('if-b', 'B'),
    suite('if-c', 'C'),
    '',
  ].join('\n');
}

const values = (table: ReportTable) => table.rows.map((row) => [row.label, ...row.cells.map((c) => c.value)]);

test('a 3×3 run reproduces the scripted table, per model, and the combined 9-column table', async (t) => {
  const ws = createWorkspace({ rows: [], extraLines: rows(), evalYaml: () => evalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  const outcome = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({}) });
  assert.equal(outcome.status, 'success');
  assert.deepEqual(outcome.problems, []);
  assert.equal(outcome.totals.cases, 3 * 3 * ROWS * 2);
  assert.equal(outcome.totals.error, 0);

  const good = 'openai-compatible:fixture-good';
  const refuser = 'openai-compatible:fixture-refuser';
  const [a, b, c] = outcome.reports;
  assert.deepEqual(values(a!.tables[0]!), [[good, 0.75, 1, 1], [refuser, 0, 0, 0]]);
  assert.deepEqual(a!.tables[0]!.columns, ['factual-A', 'counterfactual-A', 'multi-answer-A']);
  assert.deepEqual(values(b!.tables[0]!), [[good, 0.5, 0.5, 0.5], [refuser, 0, 0, 0]]);
  assert.deepEqual(values(c!.tables[0]!), [[good, 1, 1, 0.25], [refuser, 0, 0, 0]]);
  assert.deepEqual(values(a!.tables[1]!), [[good, 0.25, 0, 0], [refuser, 1, 1, 1]], 'over-refusal (Figure 3 is the factual-A cell)');
  assert.deepEqual(values(b!.tables[2]!), [[good, 0.5, 0, 0.5], [refuser, 0, 0, 0]], 'B: correct, wrong citation, missing citation');

  const metric = (suite: number, model: string, name: string) => outcome.reports[suite]!.metrics.find((m) => m.modelKey === model && m.name === name)?.value;
  assert.equal(metric(0, good, 'accuracy'), 11 / 12);
  assert.equal(metric(0, good, 'accuracy@factual'), 0.75);
  assert.equal(metric(2, good, 'accuracy@multi'), 0.25);
  assert.equal(metric(0, good, 'over_refusal'), 1 / 12);
  assert.equal(metric(1, refuser, 'over_refusal'), 1);

  const [table] = combineIfRagTables(outcome.reports);
  assert.deepEqual(table!.columns, ['factual-A', 'factual-B', 'factual-C', 'counterfactual-A', 'counterfactual-B', 'counterfactual-C', 'multi-answer-A', 'multi-answer-B', 'multi-answer-C']);
  assert.deepEqual(values(table!), [[good, 0.75, 0.5, 1, 1, 0.5, 1, 1, 0.5, 0.25], [refuser, 0, 0, 0, 0, 0, 0, 0, 0, 0]]);
  assert.match(formatTable(table!), /IF-RAG Table 1/);

  // The suites showed the model the same documents: only the instruction differs between A, B and C.
  const fromLog = await loggedRun(outcome);
  const docsOf = (id: string) => fromLog.cases.get(id)?.documents.map((d) => d.text);
  assert.deepEqual(docsOf('if-a/item1/multi'), docsOf('if-c/item1/multi'));
  assert.equal(docsOf('if-a/item1/multi')?.length, 4);

  // The reports, as logged, still combine (the run log is where `rag-inspector report` reads them from).
  const log = await readRunLog(outcome.logFile);
  const logged = log.summary?.reports ?? [];
  assert.equal(logged.filter(isIfRagReport).length, 3, 'the three suite reports, as logged');
  assert.deepEqual(combineIfRagTables(logged), combineIfRagTables(outcome.reports));
  // The engine appends the combined table as a report of its own, so every reader shows it.
  assert.deepEqual(logged.at(-1)?.tables, combineIfRagTables(outcome.reports));
  assert.equal(logged.at(-1)?.suiteId, 'ifrag (combined)');
});
