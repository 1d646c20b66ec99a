// Aggregates LLM-Eval results: mean per dimension per model, the score distribution per dimension, and agreement with human scores.
import { modelsOf } from '../reportEntries.js';
import type { ReportEntry } from '../reportEntries.js';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import { meanWithInterval } from '../../stats.js';
import type { ReportMetric, ReportTable, SuiteReport } from '../contract.js';
import { agreementTable } from '../metaEval.js';
import { LLM_EVAL_METHOD } from './cases.js';
import type { LlmEvalParams } from './params.js';
import { SCALE_CONFIG } from './schema.js';
import type { ScaleConfig } from './schema.js';
import { NEEDS_JUDGE_LABEL } from './score.js';
import { meanCell } from '../reportCells.js';

type Entry = ReportEntry;

function scoreOf(result: ReportResult, metric: string): ReportScore | undefined {
  return result.scores.find((s) => s.metric === metric);
}

/** A result's value for a dimension: null when undetermined (judge error, model error, no judge). */
function valueOf(entry: Entry, dimension: string): number | null {
  if (entry.result.status !== 'success') return null;
  return scoreOf(entry.result, dimension)?.value ?? null;
}

/** Five unit-wide bins on 0–5, ten 10-wide bins on 0–100; the top bin includes the maximum. */
export function histogramBins(scale: ScaleConfig): { label: string; low: number; high: number }[] {
  const width = scale.max === 5 ? 1 : 10;
  const count = Math.round((scale.max - scale.min) / width);
  return Array.from({ length: count }, (_, i) => {
    const low = scale.min + i * width;
    const high = low + width;
    return { label: i === count - 1 ? `[${low}, ${high}]` : `[${low}, ${high})`, low, high };
  });
}

export function binIndex(value: number, bins: readonly { low: number; high: number }[]): number {
  const index = bins.findIndex((b) => value >= b.low && value < b.high);
  return index === -1 ? bins.length - 1 : index;
}

function histogramTable(dimension: string, entries: readonly Entry[], models: readonly string[], scale: ScaleConfig): ReportTable {
  const bins = histogramBins(scale);
  const perModel = models.map((model) => {
    const values = entries.filter((e) => e.result.modelKey === model).map((e) => valueOf(e, dimension));
    const determined = values.filter((v): v is number => v !== null);
    const counts = bins.map(() => 0);
    for (const v of determined) counts[binIndex(v, bins)]! += 1;
    return { counts, n: determined.length, undetermined: values.length - determined.length };
  });
  return {
    id: `llm-eval-distribution-${dimension}`,
    title: `${dimension}: distribution of scores (cases per bin)`,
    columns: [...models],
    rows: bins.map((bin, b) => ({ label: bin.label, cells: perModel.map((m) => ({ value: m.counts[b] as number, n: m.n, undetermined: m.undetermined })) })),
  };
}

function notesFor(params: LlmEvalParams, entries: readonly Entry[]): string[] {
  const scale = SCALE_CONFIG[params.scale];
  const notes = [
    `One judge call per case scores every dimension on ${scale.minText}–${scale.maxText} (${scale.type === 'number' ? 'decimal' : 'integer'} scores), greedy decoding (temperature 0), ${params.level === 'dialogue' ? 'dialogue level' : params.withReference ? 'response level with the reference response' : 'response level without a reference'} (MiuLab/LLM-Eval templates).`,
    params.parser === 'strict'
      ? 'Parser: strict (option). The judge also gets the schema as structured output; an answer that is not valid JSON for it is retried once, then every dimension of that case is a judge error (undetermined, never 0).'
      : `Parser: reference (default; parser: strict is the option). Replies are read as MiuLab/LLM-Eval reads them (langchain PydanticOutputParser, pydantic v1): the JSON object inside any prose, extra keys ignored, numbers given as strings accepted, ${scale.type === 'integer' ? 'non-integer scores truncated by int() as the reference does' : 'scores kept as floats'}; one call, no structured output, no repair. A reply it cannot read makes every dimension of that case a judge error (undetermined, never 0). A score outside the scale is a judge error on that dimension (the reference has no range check).`,
  ];
  const tolerated = entries.filter((e) => e.result.scores.some((s) => (s.details as { tolerated?: unknown } | undefined)?.tolerated === true)).length;
  if (tolerated > 0) notes.push(`${tolerated} result(s) were read only by tolerating something the strict schema rejects (each case's details say what).`);
  const needJudge = entries.filter((e) => e.result.scores.some((s) => s.label === NEEDS_JUDGE_LABEL)).length;
  if (needJudge > 0) notes.push(`LLM-Eval needs a judge model: set judge: in the eval file (e.g. judge: openai:gpt-4o-mini). ${needJudge} result(s) were not scored.`);
  const given = entries.filter((e) => e.result.response?.given).length;
  if (given > 0) notes.push(`${given} result(s) scored the ${params.level === 'dialogue' ? 'dialogue' : 'response'} the dataset holds; the models under test were not called for them.`);
  const errors = entries.filter((e) => e.result.status !== 'success').length;
  if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined.`);
  return notes;
}

/** Suite.report for LLM-Eval. */
export function llmEvalReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: LlmEvalParams, suiteId: string): SuiteReport {
  const entries = results.flatMap((result) => {
    const evalCase = cases.get(result.caseId);
    return evalCase ? [{ evalCase, result }] : [];
  });
  const models = modelsOf(entries);
  const dimensions = params.dimensions.map((d) => d.name);
  const valuesFor = (model: string, dimension: string) => entries.filter((e) => e.result.modelKey === model).map((e) => valueOf(e, dimension));
  const means: ReportTable = {
    id: 'llm-eval-means',
    title: `LLM-Eval: mean score per dimension (${SCALE_CONFIG[params.scale].minText}–${SCALE_CONFIG[params.scale].maxText}, 95% interval)`,
    columns: models,
    rows: dimensions.map((dimension) => ({ label: dimension, cells: models.map((model) => meanCell(valuesFor(model, dimension))) })),
  };
  const metrics: ReportMetric[] = models.flatMap((model) => dimensions.map((dimension) => {
    const summary = meanWithInterval(valuesFor(model, dimension));
    return { suiteId, modelKey: model, name: dimension, value: summary.value, n: summary.n };
  }));
  const scale = SCALE_CONFIG[params.scale];
  const histograms = dimensions.map((dimension) => histogramTable(dimension, entries, models, scale));
  const agreement = agreementTable('llm-eval-human-agreement', 'Agreement with human scores (the paper\'s validation: Pearson and Spearman per dimension)', {
    metrics: dimensions, models, cases, results: entries.map((e) => e.result), humanScoresOf: (c) => c.humanScores,
  });
  const notes = notesFor(params, entries);
  const orphans = results.length - entries.length;
  if (orphans > 0) notes.push(`${orphans} result(s) had no matching case and were left out.`);
  const scoring = `judge ${SCALE_CONFIG[params.scale].minText}–${SCALE_CONFIG[params.scale].maxText}, ${params.parser === 'strict' ? 'strict schema parser (params.parser: strict)' : 'reference parser (default)'}`;
  return { suiteId, method: LLM_EVAL_METHOD, tables: [means, ...histograms, ...(agreement ? [agreement] : [])], metrics, notes, scoring };
}
