// Aggregates RAGAS results: the mean of each metric per model with its interval and undetermined count, plus agreement with human scores.
import { joinEntries, modelsOf } from '../reportEntries.js';
import type { ReportEntry } from '../reportEntries.js';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import { meanWithInterval } from '../../stats.js';
import type { ReportCell, ReportMetric, ReportTable, SuiteReport } from '../contract.js';
import { NEITHER_VERDICT } from '../judging.js';
import { agreementTable } from '../metaEval.js';
import { RAGAS_METHOD, ragasCaseParams } from './cases.js';
import { NEEDS_EMBEDDINGS_LABEL, NEEDS_JUDGE_LABEL } from './judgeStep.js';
import { RAGAS_METRICS } from './params.js';
import type { RagasMetric, RagasParams } from './params.js';
import { meanCell } from '../reportCells.js';

type Entry = ReportEntry;

function scoreOf(result: ReportResult, metric: string): ReportScore | undefined {
  return result.scores.find((s) => s.metric === metric);
}


/** A case's value for a metric: its number, null when undetermined (judge error, NaN, model error), undefined when not asked. */
function valueFor(entry: Entry, metric: RagasMetric): number | null | undefined {
  if (!ragasCaseParams(entry.evalCase).metrics.includes(metric) && !scoreOf(entry.result, metric)) return undefined;
  if (entry.result.status !== 'success') return null;
  const score = scoreOf(entry.result, metric);
  return score ? score.value : undefined;
}

/** Metrics at least one case carried, in the order the report names them. */
function presentMetrics(entries: readonly Entry[]): RagasMetric[] {
  return RAGAS_METRICS.filter((metric) => entries.some((e) => valueFor(e, metric) !== undefined));
}

function valuesOf(entries: readonly Entry[], metric: RagasMetric): (number | null)[] {
  return entries.flatMap((e) => {
    const value = valueFor(e, metric);
    return value === undefined ? [] : [value];
  });
}

/** Judge answers that matched neither verdict (context relevance: nothing extracted), shown beside the mean they are in. */
function withUnmatched(cell: ReportCell, entries: readonly Entry[], metric: RagasMetric): ReportCell {
  const unmatched = entries.filter((e) => e.result.scores.some((s) => s.metric === metric && s.label === NEITHER_VERDICT)).length;
  return unmatched ? { ...cell, unmatched } : cell;
}

function countLabel(entries: readonly Entry[], label: string): number {
  return entries.filter((e) => e.result.scores.some((s) => s.label === label)).length;
}

// ——— notes ———

function modeNotes(params: RagasParams, metrics: readonly RagasMetric[]): string[] {
  const notes: string[] = [];
  if (metrics.includes('answer_relevancy')) {
    const { strictness, noncommittal, temperature } = params.answerRelevancy;
    const rule = noncommittal === 'all'
      ? 'noncommittal rule "all" (ragas after PR #2327, merged 2025-09-29: 0 only when every generation is noncommittal)'
      : 'noncommittal rule "any" (ragas releases before PR #2327, e.g. 0.1.x–0.2.x: 0 when any generation is noncommittal)';
    notes.push(`answer_relevancy: ${strictness} generated question(s) per answer at temperature ${temperature}; ${rule}.`);
  }
  if (metrics.includes('context_precision') || metrics.includes('context_utilization')) {
    notes.push(params.contextPrecision.exact
      ? 'context_precision / context_utilization: exact average precision (Σ v in the denominator; not the reference form, so a perfect ranking scores 1).'
      : 'context_precision / context_utilization: the reference form, Σ v + 1e-10 in the denominator (a perfect ranking scores 0.9999999999); set contextPrecision.exact: true for the fix.');
  }
  if (metrics.includes('context_relevance')) {
    notes.push('context_relevance: the RAGAS paper\'s sentence-extraction metric; sentences counted with ICU sentence segmentation (the reference uses pysbd, which can split abbreviations differently).');
  }
  if (metrics.some((m) => m.startsWith('noise_sensitivity_'))) {
    notes.push('noise_sensitivity: lower is better. A retrieved context that supports some reference statement is relevant (its role "positive" in the score details), every other one is noise.');
  }
  return notes;
}

function inputNotes(entries: readonly Entry[]): string[] {
  const notes: string[] = [];
  const needJudge = countLabel(entries, NEEDS_JUDGE_LABEL);
  if (needJudge > 0) notes.push(`RAGAS metrics need a judge model: set judge: in the eval file (e.g. judge: openai:gpt-4o-mini). ${needJudge} result(s) were not scored.`);
  const needEmbeddings = countLabel(entries, NEEDS_EMBEDDINGS_LABEL);
  if (needEmbeddings > 0) notes.push(`answer_relevancy needs an embeddings model: set embeddings: in the eval file (e.g. embeddings: openai:text-embedding-3-small). ${needEmbeddings} result(s) left undetermined.`);
  const given = entries.filter((e) => e.result.response?.given).length;
  if (given > 0) notes.push(`${given} result(s) scored the response the dataset holds; the models under test were not called for them (every model column shows the same answers).`);
  const skipped = entries.filter((e) => ragasCaseParams(e.evalCase).skipped.length > 0).length;
  if (skipped > 0) notes.push(`${skipped} result(s) lacked a field a requested metric reads (e.g. no reference): those metrics are undetermined there.`);
  const hinted = entries.some((e) => ragasCaseParams(e.evalCase).roleSource === 'reference_contexts');
  notes.push(hinted
    ? 'Document roles shown before scoring come from reference_contexts (a retrieved context equal to one is "positive"); the judged role is in the noise-sensitivity details.'
    : 'Document roles shown before scoring are not judged: every retrieved context starts as "negative" (not known to support the reference); the judged role is in the noise-sensitivity details.');
  return notes;
}

/** Suite.report for RAGAS. */
export function ragasReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: RagasParams, suiteId: string): SuiteReport {
  const { entries, orphans } = joinEntries(cases, results);
  const models = modelsOf(entries);
  const metrics = presentMetrics(entries);
  const forModel = (model: string) => entries.filter((e) => e.result.modelKey === model);
  const table: ReportTable = {
    id: 'ragas-means',
    title: 'RAGAS metrics: mean per model (95% interval; undetermined cases kept apart)',
    columns: models,
    rows: metrics.map((metric) => ({ label: metric, cells: models.map((model) => withUnmatched(meanCell(valuesOf(forModel(model), metric)), forModel(model), metric)) })),
    notes: ['Judge errors, NaN ("nothing to judge") and model errors count as undetermined, never as 0.'],
  };
  const reportMetrics: ReportMetric[] = models.flatMap((model) => metrics.map((metric) => {
    const summary = meanWithInterval(valuesOf(forModel(model), metric));
    return { suiteId, modelKey: model, name: metric, value: summary.value, n: summary.n };
  }));
  const agreement = agreementTable('ragas-human-agreement', 'Agreement with human scores (meta-evaluation)', {
    metrics, models, cases, results: entries.map((e) => e.result), humanScoresOf: (c) => c.humanScores,
  });
  // What kept the numbers from existing at all (no judge, no embeddings model) is said first.
  const needs = inputNotes(entries);
  const blocking = needs.filter((n) => n.includes('need a judge model') || n.includes('needs an embeddings model'));
  const notes = [...blocking, ...modeNotes(params, metrics), ...needs.filter((n) => !blocking.includes(n))];
  const errors = entries.filter((e) => e.result.status !== 'success').length;
  if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined.`);
  if (orphans > 0) notes.push(`${orphans} result(s) had no matching case and were left out.`);
  return { suiteId, method: RAGAS_METHOD, tables: agreement ? [table, agreement] : [table], metrics: reportMetrics, notes };
}
