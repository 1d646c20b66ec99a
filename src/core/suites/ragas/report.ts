// Aggregates RAGAS results: the mean of each metric per model with its interval and undetermined count, plus agreement with human scores.
import { MeanValues, joined, modelColumns, orphansNote, reportThrough } from '../aggregator.js';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import { meanWithInterval } from '../../stats.js';
import type { ReportCell, ReportMetric, ReportTable, SuiteAggregator, SuiteReport } from '../contract.js';
import { NEITHER_VERDICT } from '../judging.js';
import { AgreementPairs, agreementTable } from '../metaEval.js';
import { RAGAS_METHOD, ragasCaseParams } from './cases.js';
import { NEEDS_EMBEDDINGS_LABEL, NEEDS_JUDGE_LABEL } from './judgeStep.js';
import { RAGAS_METRICS } from './params.js';
import type { RagasMetric, RagasParams } from './params.js';
import { meanCell } from '../reportCells.js';

function scoreOf(result: ReportResult, metric: string): ReportScore | undefined {
  return result.scores.find((s) => s.metric === metric);
}


/** A case's value for a metric: its number, null when undetermined (judge error, NaN, model error), undefined when not asked. */
function valueFor(evalCase: ReportCase, result: ReportResult, metric: RagasMetric): number | null | undefined {
  if (!ragasCaseParams(evalCase).metrics.includes(metric) && !scoreOf(result, metric)) return undefined;
  if (result.status !== 'success') return null;
  const score = scoreOf(result, metric);
  return score ? score.value : undefined;
}

/** Judge answers that matched neither verdict (context relevance: nothing extracted), shown beside the mean they are in. */
function withUnmatched(cell: ReportCell, unmatched: number): ReportCell {
  return unmatched ? { ...cell, unmatched } : cell;
}

/** How many results carried what the input notes count, and whether any case's roles came from reference_contexts. */
interface InputCounts {
  needJudge: number;
  needEmbeddings: number;
  given: number;
  skipped: number;
  hinted: boolean;
}

function countInputs(counts: InputCounts, evalCase: ReportCase, result: ReportResult): void {
  if (result.scores.some((s) => s.label === NEEDS_JUDGE_LABEL)) counts.needJudge++;
  if (result.scores.some((s) => s.label === NEEDS_EMBEDDINGS_LABEL)) counts.needEmbeddings++;
  if (result.response?.given) counts.given++;
  const p = ragasCaseParams(evalCase);
  if (p.skipped.length > 0) counts.skipped++;
  if (p.roleSource === 'reference_contexts') counts.hinted = true;
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

function inputNotes(counts: InputCounts): string[] {
  const notes: string[] = [];
  const { needJudge, needEmbeddings, given, skipped, hinted } = counts;
  if (needJudge > 0) notes.push(`RAGAS metrics need a judge model: set judge: in the eval file (e.g. judge: openai:gpt-4o-mini). ${needJudge} result(s) were not scored.`);
  if (needEmbeddings > 0) notes.push(`answer_relevancy needs an embeddings model: set embeddings: in the eval file (e.g. embeddings: openai:text-embedding-3-small). ${needEmbeddings} result(s) left undetermined.`);
  if (given > 0) notes.push(`${given} result(s) scored the response the dataset holds; the models under test were not called for them (every model column shows the same answers).`);
  if (skipped > 0) notes.push(`${skipped} result(s) lacked a field a requested metric reads (e.g. no reference): those metrics are undetermined there.`);
  notes.push(hinted
    ? 'Document roles shown before scoring come from reference_contexts (a retrieved context equal to one is "positive"); the judged role is in the noise-sensitivity details.'
    : 'Document roles shown before scoring are not judged: every retrieved context starts as "negative" (not known to support the reference); the judged role is in the noise-sensitivity details.');
  return notes;
}

/** Suite.createAggregator for RAGAS: each metric's values per model, unmatched verdicts, the note counts, the human-score pairs. */
export function createRagasAggregator(params: RagasParams, suiteId: string): SuiteAggregator {
  const values = new Map<string, MeanValues>();
  const unmatched = new Map<string, number>();
  /** Metrics at least one case carried. */
  const present = new Set<RagasMetric>();
  const models = new Set<string>();
  const pairs = new AgreementPairs();
  const counts: InputCounts = { needJudge: 0, needEmbeddings: 0, given: 0, skipped: 0, hinted: false };
  let errors = 0;
  const key = (model: string, metric: string) => `${model}\u0000${metric}`;
  return joined({
    addCase: () => undefined,
    add(evalCase, result) {
      models.add(result.modelKey);
      for (const metric of RAGAS_METRICS) {
        const value = valueFor(evalCase, result, metric);
        if (value === undefined) continue;
        present.add(metric);
        const column = values.get(key(result.modelKey, metric)) ?? new MeanValues();
        values.set(key(result.modelKey, metric), column);
        column.add(value);
      }
      for (const metric of new Set(result.scores.filter((s) => s.label === NEITHER_VERDICT).map((s) => s.metric))) {
        unmatched.set(key(result.modelKey, metric), (unmatched.get(key(result.modelKey, metric)) ?? 0) + 1);
      }
      pairs.add(evalCase, result);
      countInputs(counts, evalCase, result);
      if (result.status !== 'success') errors++;
    },
    finish(orphans) {
      const columns = modelColumns(models);
      // In the order the report names them.
      const metrics = RAGAS_METRICS.filter((metric) => present.has(metric));
      const valuesOf = (model: string, metric: string) => (values.get(key(model, metric)) ?? new MeanValues()).values();
      const table: ReportTable = {
        id: 'ragas-means',
        title: 'RAGAS metrics: mean per model (95% interval; undetermined cases kept apart)',
        columns,
        rows: metrics.map((metric) => ({ label: metric, cells: columns.map((model) => withUnmatched(meanCell(valuesOf(model, metric)), unmatched.get(key(model, metric)) ?? 0)) })),
        notes: ['Judge errors, NaN ("nothing to judge") and model errors count as undetermined, never as 0.'],
      };
      const reportMetrics: ReportMetric[] = columns.flatMap((model) => metrics.map((metric) => {
        const summary = meanWithInterval(valuesOf(model, metric));
        return { suiteId, modelKey: model, name: metric, value: summary.value, n: summary.n };
      }));
      const agreement = agreementTable('ragas-human-agreement', 'Agreement with human scores (meta-evaluation)', { metrics, models: columns, pairs });
      // What kept the numbers from existing at all (no judge, no embeddings model) is said first.
      const needs = inputNotes(counts);
      const blocking = needs.filter((n) => n.includes('need a judge model') || n.includes('needs an embeddings model'));
      const notes = [...blocking, ...modeNotes(params, metrics), ...needs.filter((n) => !blocking.includes(n))];
      if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined.`);
      notes.push(...orphansNote(orphans));
      return { suiteId, method: RAGAS_METHOD, tables: agreement ? [table, agreement] : [table], metrics: reportMetrics, notes };
    },
  });
}

/** Suite.report for RAGAS: the aggregator fed from arrays. */
export function ragasReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: RagasParams, suiteId: string): SuiteReport {
  return reportThrough(createRagasAggregator(params, suiteId), cases, results);
}
