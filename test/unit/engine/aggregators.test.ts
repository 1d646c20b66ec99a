// The end of a run builds each method's tables case by case (Suite.createAggregator, fed by tablesFromLog) and the
// array `report` is a thin wrapper over the same aggregator: on real data, with two models, judge scores, judge errors
// and model errors, the tables from the log must equal the array path's (every case, then every result) to the last
// digit, whatever the order the log gives them in.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { planSuites } from '../../../src/core/engine/plan.js';
import type { SuitePlan } from '../../../src/core/engine/plan.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { tablesFromLog } from '../../../src/core/engine/tablesFromLog.js';
import type { CaseLine } from '../../../src/core/run/runLog.js';
import { RunLogWriter, readRunLog } from '../../../src/core/run/runLog.js';
import type { CaseResult, Score } from '../../../src/core/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { NEITHER_VERDICT } from '../../../src/core/suites/judging.js';
import { failureLabelsFor } from '../../../src/core/suites/rgb/judge.js';
import { combinedReports } from '../../../src/core/suites/combinedReports.js';
import { withSampleStability } from '../../../src/core/suites/samplesReport.js';
import { toReportCase, toReportResult } from '../../../src/core/suites/reportView.js';
import type { ReportCase } from '../../../src/core/suites/reportView.js';
import type { SuiteReport } from '../../../src/core/suites/contract.js';
import { RGB_DATA } from '../testData.js';

const EXAMPLES = path.resolve(__dirname, '../../../examples');
const dir = mkdtempSync(path.join(tmpdir(), 'aggregators-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The array path: every case's and result's report view in memory, each suite's `report`, as before aggregators. */
async function arrayReports(logFile: string, suites: readonly SuitePlan[]): Promise<SuiteReport[]> {
  const log = await readRunLog(logFile);
  const reports = suites.map((plan) => {
    const lines = log.cases.filter((line) => line.case.suiteId === plan.spec.id);
    const cases = new Map<string, ReportCase>();
    for (const line of lines) if (!cases.has(line.case.id)) cases.set(line.case.id, toReportCase(line.case, plan.suite));
    const results = lines.map((line) => toReportResult(line.result, plan.suite));
    return withSampleStability(plan.suite.report(cases, results, plan.params, plan.spec.id), results);
  });
  return [...reports, ...combinedReports(reports)];
}

/** A deterministic pseudo-random number in [0, 1) per case and salt, so the synthetic judge varies but reruns alike. */
function draw(caseId: string, salt: number): number {
  let h = 2166136261 ^ salt;
  for (let i = 0; i < caseId.length; i++) h = Math.imul(h ^ caseId.charCodeAt(i), 16777619);
  return ((h >>> 0) % 1000) / 1000;
}

/** What a judge pass would have added: Rej*, ED*, a failure label, with judge errors and unmatched verdicts among them. */
function judgeScores(caseId: string, testbed: string): Score[] {
  const verdict = (metric: string, salt: number): Score => {
    const x = draw(caseId, salt);
    if (x < 0.1) return { metric, value: null, judgeError: 'the judge answered out of format' };
    return { metric, value: x < 0.55 ? 1 : 0, ...(x > 0.9 ? { label: NEITHER_VERDICT } : {}) };
  };
  const labels = failureLabelsFor(testbed as Parameters<typeof failureLabelsFor>[0]);
  const y = draw(caseId, 7);
  const failure: Score = y < 0.15 ? { metric: 'failure_label', value: null, judgeError: 'no label' } : { metric: 'failure_label', value: null, label: labels[Math.floor(y * labels.length)]! };
  return [verdict('rej_star', 3), verdict('ed_star', 5), ...(y < 0.6 ? [failure] : [])];
}

/** A score left undetermined for want of a judge (RAGAS, LLM-Eval) given a value most of the time, as a judge would. */
function filled(score: Score, evalCase: CaseLine['case']): Score {
  if (score.value !== null) return score;
  const x = draw(`${evalCase.id}/${score.metric}`, 13);
  if (x < 0.2) return score;
  const value = evalCase.method === 'llm-eval' ? 1 + Math.floor(x * 5) : Math.round(x * 1000) / 1000;
  return { metric: score.metric, value, ...(x > 0.9 ? { label: NEITHER_VERDICT } : {}) };
}

/** A second model beside the logged one: the same cases, judge scores added or filled in, some results turned into model errors. */
function secondModel(line: CaseLine): CaseLine {
  const result: CaseResult = { ...line.result, modelKey: 'simulated:judged' };
  if (draw(line.case.id, 11) < 0.08) {
    return { ...line, result: { ...result, status: 'error', scores: [], pass: undefined, error: { stage: 'model', kind: 'server', message: 'HTTP 500' } } };
  }
  const judged = line.case.method === 'rgb' || line.case.method === 'stress' ? judgeScores(line.case.id, line.case.testbed ?? '') : [];
  return { ...line, result: { ...result, scores: [...result.scores.map((score) => filled(score, line.case)), ...judged] } };
}

/** Runs an eval file offline, then writes a second log with a judged second model interleaved and logged twice here and there. */
async function judgedLog(evalFile: string): Promise<{ logFile: string; suites: SuitePlan[] }> {
  const outcome = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true, workspaceDir: dir });
  const log = await readRunLog(outcome.logFile);
  const writer = await RunLogWriter.create(path.join(dir, 'judged'), { ...log.header, runId: `${log.header.runId}-judged` });
  log.cases.forEach((line, i) => {
    const other = secondModel(line);
    // The second model's line first for some cases (a case's first line is then not the first model's), and a
    // few (case, model) pairs logged twice (a resumed retry): the later line counts.
    if (i % 3 === 0) writer.appendCase(other);
    writer.appendCase(line);
    if (i % 3 !== 0) writer.appendCase(other);
    if (i % 17 === 0) writer.appendCase({ ...other, result: { ...other.result, status: 'error', scores: [], pass: undefined, error: { stage: 'model', kind: 'timeout', message: 'retried' } } });
  });
  writer.close();
  const { suites } = await planSuites(await loadEvalSpec(evalFile), new AbortController().signal);
  return { logFile: writer.file, suites };
}

function realDataEval(): string {
  const folder = path.join(dir, 'real');
  cpSync(RGB_DATA, folder, { recursive: true });
  const file = path.join(folder, 'real.eval.yaml');
  const yaml = `version: 1
name: real RGB data
models: [extractive:bm25]
suites:
  - { id: fact-en, method: rgb, dataset: en_fact.json, params: { testbed: counterfactual_robustness, language: en, withoutDocuments: true, noiseRates: [0, 0.2, 0.4] } }
  - { id: fact-en-noise, method: rgb, dataset: en_fact.json, params: { testbed: noise_robustness, language: en } }
  - { id: refine-zh, method: rgb, dataset: zh_refine.sample60.json, params: { testbed: negative_rejection, language: zh, judge: { failureLabels: true } } }
`;
  writeFileSync(file, yaml);
  return file;
}

/** LLM-Eval has no bundled example: thirty given responses with human scores (no judge: the second model's are simulated). */
function llmEvalEval(): string {
  const folder = path.join(dir, 'llm-eval');
  mkdirSync(folder, { recursive: true });
  const rows = Array.from({ length: 30 }, (_, i) => ({ context: `Question ${i}: what is ${i} plus one?`, response: `It is ${i + 1}.`, human_scores: { content: 1 + (i % 5), grammar: 5 - (i % 3) } }));
  writeFileSync(path.join(folder, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
  const file = path.join(folder, 'llm-eval.eval.yaml');
  writeFileSync(file, 'version: 1\nname: llm-eval\nmodels: [extractive:bm25]\nsuites:\n  - { id: le, method: llm-eval, dataset: data.jsonl, params: { dimensions: [content, grammar] } }\n');
  return file;
}

for (const [name, evalFile] of [
  ['RGB on the real RGB files (counterfactual at three ratios, noise, rejection)', realDataEval],
  ['RGB: the bundled example (five testbeds, English and Chinese)', () => copyExample('rgb', 'rgb-example.eval.yaml')],
  ['stress: the bundled example (noise, rejection, counterfactual, position, integration)', () => copyExample('stress', 'stress-example.eval.yaml')],
  ['IF-RAG: the bundled example (instructions A, B, C and the combined table)', () => copyExample('ifrag', 'ifrag-example.eval.yaml')],
  ['needle: the bundled example (three prompts over one grid)', () => copyExample('needle', 'needle-example.eval.yaml')],
  ['RAGAS: the bundled example (given responses, human scores)', () => copyExample('ragas', 'ragas-example.eval.yaml')],
  ['LLM-Eval: given responses with human scores', llmEvalEval],
] as const) {
  test(`${name}: the tables from the log, case by case, equal the array path's`, async () => {
    const { logFile, suites } = await judgedLog(evalFile());
    assert.ok(suites.every((s) => s.suite.createAggregator), 'every suite here has an aggregator');
    const { reports } = await tablesFromLog(logFile, suites);
    const expected = await arrayReports(logFile, suites);
    assert.deepEqual(reports, expected);
    // The simulated model reached the tables, with its model errors.
    const text = JSON.stringify(reports);
    assert.match(text, /simulated:judged/);
    assert.match(text, /ended in a model error/);
  });
}

function copyExample(folder: string, file: string): string {
  const target = path.join(dir, folder);
  cpSync(path.join(EXAMPLES, folder), target, { recursive: true });
  return path.join(target, file);
}
