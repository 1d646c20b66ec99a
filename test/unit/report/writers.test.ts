// The CSV, JUnit and JSON report writers on a small run built here: escaping, formulas, NaN and failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { writeReports } from '../../../src/core/report/writeReports.js';
import { renderCsvReport } from '../../../src/core/report/csvReport.js';
import { renderJunitReport } from '../../../src/core/report/junitReport.js';
import { renderJsonReport } from '../../../src/core/report/jsonReport.js';
import { runDataInMemory } from '../../../src/core/report/runData.js';
import type { RunData } from '../../../src/core/report/runData.js';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';

function evalCase(id: string, question: string): EvalCase {
  return { id, suiteId: 'noise', method: 'rgb', testbed: 'noise_robustness', row: { file: '/data/en.jsonl', line: 3, index: 2 }, question, documents: [], expected: ['x'], params: {}, variables: {}, messages: [] };
}

function result(caseId: string, overrides: Partial<CaseResult>): CaseResult {
  return { caseId, modelKey: 'openai:gpt-4o-mini', status: 'success', scores: [], attempts: 1, startedAt: '', finishedAt: '', ...overrides };
}

function run(): RunData {
  const cases = new Map([['a', evalCase('a', 'Where <is> "it"?')], ['b', evalCase('b', 'Q2')], ['c', evalCase('c', 'Q3')]]);
  return runDataInMemory({
    runId: 'r1', name: 'Example & co', specFile: '/x.eval.yaml', createdAt: '', status: 'success', models: ['openai:gpt-4o-mini'],
    totals: { cases: 3, success: 2, error: 1, passed: 1, failed: 1, modelCalls: 3, cacheHits: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0 },
    reports: [], thresholds: [{ suiteId: 'noise', modelKey: 'openai:gpt-4o-mini', metric: 'accuracy', value: 0.5, min: 0.6, passed: false }], problems: [],
  }, cases, [
      result('a', { pass: true, response: { text: '=HYPERLINK("x")', usage: { inputTokens: 1, outputTokens: 2 }, latencyMs: 5, cached: false }, scores: [{ metric: 'correct', value: 1, pass: true }] }),
      result('b', { pass: false, response: { text: 'wrong </failure> \u0001', usage: { inputTokens: 1, outputTokens: 2 }, latencyMs: 5, cached: false }, scores: [{ metric: 'correct', value: 0, pass: false, explanation: 'answer part 1 of 1 not found' }, { metric: 'rej_star', value: null, judgeError: 'unparsable' }] }),
      result('c', { status: 'error', error: { stage: 'model', kind: 'server', message: 'failed after 5 attempts: 503', status: 503 }, attempts: 5 }),
  ]);
}

test('CSV: one row per case, metric columns, judge errors named, formulas defused', async () => {
  const rows = parse(await renderCsvReport(run()), { columns: true }) as Record<string, string>[];
  assert.equal(rows.length, 3);
  assert.equal(rows[0]?.response, `'=HYPERLINK("x")`);
  assert.equal(rows[1]?.correct, '0');
  assert.equal(rows[1]?.rej_star, 'judge_error');
  assert.match(rows[1]?.message ?? '', /correct: answer part 1 of 1 not found/);
  assert.equal(rows[2]?.status, 'error');
  assert.match(rows[2]?.message ?? '', /model error \(server\): failed after 5 attempts/);
});

test('JUnit: failures, errors and thresholds, with XML escaped and control characters dropped', async () => {
  const xml = await renderJunitReport(run());
  assert.match(xml, /<testsuite name="noise" tests="3" failures="1" errors="1"/);
  assert.match(xml, /<failure message="correct: answer part 1 of 1 not found; rej_star: judge error — unparsable"/);
  assert.match(xml, /<error message="model error \(server\)/);
  assert.match(xml, /&lt;\/failure&gt;/);
  assert.doesNotMatch(xml, /\u0001/);
  assert.match(xml, /name="Example &amp; co"/);
  assert.match(xml, /<testsuite name="thresholds" tests="1" failures="1"/);
  assert.match(xml, /accuracy = 0.5, required &gt;= 0.6/);
});

test('JSON: undetermined values stay null, never 0', async () => {
  const json = JSON.parse(await renderJsonReport(run()));
  assert.equal(json.cases[1].scores[1].value, null);
  assert.equal(json.cases[1].scores[1].judgeError, 'unparsable');
  assert.equal(json.thresholds[0].passed, false);
});

test('JSON: a number JSON cannot hold (NaN, Infinity) is written as null, in a case and in the run\'s fields', async () => {
  const data = run();
  const odd = runDataInMemory({ ...data, totals: { ...data.totals, costUsd: Number.NaN } }, new Map([['a', evalCase('a', 'Q')]]), [
    result('a', { response: { text: 'x', usage: { inputTokens: 1, outputTokens: 2 }, latencyMs: Number.POSITIVE_INFINITY, cached: false }, scores: [{ metric: 'f1', value: Number.NaN }] }),
  ]);
  const text = await renderJsonReport(odd);
  const json = JSON.parse(text);
  assert.equal(json.cases[0].scores[0].value, null);
  assert.equal(json.cases[0].latencyMs, null);
  assert.equal(json.totals.costUsd, null);
  assert.doesNotMatch(text, /NaN|Infinity/);
});

test('a report interrupted while it is written leaves the previous report whole under its name, and no partial file', async () => {
  const out = mkdtempSync(path.join(tmpdir(), 'rag-atomic-report-'));
  try {
    await writeReports(run(), out, ['json', 'csv']);
    const good = readFileSync(path.join(out, 'report.json'), 'utf8');
    const goodCsv = readFileSync(path.join(out, 'cases.csv'), 'utf8');
    // The cases stop arriving half way, as when the process is stopped while it streams them: once the first case
    // has reached the disk (or, when nothing reaches the real name, after a bounded wait), the writer fails.
    const reachedDisk = async () => {
      for (let i = 0; i < 40 && readFileSync(path.join(out, 'report.json'), 'utf8') === good; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    };
    const interrupted: RunData = {
      ...run(),
      async *entries() {
        let n = 0;
        for await (const entry of run().entries()) {
          if (++n === 2) {
            await reachedDisk();
            throw new Error('interrupted');
          }
          yield entry;
        }
      },
    };
    await assert.rejects(writeReports(interrupted, out, ['json', 'csv']), /interrupted/);
    assert.equal(readFileSync(path.join(out, 'report.json'), 'utf8'), good);
    assert.equal(readFileSync(path.join(out, 'cases.csv'), 'utf8'), goodCsv);
    assert.deepEqual(readdirSync(out).sort(), ['cases.csv', 'report.json'], 'no temporary file left behind');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
