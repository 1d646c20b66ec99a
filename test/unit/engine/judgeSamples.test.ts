// judgeSamples: k — the reference aggregation of k sample scores (majority for verdicts, mean for scales), and a run
// through the fixture server whose judge answers differently per sample seed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { Score } from '../../../src/core/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { aggregateMetric } from '../../../src/core/suites/judgeSamples.js';
import { withUndeterminedCounts } from '../../../src/core/suites/samplesReport.js';
import { evaluateThresholds } from '../../../src/core/engine/thresholds.js';
import type { ReportResult } from '../../../src/core/suites/reportView.js';
import { caseListItem } from '../../../src/core/report/caseItems.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

const verdict = (pass: boolean): Score => ({ metric: 'rej', value: pass ? 1 : 0, pass, label: pass ? 'rejected' : 'answered' });
const judgeError: Score = { metric: 'rej', value: null, label: 'judge-error', judgeError: 'unreadable' };

describe('aggregating k samples', () => {
  it('verdicts: the majority, with the samples and the instability kept', () => {
    const s = aggregateMetric([verdict(true), verdict(false), verdict(true)]);
    assert.deepEqual([s.value, s.pass, s.label], [1, true, 'rejected']);
    assert.deepEqual(s.samples, { k: 3, values: [1, 0, 1], passes: [true, false, true], aggregation: 'majority', spread: 1, stdev: Math.sqrt(2 / 9), undetermined: 0, unstable: true });
  });

  it('an even split is undetermined, never a pass or a fail; an undetermined sample is left out of the vote', () => {
    const tie = aggregateMetric([verdict(true), verdict(false), judgeError]);
    assert.deepEqual([tie.value, tie.pass, tie.label], [null, undefined, 'no-majority']);
    assert.match(tie.judgeError ?? '', /split evenly \(1 pass, 1 fail\)/);
    const two = aggregateMetric([verdict(false), judgeError, verdict(false)]);
    assert.deepEqual([two.value, two.pass, two.samples?.undetermined, two.samples?.unstable], [0, false, 1, true]);
  });

  it('scales: the mean of the determined samples; stable when all agree; all undetermined stays a judge error', () => {
    const scale = (v: number | null): Score => (v === null ? { metric: 'content', value: null, judgeError: 'x' } : { metric: 'content', value: v });
    const mean = aggregateMetric([scale(4), scale(2), scale(null)]);
    assert.deepEqual([mean.value, mean.samples?.aggregation, mean.samples?.spread, mean.samples?.undetermined], [3, 'mean', 2, 1]);
    assert.equal(aggregateMetric([scale(5), scale(5), scale(5)]).samples?.unstable, false);
    const none = aggregateMetric([scale(null), scale(null), scale(null)]);
    assert.deepEqual([none.value, none.judgeError, none.samples?.undetermined], [null, 'x', 3]);
  });

  it('a scale with a verdict (1–10, pass at 7): mean value, majority verdict', () => {
    const needle = (v: number): Score => ({ metric: 'judge_score', value: v, pass: v >= 7 });
    const s = aggregateMetric([needle(8), needle(6), needle(9)]);
    assert.deepEqual([s.value, s.pass, s.samples?.aggregation], [23 / 3, true, 'mean']);
  });
});

describe('headline numbers with their denominator and undetermined count', () => {
  it('a metric named as a score counts the results it left out; the threshold outcome carries n and undetermined', () => {
    const result = (value: number | null, judgeError?: string): ReportResult => ({ caseId: 'c', modelKey: 'm', status: 'success', scores: [{ metric: 'content', value, ...(judgeError ? { judgeError } : {}) }] });
    const report = withUndeterminedCounts({ suiteId: 's', method: 'llm-eval', tables: [], notes: [], metrics: [{ suiteId: 's', modelKey: 'm', name: 'content', value: 3, n: 2 }, { suiteId: 's', modelKey: 'm', name: 'other', value: 1, n: 1 }] },
      [result(3), result(3), result(null, 'unreadable'), { caseId: 'd', modelKey: 'm', status: 'error', scores: [] }]);
    assert.deepEqual(report.metrics.map((m) => [m.name, m.n, m.undetermined]), [['content', 2, 2], ['other', 1, undefined]]);
    const [outcome] = evaluateThresholds([{ id: 's', method: 'llm-eval', params: {}, thresholds: [{ metric: 'content', min: 2 }] }], [report], ['m']);
    assert.deepEqual([outcome!.value, outcome!.n, outcome!.undetermined, outcome!.passed], [3, 2, 2, true]);
  });
});

describe('judgeSamples through the engine', () => {
  it('k judge calls per case with distinct seeds (and cache keys), the mean as headline, the spread in the report; a rerun is all cache hits', async (t) => {
    const bySeed: Record<string, string> = {
      none: '{"content": 4, "grammar": 5}',
      1: 'Scores: {"content": 2, "grammar": 5}',
      2: '{"content": 3, "grammar": 5}',
    };
    server.addRule({ reply: (req) => bySeed[String((req.body as { seed?: number }).seed ?? 'none')]! });
    const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-judge-samples-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'data.jsonl'), JSON.stringify({ id: 'a', context: 'Hi', response: 'Hello!' }));
    const file = path.join(dir, 'le.eval.yaml');
    writeFileSync(file, `version: 1
models:
  - { provider: openai-compatible, model: chat, baseUrl: ${server.openaiBaseUrl} }
judge: { provider: openai-compatible, model: judge, baseUrl: ${server.openaiBaseUrl} }
judgeSamples: 3
suites:
  - id: le
    method: llm-eval
    dataset: data.jsonl
    params: { dimensions: [content, grammar] }
`);
    const outcome = await runEvaluation(file, { signal: new AbortController().signal, credentials: envCredentials({}) });
    assert.equal(outcome.status, 'success');
    assert.equal(outcome.totals.judgeCalls, 3);
    const bodies = server.requests.filter((r) => r.api === 'openai-chat').map((r) => r.body as { seed?: number; temperature?: number });
    assert.deepEqual(bodies.map((b) => [b.seed, b.temperature]), [[undefined, 0], [1, 0.7], [2, 0.7]]);

    const line = (await readRunLog(outcome.logFile)).cases[0]!;
    const [content, grammar] = line.result.scores;
    assert.deepEqual([content!.value, content!.samples?.values, content!.samples?.unstable], [3, [4, 2, 3], true]);
    assert.deepEqual([grammar!.value, grammar!.samples?.unstable], [5, false]);
    assert.match(caseListItem(line.case, line.result).summary, / · unstable judge: content$/, 'the case list shows (and searches) unstable cases');

    const report = outcome.reports[0]!;
    assert.deepEqual(report.metrics.map((m) => [m.name, m.value, m.n]), [['content', 3, 1], ['grammar', 5, 1]]);
    const table = report.tables.find((tb) => tb.id === 'le-judge-samples')!;
    assert.deepEqual(table.rows.filter((r) => r.label.endsWith('unstable cases')).map((r) => [r.label, r.cells[0]!.value, r.cells[0]!.n]), [['content: unstable cases', 1, 1], ['grammar: unstable cases', 0, 1]]);
    assert.ok(report.notes.some((n) => n.startsWith('judgeSamples: 3')));

    const again = await runEvaluation(file, { signal: new AbortController().signal, credentials: envCredentials({}) });
    assert.equal(again.totals.judgeCalls, 0, 'each sample has its own cache key');
    assert.equal(server.requests.filter((r) => r.api === 'openai-chat').length, 3);
  });
});
