// Aggregates LLM-Eval results: mean per dimension per model, the score distribution per dimension, and agreement with human scores.
import { MeanValues, joined, modelColumns, orphansNote, reportThrough } from '../aggregator.js';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import { meanWithInterval } from '../../stats.js';
import type { ReportMetric, ReportTable, SuiteAggregator, SuiteReport } from '../contract.js';
import { AgreementPairs, agreementTable } from '../metaEval.js';
import { LLM_EVAL_METHOD } from './cases.js';
import type { LlmEvalParams } from './params.js';
import { SCALE_CONFIG } from './schema.js';
import type { ScaleConfig } from './schema.js';
import { NEEDS_JUDGE_LABEL } from './score.js';
import { meanCell } from '../reportCells.js';

function scoreOf(result: ReportResult, metric: string): ReportScore | undefined {
  return result.scores.find((s) => s.metric === metric);
}

/** A result's value for a dimension: null when undetermined (judge error, model error, no judge). */
function valueOf(result: ReportResult, dimension: string): number | null {
  if (result.status !== 'success') return null;
  return scoreOf(result, dimension)?.value ?? null;
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

function histogramTable(dimension: string, values: (model: string) => MeanValues, models: readonly string[], scale: ScaleConfig): ReportTable {
  const bins = histogramBins(scale);
  const perModel = models.map((model) => {
    const all = values(model).values();
    const determined = all.filter((v): v is number => v !== null);
    const counts = bins.map(() => 0);
    for (const v of determined) counts[binIndex(v, bins)]! += 1;
    return { counts, n: determined.length, undetermined: all.length - determined.length };
  });
  return {
    id: `llm-eval-distribution-${dimension}`,
    title: `${dimension}: distribution of scores (cases per bin)`,
    columns: [...models],
    rows: bins.map((bin, b) => ({ label: bin.label, cells: perModel.map((m) => ({ value: m.counts[b] as number, n: m.n, undetermined: m.undetermined })) })),
  };
}

/** How many results carried what the notes count: a tolerated reply, no judge, a response from the dataset, an error. */
interface NoteCounts {
  tolerated: number;
  needJudge: number;
  given: number;
  errors: number;
}

function countNotes(counts: NoteCounts, result: ReportResult): void {
  if (result.scores.some((s) => (s.details as { tolerated?: unknown } | undefined)?.tolerated === true)) counts.tolerated++;
  if (result.scores.some((s) => s.label === NEEDS_JUDGE_LABEL)) counts.needJudge++;
  if (result.response?.given) counts.given++;
  if (result.status !== 'success') counts.errors++;
}

function notesFor(params: LlmEvalParams, counts: NoteCounts): string[] {
  const scale = SCALE_CONFIG[params.scale];
  const notes = [
    `One judge call per case scores every dimension on ${scale.minText}–${scale.maxText} (${scale.type === 'number' ? 'decimal' : 'integer'} scores), greedy decoding (temperature 0), ${params.level === 'dialogue' ? 'dialogue level' : params.withReference ? 'response level with the reference response' : 'response level without a reference'} (MiuLab/LLM-Eval templates).`,
    params.parser === 'strict'
      ? 'Parser: strict (option). The judge also gets the schema as structured output; an answer that is not valid JSON for it is retried once, then every dimension of that case is a judge error (undetermined, never 0).'
      : `Parser: reference (default; parser: strict is the option). Replies are read as MiuLab/LLM-Eval reads them (langchain PydanticOutputParser, pydantic v1): the JSON object inside any prose, extra keys ignored, numbers given as strings accepted, ${scale.type === 'integer' ? 'non-integer scores truncated by int() as the reference does' : 'scores kept as floats'}; one call, no structured output, no repair. A reply it cannot read makes every dimension of that case a judge error (undetermined, never 0). A score outside the scale is a judge error on that dimension (the reference has no range check).`,
  ];
  const { tolerated, needJudge, given, errors } = counts;
  if (tolerated > 0) notes.push(`${tolerated} result(s) were read only by tolerating something the strict schema rejects (each case's details say what).`);
  if (needJudge > 0) notes.push(`LLM-Eval needs a judge model: set judge: in the eval file (e.g. judge: openai:gpt-4o-mini). ${needJudge} result(s) were not scored.`);
  if (given > 0) notes.push(`${given} result(s) scored the ${params.level === 'dialogue' ? 'dialogue' : 'response'} the dataset holds; the models under test were not called for them.`);
  if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined.`);
  return notes;
}

/** Suite.createAggregator for LLM-Eval: each dimension's values per model, the note counts, the human-score pairs. */
export function createLlmEvalAggregator(params: LlmEvalParams, suiteId: string): SuiteAggregator {
  const dimensions = params.dimensions.map((d) => d.name);
  const values = new Map<string, MeanValues>();
  const models = new Set<string>();
  const pairs = new AgreementPairs();
  const counts: NoteCounts = { tolerated: 0, needJudge: 0, given: 0, errors: 0 };
  const valuesFor = (model: string, dimension: string) => {
    const key = `${model}\u0000${dimension}`;
    let column = values.get(key);
    if (!column) {
      column = new MeanValues();
      values.set(key, column);
    }
    return column;
  };
  return joined({
    addCase: () => undefined,
    add(evalCase, result) {
      models.add(result.modelKey);
      for (const dimension of dimensions) valuesFor(result.modelKey, dimension).add(valueOf(result, dimension));
      pairs.add(evalCase, result);
      countNotes(counts, result);
    },
    finish(orphans) {
      const columns = modelColumns(models);
      const means: ReportTable = {
        id: 'llm-eval-means',
        title: `LLM-Eval: mean score per dimension (${SCALE_CONFIG[params.scale].minText}–${SCALE_CONFIG[params.scale].maxText}, 95% interval)`,
        columns,
        rows: dimensions.map((dimension) => ({ label: dimension, cells: columns.map((model) => meanCell(valuesFor(model, dimension).values())) })),
      };
      const metrics: ReportMetric[] = columns.flatMap((model) => dimensions.map((dimension) => {
        const summary = meanWithInterval(valuesFor(model, dimension).values());
        return { suiteId, modelKey: model, name: dimension, value: summary.value, n: summary.n };
      }));
      const scale = SCALE_CONFIG[params.scale];
      const histograms = dimensions.map((dimension) => histogramTable(dimension, (model) => valuesFor(model, dimension), columns, scale));
      const agreement = agreementTable('llm-eval-human-agreement', 'Agreement with human scores (the paper\'s validation: Pearson and Spearman per dimension)', { metrics: dimensions, models: columns, pairs });
      const notes = notesFor(params, counts);
      notes.push(...orphansNote(orphans));
      const scoring = `judge ${SCALE_CONFIG[params.scale].minText}–${SCALE_CONFIG[params.scale].maxText}, ${params.parser === 'strict' ? 'strict schema parser (params.parser: strict)' : 'reference parser (default)'}`;
      return { suiteId, method: LLM_EVAL_METHOD, tables: [means, ...histograms, ...(agreement ? [agreement] : [])], metrics, notes, scoring };
    },
  });
}

/** Suite.report for LLM-Eval: the aggregator fed from arrays. */
export function llmEvalReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: LlmEvalParams, suiteId: string): SuiteReport {
  return reportThrough(createLlmEvalAggregator(params, suiteId), cases, results);
}
