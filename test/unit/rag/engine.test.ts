// The rag method end to end through the engine with a real retriever process: planted ranks give known answers,
// causes and retrieval metrics; a rerun asks neither the retriever nor the model; a crashing retriever's cases are
// case errors at stage retrieval that --resume --retry-errors finishes.
import { describe, it } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import type { RetrievalRecord } from '../../../src/core/retrieval/contract.js';
import { QUESTIONS, plantedWorkspace } from './plantedRun.js';

async function run(evalFile: string, extra: Partial<Parameters<typeof runEvaluation>[1]> = {}) {
  return runEvaluation(evalFile, { signal: new AbortController().signal, credentials: { apiKey: () => Promise.resolve(undefined) }, ...extra });
}

async function logged(logFile: string): Promise<Map<string, { evalCase: EvalCase; result: CaseResult }>> {
  const log = await readRunLog(logFile);
  return new Map(log.cases.map((c) => [c.case.id, { evalCase: c.case, result: c.result }]));
}

describe('rag method with a command retriever', () => {
  it('sends the first k candidates, labels them, scores the answer and gives each failure its retrieval cause', async () => {
    const ws = plantedWorkspace();
    try {
      const outcome = await run(ws.evalFile);
      assert.equal(outcome.status, 'success');
      const cases = await logged(outcome.logFile);
      const byId = (q: string) => cases.get(`rag/${q}`)!;
      // q-0: relevant at rank 1, sent as d0, the model answers.
      const first = byId('q-0');
      assert.deepEqual(first.evalCase.documents.map((d) => [d.id, d.role, d.retrieved?.id]), [['d0', 'positive', 'gold-0'], ['d1', 'negative', 'filler-2']]);
      const record = first.evalCase.params.retrieval as RetrievalRecord;
      assert.equal(record.candidates.length, 4);
      assert.deepEqual(record.candidates.map((c) => [c.rank, c.id, c.sent, c.relevance, c.labelSource]), [[1, 'gold-0', true, 1, 'relevant_ids'], [2, 'filler-2', true, 0, 'relevant_ids'], [3, 'filler-3', false, 0, 'relevant_ids'], [4, 'filler-4', false, 0, 'relevant_ids']]);
      assert.deepEqual(record.relevant, [{ id: 'gold-0', grade: 1 }]);
      assert.equal(first.result.pass, true);
      assert.equal(byId('q-1').result.pass, true);
      // q-2: ranked out at 3 (k = 2); q-3: never returned.
      const rankedOut = byId('q-2').result;
      assert.equal(rankedOut.pass, false);
      assert.equal(rankedOut.scores.find((s) => s.metric === 'cause')?.label, 'ranked-out');
      const missed = byId('q-3').result;
      assert.equal(missed.pass, false);
      assert.equal(missed.scores.find((s) => s.metric === 'cause')?.label, 'not-retrieved');
      // q-4: the relevant passage was sent and the model still answered from the misleading one: retrieval is not the cause.
      const misled = byId('q-4').result;
      assert.equal(misled.pass, false);
      assert.equal(misled.scores.find((s) => s.metric === 'cause')?.label, 'undetermined');
      assert.equal(ws.calls().length, QUESTIONS.length);
      const report = outcome.reports[0]!;
      const accuracy = report.tables.find((t) => t.id === 'accuracy')!;
      assert.deepEqual([accuracy.rows[0]!.cells[0]!.value, accuracy.rows[0]!.cells[0]!.n], [2 / 5, 5]);
      assert.deepEqual(QUESTIONS.map((q) => q.rank), [1, 2, 3, 0, 2]);
      // Ranks 1, 2, 3, none, 2 of one relevant passage each: hand-computed as trec_eval defines them.
      const metrics = report.tables.find((t) => t.id === 'rag-retrieval')!;
      const value = (label: string) => metrics.rows.find((r) => r.label === label)!.cells[0]!.value as number;
      assert.equal(value('Hit rate@1'), 1 / 5);
      assert.equal(value('Hit rate@2'), 3 / 5);
      assert.equal(value('Recall@4'), 4 / 5);
      assert.equal(value('Precision@2'), 3 / 10);
      assert.ok(Math.abs(value('MRR') - (1 + 1 / 2 + 1 / 3 + 0 + 1 / 2) / 5) < 1e-12);
      // The failure split: of the three failed cases, one ranked out, one not retrieved, one undetermined.
      const split = report.tables.find((t) => t.id === 'rag-failure-causes')!;
      assert.deepEqual(split.rows.map((r) => [r.label, r.cells[0]!.n, r.cells[0]!.value]), [['not-retrieved', 3, 1 / 3], ['ranked-out', 3, 1 / 3], ['undetermined', 3, 1 / 3]]);
    } finally {
      ws.cleanup();
    }
  });

  it('a rerun is answered by the cache: no retriever call and no model call', async () => {
    const ws = plantedWorkspace();
    try {
      await run(ws.evalFile);
      const before = ws.calls().length;
      const again = await run(ws.evalFile);
      assert.equal(ws.calls().length, before);
      assert.equal(again.totals.modelCalls ?? 0, 0);
    } finally {
      ws.cleanup();
    }
  });

  it('a retriever that crashes mid-run leaves case errors at stage retrieval, finished cases kept; --resume --retry-errors finishes them', async () => {
    const ws = plantedWorkspace({ crashAfter: 2 });
    try {
      const outcome = await run(ws.evalFile, { overrides: { concurrency: 1 } });
      const cases = await logged(outcome.logFile);
      const errors = [...cases.values()].filter((c) => c.result.status === 'error');
      const finished = [...cases.values()].filter((c) => c.result.status === 'success');
      assert.ok(finished.length >= 2, `finished cases kept (${finished.length})`);
      assert.ok(errors.length >= 1);
      for (const { result } of errors) {
        assert.equal(result.error?.stage, 'retrieval');
        assert.match(result.error!.message, /the retriever failed/);
      }
      // The script is fixed (no crash) and the errored cases asked again.
      plantedWorkspaceFix(ws.dir);
      const resumed = await run(ws.evalFile, { resume: outcome.logFile, retryErrors: true });
      assert.equal(resumed.status, 'success');
      const after = await logged(resumed.logFile);
      assert.equal([...after.values()].filter((c) => c.result.status === 'error').length, 0);
    } finally {
      ws.cleanup();
    }
  });
  it('cancelled while the retriever is asked: the row is not logged, the run ends cancelled, and --resume finishes it', async () => {
    const ws = plantedWorkspace({ hang: QUESTIONS[4]!.question });
    try {
      const controller = new AbortController();
      // Cancelled once the hanging question has reached the retriever (its request is in the calls file).
      const watch = setInterval(() => {
        if (ws.calls().includes(QUESTIONS[4]!.question)) controller.abort();
      }, 20);
      let outcome;
      try {
        outcome = await run(ws.evalFile, { signal: controller.signal });
      } finally {
        clearInterval(watch);
      }
      assert.equal(outcome.status, 'cancelled');
      const cases = await logged(outcome.logFile);
      assert.equal(cases.has('rag/q-4'), false);
      assert.ok([...cases.values()].every((c) => c.result.status === 'success'));
      plantedWorkspaceFix(ws.dir);
      const resumed = await run(ws.evalFile, { resume: outcome.logFile });
      assert.equal(resumed.status, 'success');
      const after = await logged(resumed.logFile);
      assert.equal(after.size, QUESTIONS.length);
      assert.equal(after.get('rag/q-4')!.result.status, 'success');
    } finally {
      ws.cleanup();
    }
  });
});

function plantedWorkspaceFix(dir: string): void {
  const file = path.join(dir, 'plan.json');
  const plan = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete plan.crashAfter;
  delete plan.hang;
  writeFileSync(file, JSON.stringify(plan));
}
