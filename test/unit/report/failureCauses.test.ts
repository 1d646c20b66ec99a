// The causes of a run's failed rag cases, from a run log written by RunLogWriter and the explanation stored beside it:
// Explain's cause where the (case, model) was explained, the recorded one elsewhere, and the split per suite.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { explainCase } from '../../../src/core/explain/attribute.js';
import { explanationFileOfRunLog } from '../../../src/core/explain/explainRun.js';
import type { ExplainSource, RunExplanation, VariantOutcome } from '../../../src/core/explain/model.js';
import { planVariants } from '../../../src/core/explain/variants.js';
import { caseKey } from '../../../src/core/model.js';
import type { CaseResult, EvalCase, Score } from '../../../src/core/model.js';
import { failureCausesOfRun } from '../../../src/core/report/failureCauses.js';
import { runDataFromLog } from '../../../src/core/report/runDataSources.js';
import type { CauseFinding, RetrievalRecord } from '../../../src/core/retrieval/contract.js';
import { newRunId, RunLogWriter } from '../../../src/core/run/runLog.js';
import type { SummaryLine } from '../../../src/core/run/runLog.js';
import { createFailureSplitAggregator } from '../../../src/core/retrieval/failureSplit.js';
import { EXPLAINED_SPLIT_NOTE, explainedIndexItems } from '../../../src/core/report/explainedItems.js';
import { indexRunLog } from '../../../src/core/report/runLogIndex.js';
import { inspectorRun } from '../../../src/core/report/inspectorRun.js';
import { writeHtmlReport } from '../../../src/core/report/htmlReportFile.js';
import { renderToString } from '../../../src/core/report/textSink.js';
import type { CaseListItem } from '../../../src/core/report/viewModel.js';
import type { SuiteReport } from '../../../src/core/suites/contract.js';

const root = mkdtempSync(path.join(tmpdir(), 'failure-causes-'));
after(() => rmSync(root, { recursive: true, force: true }));

// doc-a, doc-b, doc-c sent as d0, d1, d2 (k = 3); doc-d retrieved at rank 4. The relevant ids vary per case.
function retrieval(relevant: string): RetrievalRecord {
  return {
    retriever: 'command: node bm25.mjs', k: 3,
    candidates: ['doc-a', 'doc-b', 'doc-c', 'doc-d'].map((id, i) => ({ rank: i + 1, id, sent: i < 3, ...(i < 3 ? { documentId: `d${i}` } : {}), relevance: id === relevant ? 1 : 0, labelSource: 'relevant_ids' as const })),
    relevant: [{ id: relevant, grade: 1 }],
  };
}

function ragCase(id: string, relevant: string, method = 'rag'): EvalCase {
  return {
    id, suiteId: method === 'rag' ? 'qa' : 'noise', method, row: { file: '/w/q.jsonl', line: 1, index: 0 }, question: 'Who?',
    documents: ['doc-a', 'doc-b', 'doc-c'].map((doc, i) => ({ id: `d${i}`, role: doc === relevant ? 'positive' : 'negative', text: doc, spans: [] })),
    expected: ['x'], params: method === 'rag' ? { retrieval: retrieval(relevant) } : {}, variables: {}, messages: [{ role: 'user', content: 'Who?' }],
  };
}

function result(caseId: string, modelKey: string, pass: boolean, cause?: CauseFinding): CaseResult {
  const scores: Score[] = [{ metric: 'correct', value: pass ? 1 : 0, pass }];
  if (cause) scores.push({ metric: 'cause', value: null, label: cause.cause, explanation: cause.words, details: cause });
  return { caseId, modelKey, status: 'success', pass, scores, attempts: 1, startedAt: '', finishedAt: '' };
}

const sentToExplain: CauseFinding = { cause: 'undetermined', words: 'relevant passage doc-b sent at rank 2: Explain decides whether the model ignored it, was distracted or misplaced it', passageId: 'doc-b', rank: 2 };
const rankedOut: CauseFinding = { cause: 'ranked-out', words: 'relevant passage doc-d at rank 4, cut-off 3', passageId: 'doc-d', rank: 4 };

/** Explain's explanation of q1 for m:a: the case passes with doc-b (d1) moved first. */
function explanationOfQ1(): RunExplanation {
  const sources: ExplainSource[] = ['doc-a', 'doc-b', 'doc-c'].map((doc, i) => ({ id: `d${i}`, role: doc === 'doc-b' ? 'positive' : 'negative', answerBearing: doc === 'doc-b', preview: doc }));
  const variants = planVariants({ caseId: 'q1', seed: 1, sources, sections: [], kinds: ['loo', 'position'] });
  const outcomes = new Map<string, VariantOutcome>(variants.map((v) => [v.id, { variantId: v.id, pass: v.id === 'position:0', signal: v.id === 'position:0' ? 1 : 0, cached: false }]));
  const explained = explainCase({ caseId: 'q1', modelKey: 'm:a', suiteId: 'qa', method: 'rag', meaning: '', sources, variants, outcomes });
  return { format: 1, runId: 'x', runLog: '', variantLog: '', createdAt: '', status: 'complete', cases: [explained], suites: [], calls: { model: 0, cached: 0, judge: 0 } };
}

/** The summary the run wrote: the qa suite's failure split from the causes recorded when the cases ran. */
function summaryOfRun(): Omit<SummaryLine, 'type'> {
  const split = createFailureSplitAggregator('qa');
  split.add('m:a', 'undetermined');
  split.add('m:b', 'undetermined');
  split.add('m:a', 'ranked-out');
  const { tables, charts } = split.finish();
  const accuracy = { id: 'accuracy', title: 'Answer accuracy', columns: ['m:a'], rows: [] };
  return {
    status: 'success', finishedAt: '2026-11-29T01:01:00.000Z', totals: { cases: 6, success: 5, error: 1, passed: 1, failed: 4, modelCalls: 6, cacheHits: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0 },
    reports: [{ suiteId: 'qa', method: 'rag', tables: [accuracy, ...tables], charts, metrics: [], notes: [] }], thresholds: [], problems: [],
  };
}

async function writeRun(explanation: string | undefined): Promise<string> {
  const runId = newRunId(new Date('2026-11-29T01:00:00Z'));
  const dir = path.join(root, runId, '.rag-inspector', 'runs');
  const writer = await RunLogWriter.create(dir, {
    runId, createdAt: '2026-11-29T01:00:00.000Z', tool: { name: 'rag-inspector', version: '0.1.0' }, spec: { file: '/w/rag.eval.yaml', hash: 'ab', name: 'rag' },
    inputs: [], models: ['m:a', 'm:b'], seed: 1,
  });
  writer.appendCase({ case: ragCase('q1', 'doc-b'), result: result('q1', 'm:a', false, sentToExplain) });
  writer.appendCase({ case: ragCase('q1', 'doc-b'), result: result('q1', 'm:b', false, sentToExplain) });
  writer.appendCase({ case: ragCase('q2', 'doc-d'), result: result('q2', 'm:a', false, rankedOut) });
  writer.appendCase({ case: ragCase('q3', 'doc-a'), result: result('q3', 'm:a', true) });
  writer.appendCase({ case: ragCase('q4', 'doc-a'), result: { ...result('q4', 'm:a', false), status: 'error', pass: undefined, scores: [], error: { stage: 'retrieval', kind: 'server', message: 'retriever crashed' } } });
  writer.appendCase({ case: ragCase('n1', 'doc-a', 'rgb'), result: result('n1', 'm:a', false) });
  writer.appendSummary(summaryOfRun());
  writer.close();
  if (explanation !== undefined) {
    const file = explanationFileOfRunLog(writer.file, runId);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, explanation);
  }
  return writer.file;
}

test('Explain\'s cause where the case was explained, the recorded one elsewhere; passes, errors and other methods have none', async () => {
  const causes = await failureCausesOfRun(await runDataFromLog(await writeRun(JSON.stringify(explanationOfQ1()))));
  assert.deepEqual([...causes.cases.keys()], [caseKey('q1', 'm:a'), caseKey('q1', 'm:b'), caseKey('q2', 'm:a')]);
  assert.deepEqual(causes.cases.get(caseKey('q1', 'm:a')), {
    caseId: 'q1', modelKey: 'm:a', suiteId: 'qa', from: 'explanation',
    finding: { cause: 'position', words: 'the case passes with relevant passage doc-b (d1, rank 2) moved first', passageId: 'doc-b', rank: 2 },
  });
  assert.deepEqual(causes.cases.get(caseKey('q1', 'm:b')), { caseId: 'q1', modelKey: 'm:b', suiteId: 'qa', from: 'case', finding: sentToExplain });
  assert.deepEqual(causes.cases.get(caseKey('q2', 'm:a'))?.finding, rankedOut);
  assert.deepEqual(causes.notes, []);

  assert.deepEqual(causes.suites.map((s) => s.suiteId), ['qa']);
  const table = causes.suites[0]?.tables[0];
  assert.deepEqual(table?.columns, ['m:a', 'm:b']);
  assert.deepEqual(table?.rows.map((row) => [row.label, row.cells.map((cell) => [cell.value, cell.n])]), [
    ['ranked-out', [[0.5, 2], [0, 1]]],
    ['position', [[0.5, 2], [0, 1]]],
    ['undetermined', [[0, 2], [1, 1]]],
  ]);
  assert.deepEqual(causes.suites[0]?.charts.map((chart) => chart.filter), [{ field: 'cause' }, { field: 'cause' }]);
});

test('without an explanation every failed case keeps the cause it recorded', async () => {
  const causes = await failureCausesOfRun(await runDataFromLog(await writeRun(undefined)));
  assert.deepEqual([...causes.cases.values()].map((c) => [c.caseId, c.modelKey, c.from, c.finding.cause]), [
    ['q1', 'm:a', 'case', 'undetermined'], ['q1', 'm:b', 'case', 'undetermined'], ['q2', 'm:a', 'case', 'ranked-out'],
  ]);
});

test('an explanation that cannot be read is said in a note, and the recorded causes are used', async () => {
  const causes = await failureCausesOfRun(await runDataFromLog(await writeRun('{not json')));
  assert.equal(causes.notes.length, 1);
  assert.match(causes.notes[0] ?? '', /explanation .*\.json could not be read .*causes are the ones recorded when the cases ran/);
  assert.equal(causes.cases.get(caseKey('q1', 'm:a'))?.from, 'case');
});

/** The listed causes of the failed rag cases, and the qa suite's split rows (cause, shares per model), as shown. */
function shown(items: readonly CaseListItem[], reports: readonly SuiteReport[]) {
  const split = reports.find((r) => r.suiteId === 'qa')?.tables.find((t) => t.id === 'qa-failure-causes');
  return {
    causes: items.filter((i) => i.suiteId === 'qa').map((i) => [i.caseId, i.modelKey, i.cause ?? null]),
    rows: split?.rows.map((row) => [row.label, row.cells.map((cell) => cell.value)]),
    explainedNote: split?.notes?.includes(EXPLAINED_SPLIT_NOTE),
    tables: reports.find((r) => r.suiteId === 'qa')?.tables.map((t) => t.id),
    charts: reports.find((r) => r.suiteId === 'qa')?.charts?.map((c) => c.tableId),
  };
}

const beforeExplain = {
  causes: [['q1', 'm:a', 'undetermined'], ['q1', 'm:b', 'undetermined'], ['q2', 'm:a', 'ranked-out'], ['q3', 'm:a', null], ['q4', 'm:a', null]],
  rows: [['ranked-out', [0.5, 0]], ['undetermined', [0.5, 1]]],
  explainedNote: false,
  tables: ['accuracy', 'qa-failure-causes'],
  charts: ['qa-failure-causes', 'qa-failure-causes'],
};
const afterExplain = {
  ...beforeExplain,
  causes: [['q1', 'm:a', 'position'], ['q1', 'm:b', 'undetermined'], ['q2', 'm:a', 'ranked-out'], ['q3', 'm:a', null], ['q4', 'm:a', null]],
  rows: [['ranked-out', [0.5, 0]], ['position', [0.5, 0]], ['undetermined', [0, 1]]],
  explainedNote: true,
};

test('the panel\'s run log index lists Explain\'s cause and the split counted with it once the run is explained', async () => {
  const plain = await explainedIndexItems(await indexRunLog(await writeRun(undefined)), 'unused');
  assert.deepEqual(shown(plain.items, plain.reports), beforeExplain);
  const file = await writeRun(JSON.stringify(explanationOfQ1()));
  const index = await indexRunLog(file);
  const explained = await explainedIndexItems(index, (await runDataFromLog(file)).runId);
  assert.deepEqual(shown(explained.items, explained.reports), afterExplain);
  assert.equal(explained.problem, undefined);
  // The index keeps the recorded cause: the explanation is applied to what is shown, not stored in the index.
  assert.equal(index.entries.get(caseKey('q1', 'm:a'))?.item.cause, 'undetermined');
});

test('inspectorRun and the HTML report show the same explained causes and split', async () => {
  const run = await runDataFromLog(await writeRun(JSON.stringify(explanationOfQ1())));
  const { detail } = await inspectorRun(run);
  assert.deepEqual(shown(detail.cases, detail.reports), afterExplain);
  const html = await renderToString(async (sink) => writeHtmlReport(await runDataFromLog(run.logFile ?? ''), sink, 'void 0'));
  const listed = [...html.matchAll(/\{"key":"(q\d)\\u0000(m:[ab])"[^{}]*?"cause":"([a-z-]+)"/g)].map((m) => [m[1], m[2], m[3]]);
  assert.deepEqual(listed, [['q1', 'm:a', 'position'], ['q1', 'm:b', 'undetermined'], ['q2', 'm:a', 'ranked-out']]);
  assert.ok(html.includes('"label":"position"'), 'the split counts the explained cause');
  assert.ok(html.includes('Causes include Explain'), 'the split says it includes Explain\'s evidence');
});

test('an explanation that cannot be read leaves the recorded causes and says why', async () => {
  const file = await writeRun('{not json');
  const shownRun = await explainedIndexItems(await indexRunLog(file), (await runDataFromLog(file)).runId);
  assert.deepEqual(shown(shownRun.items, shownRun.reports), beforeExplain);
  assert.match(shownRun.problem?.message ?? '', /explanation could not be read/);
});
