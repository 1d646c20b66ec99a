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
