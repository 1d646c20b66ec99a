// Aggregates needle results into the reference's heatmap (depth × context length, one per model) and a summary.
import { NumberColumn, joined, modelColumns, orphansNote, reportThrough } from '../aggregator.js';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import type { ChartSpec, HeatmapChartSpec, ReportCell, ReportMetric, ReportTable, SuiteAggregator, SuiteReport } from '../contract.js';
import { NEEDLE_METHOD, needleCaseParams } from './cases.js';
import type { NeedleCaseParams } from './cases.js';
import type { NeedleParams } from './params.js';
import { JUDGE_PASS, METRIC_OF } from './score.js';
import type { ScoringMode } from './score.js';
import { meanCell, wilsonCell } from '../reportCells.js';

/** The reference heatmap's colours, red → yellow → green, and its axis titles. */
export const HEATMAP_COLORS = ['#F0496E', '#EBB839', '#0CD79F'] as const;
export const X_TITLE = 'Token Limit';
export const Y_TITLE = 'Depth Percent';

const MODES = Object.keys(METRIC_OF) as ScoringMode[];

const SCALES: Readonly<Record<ScoringMode, { min: number; max: number; describe: string }>> = {
  judge: { min: 1, max: 10, describe: 'judge score 1–10 (reference LangChain accuracy criteria)' },
  substring: { min: 0, max: 1, describe: 'share of responses containing the expected phrase (substring, no judge)' },
  rail: { min: 0, max: 1, describe: 'share of responses snapped to the right rail (Arize)' },
  retrieved: { min: 0, max: 1, describe: 'share of needles retrieved (substring per needle)' },
};

function scoreOf(result: ReportResult): { mode: ScoringMode; score: ReportScore } | undefined {
  for (const mode of MODES) {
    const score = result.scores.find((s) => s.metric === METRIC_OF[mode]);
    if (score) return { mode, score };
  }
  return undefined;
}


interface PassTally {
  passes: number;
  n: number;
  undetermined: number;
}

/** A mode's results in a group: the values scored in it (in order: a mean's sum depends on it), nulls, passes, labels. */
interface ModeCounts {
  values: NumberColumn;
  nulls: number;
  passes: number;
  labels: Map<string, number>;
}

/**
 * One group of a model's results (its positive cases, a heatmap cell, its negative tests), counted one result at a
 * time: a model error is undetermined in every mode; a scored result counts in its own mode only.
 */
class ModeGroup {
  results = 0;
  private errors = 0;
  /** Results per scoring mode, in the order modes first appeared (ties keep it). */
  private readonly modeCounts = new Map<ScoringMode, number>();
  private readonly byMode = new Map<ScoringMode, ModeCounts>();

  add(result: ReportResult): void {
    this.results++;
    const found = scoreOf(result);
    if (found) this.modeCounts.set(found.mode, (this.modeCounts.get(found.mode) ?? 0) + 1);
    if (result.status !== 'success') {
      this.errors++;
      return;
    }
    if (!found) return;
    let counts = this.byMode.get(found.mode);
    if (!counts) {
      counts = { values: new NumberColumn(), nulls: 0, passes: 0, labels: new Map() };
      this.byMode.set(found.mode, counts);
    }
    const { score } = found;
    if (score.value === null) counts.nulls++;
    else {
      counts.values.push(score.value);
      if (score.pass === true) counts.passes++;
    }
    if (score.label !== undefined) counts.labels.set(score.label, (counts.labels.get(score.label) ?? 0) + 1);
  }

  /** The modes used, most results first (a resumed run may mix modes if the judge was added). */
  modes(): ScoringMode[] {
    return [...this.modeCounts.entries()].sort((a, b) => b[1] - a[1]).map(([mode]) => mode);
  }

  /** The mean of the mode's values; model errors and judge errors (null, NaN) undetermined. */
  meanCell(mode: ScoringMode): ReportCell {
    const counts = this.byMode.get(mode);
    const values: (number | null)[] = counts ? counts.values.toArray() : [];
    for (let i = 0; i < this.errors + (counts?.nulls ?? 0); i++) values.push(null);
    return meanCell(values);
  }

  passTally(mode: ScoringMode): PassTally {
    const counts = this.byMode.get(mode);
    return { passes: counts?.passes ?? 0, n: counts?.values.length ?? 0, undetermined: this.errors + (counts?.nulls ?? 0) };
  }

  labels(mode: ScoringMode): Map<string, number> {
    return new Map(this.byMode.get(mode)?.labels ?? []);
  }
}

function tableId(model: string, mode: ScoringMode, modes: readonly ScoringMode[]): string {
  return modes.length > 1 ? `needle-heatmap:${model}:${mode}` : `needle-heatmap:${model}`;
}

const cellKey = (length: number | null, depth: number | null) => `${String(length)}\u0000${String(depth)}`;

/** The reference heatmap as a table: rows = depth (0 at the top), columns = context length, cell = mean score. */
function heatmapTable(cells: ReadonlyMap<string, ModeGroup>, model: string, mode: ScoringMode, modes: readonly ScoringMode[], params: NeedleParams): ReportTable {
  const lengths = [...params.contextLengths].sort((a, b) => a - b);
  const depths = [...params.depths].sort((a, b) => a - b);
  const scale = SCALES[mode];
  return {
    id: tableId(model, mode, modes),
    title: `Needle retrieval by depth and context length — ${model} (${scale.describe})`,
    columns: lengths.map(String),
    rows: depths.map((depth) => ({ label: String(depth), cells: lengths.map((length) => (cells.get(cellKey(length, depth)) ?? new ModeGroup()).meanCell(mode)) })),
    notes: [
      `Rows: ${Y_TITLE} (requested; the needle backs up to a sentence end, see each case's actualDepthPercent). Columns: ${X_TITLE} (context length in tokens).`,
      `Cell: mean over the cell's results with n; colour scale ${HEATMAP_COLORS.join(' → ')} from ${scale.min} to ${scale.max}.`,
    ],
  };
}

function heatmapChart(table: ReportTable, mode: ScoringMode): HeatmapChartSpec {
  return { kind: 'heatmap', tableId: table.id, title: table.title, xTitle: X_TITLE, yTitle: Y_TITLE, colors: [...HEATMAP_COLORS], min: SCALES[mode].min, max: SCALES[mode].max };
}

interface ModelSummary {
  model: string;
  mode: ScoringMode | undefined;
  mean: ReportCell;
  pass: PassTally;
  labels: Map<string, number>;
  negative: PassTally;
}

/** A model's results: its positive cases (overall and per heatmap cell) and its negative tests. */
interface ModelGroups {
  positive: ModeGroup;
  cells: Map<string, ModeGroup>;
  negative: ModeGroup;
}

function summarise(groups: ModelGroups, model: string): ModelSummary {
  const { positive, negative } = groups;
  // Without a scored positive case, the modes of all its results are its negative tests'.
  const mode = positive.modes()[0] ?? negative.modes()[0];
  const empty: PassTally = { passes: 0, n: 0, undetermined: positive.results };
  return {
    model,
    mode,
    mean: mode ? positive.meanCell(mode) : { value: null, n: 0, undetermined: positive.results },
    pass: mode ? positive.passTally(mode) : empty,
    labels: mode ? positive.labels(mode) : new Map(),
    negative: negative.passTally('rail'),
  };
}

function summaryTable(summaries: readonly ModelSummary[], params: NeedleParams): ReportTable {
  const rows: ReportTable['rows'] = [
    { label: 'Mean score', cells: summaries.map((s) => s.mean) },
    { label: `Pass rate (${params.variant === 'classic' ? `judge ≥ ${JUDGE_PASS}, or the phrase found` : params.variant === 'arize' ? 'the number found' : 'every needle found'})`, cells: summaries.map((s) => wilsonCell(s.pass.passes, s.pass.n, s.pass.undetermined)) },
    { label: 'Misses', cells: summaries.map((s) => ({ value: s.pass.n - s.pass.passes, n: s.pass.n, undetermined: s.pass.undetermined })) },
  ];
  if (params.variant === 'arize') {
    for (const label of ['refusal', 'miss']) {
      rows.push({ label: label === 'refusal' ? 'Refused (UNANSWERABLE) with the needle present' : 'Not parsable (neither or both rails)', cells: summaries.map((s) => wilsonCell(s.labels.get(label) ?? 0, s.pass.n, s.pass.undetermined)) });
    }
    if (params.negativeTest) rows.push({ label: 'Negative test: answered UNANSWERABLE', cells: summaries.map((s) => wilsonCell(s.negative.passes, s.negative.n, s.negative.undetermined)) });
  }
  return {
    id: 'needle-summary',
    title: 'Needle in a Haystack: over the whole grid',
    columns: summaries.map((s) => s.model),
    rows,
    notes: ['Model errors and judge errors are undetermined: left out of every mean and rate, never counted as misses.'],
  };
}

function metricsOf(summary: ModelSummary, params: NeedleParams, suiteId: string): ReportMetric[] {
  const { model, pass } = summary;
  const metrics: ReportMetric[] = [
    { suiteId, modelKey: model, name: 'mean_score', value: summary.mean.value as number | null, n: summary.mean.n ?? 0 },
    { suiteId, modelKey: model, name: 'pass_rate', value: pass.n === 0 ? null : pass.passes / pass.n, n: pass.n },
    { suiteId, modelKey: model, name: 'miss_count', value: pass.n - pass.passes, n: pass.n },
  ];
  if (params.variant === 'arize') {
    metrics.push({ suiteId, modelKey: model, name: 'refusal_count', value: summary.labels.get('refusal') ?? 0, n: pass.n });
    if (params.negativeTest) {
      const negative = summary.negative;
      metrics.push({ suiteId, modelKey: model, name: 'negative_refusal_rate', value: negative.n === 0 ? null : negative.passes / negative.n, n: negative.n });
    }
  }
  return metrics;
}

function format(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/**
 * What the notes read of the suite's cases, case by case: how far the back-up moved needles from the requested depth
 * (the deviation the reference never reported: a running sum and the largest), and the first case's tokenizer.
 */
class Placement {
  private shifts = 0;
  private sum = 0;
  private largest: { p: NeedleCaseParams; shift: number } | undefined;
  private first: NeedleCaseParams | undefined;

  constructor(private readonly suiteId: string) {}

  addCase(evalCase: ReportCase): void {
    if (evalCase.suiteId !== this.suiteId) return;
    const p = needleCaseParams(evalCase);
    this.first ??= p;
    if (p.requestedDepth === null || p.actualDepthPercent === null) return;
    const shift = p.requestedDepth - p.actualDepthPercent;
    this.shifts++;
    this.sum += shift;
    if (!this.largest || Math.abs(shift) > Math.abs(this.largest.shift)) this.largest = { p, shift };
  }

  placementNote(): string | undefined {
    const largest = this.largest;
    if (!largest) return undefined;
    const mean = this.sum / this.shifts;
    const rule = largest.p.boundary === 'sentence' ? 'the nearest sentence end before it' : 'the nearest "." token before it (the reference rule)';
    return `Each needle backs up from the requested depth to ${rule}: on average ${format(mean)} points earlier, at most ${format(largest.shift)} (L=${largest.p.contextLength}, depth ${largest.p.requestedDepth}). Heatmap rows are the requested depths.`;
  }

  tokenizerNote(params: NeedleParams): string | undefined {
    const p = this.first;
    if (!p) return undefined;
    const approximate = p.approximateTokenizer ? ' — an approximation: that model\'s own tokenizer is not available, so lengths are estimates' : '';
    return `Contexts were cut with the ${p.tokenizer} tokenizer of ${p.tokenizerModel ?? params.tokenizerModel}${approximate}. All models under test saw the same contexts (one tokenizer per suite; set params.tokenizerModel to match the model).`;
  }
}

function scoringNote(modes: readonly ScoringMode[], params: NeedleParams): string {
  const parts = modes.map((mode) => {
    switch (mode) {
      case 'judge':
        return `Scored by the judge model with the reference prompt (LangChain labeled_score_string, accuracy criteria), 1–10; a pass is ${JUDGE_PASS} or more. Correct but wordy answers can be rated low (reference issue #39): read the judge's explanation on each case.`;
      case 'substring':
        return `Scored without a judge: a pass when the response contains ${params.answer === undefined ? 'the whole needle sentence (no params.answer given)' : `'${params.answer}'`} (case-insensitive). Set judge in the eval file for the reference's 1–10 judge score.`;
      case 'rail':
        return 'Scored with Arize\'s rails: the response lowercased and matched against [the number, "unanswerable"]; exactly one match is the verdict, else not parsable. Labels: pass (the number), refusal (UNANSWERABLE although the needle is there), miss (not parsable). The Arize notebook\'s 1/5/10 codes are in each score\'s details.';
      case 'retrieved':
        return 'Scored as needles retrieved over needles inserted, each answer looked for as a case-insensitive substring (the reference\'s audit of its judge\'s count).';
    }
  });
  return parts.join(' ');
}

const MODE_WORDS: Readonly<Record<ScoringMode, string>> = {
  judge: 'judge 1–10',
  substring: 'substring',
  rail: 'Arize rails',
  retrieved: 'needles retrieved of k',
};

/**
 * The scoring in a few words, and why it applies: the classic variant's default (`scoring: auto`) is the judge when
 * the eval file has judge: — the reference's scoring — and substring otherwise, so adding a judge for another suite
 * changes it; saying so on the suite's header keeps that from going unnoticed.
 */
export function scoringSummary(modes: readonly ScoringMode[], params: NeedleParams): string {
  const used = modes.map((m) => MODE_WORDS[m]).join(' + ') || (params.variant === 'multi' ? MODE_WORDS.retrieved : params.variant === 'arize' ? MODE_WORDS.rail : 'not scored yet');
  if (params.variant !== 'classic') return `${used} (the ${params.variant} variant's reference scoring)`;
  if (params.scoring !== 'auto') return `${used} (params.scoring: ${params.scoring})`;
  if (modes.includes('judge')) return `${used} (default: the eval file sets judge:; params.scoring: substring keeps substring scoring)`;
  return `${used} (default without judge: in the eval file; with one, classic needle suites are judge-scored unless params.scoring is set)`;
}

/** Suite.createAggregator for Needle in a Haystack: per model, its positive cases (overall and per cell) and negative tests. */
export function createNeedleAggregator(params: NeedleParams, suiteId: string): SuiteAggregator {
  const byModel = new Map<string, ModelGroups>();
  const placement = new Placement(suiteId);
  let errors = 0;
  return joined({
    addCase: (evalCase) => placement.addCase(evalCase),
    add(evalCase, result) {
      let groups = byModel.get(result.modelKey);
      if (!groups) {
        groups = { positive: new ModeGroup(), cells: new Map(), negative: new ModeGroup() };
        byModel.set(result.modelKey, groups);
      }
      const p = needleCaseParams(evalCase);
      if (p.negative) groups.negative.add(result);
      else {
        groups.positive.add(result);
        const key = cellKey(p.contextLength, p.requestedDepth);
        const cell = groups.cells.get(key) ?? new ModeGroup();
        groups.cells.set(key, cell);
        cell.add(result);
      }
      if (result.status !== 'success') errors++;
    },
    finish(orphans) {
      const models = modelColumns(byModel.keys());
      const tables: ReportTable[] = [];
      const charts: ChartSpec[] = [];
      const allModes = new Set<ScoringMode>();
      for (const model of models) {
        const groups = byModel.get(model)!;
        const modes = groups.positive.modes();
        for (const mode of modes) {
          allModes.add(mode);
          const table = heatmapTable(groups.cells, model, mode, modes, params);
          tables.push(table);
          charts.push(heatmapChart(table, mode));
        }
      }
      const summaries = models.map((model) => summarise(byModel.get(model)!, model));
      tables.push(summaryTable(summaries, params));
      const notes = [scoringNote([...allModes], params), placement.placementNote(), placement.tokenizerNote(params)].filter((n): n is string => n !== undefined && n !== '');
      if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined, not as misses.`);
      notes.push(...orphansNote(orphans));
      const scoring = scoringSummary([...allModes], params);
      notes.unshift(`Scoring: ${scoring}.`);
      return { suiteId, method: NEEDLE_METHOD, tables, metrics: summaries.flatMap((s) => metricsOf(s, params, suiteId)), notes, charts, scoring };
    },
  });
}

/** Suite.report for Needle in a Haystack: the aggregator fed from arrays. */
export function needleReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: NeedleParams, suiteId: string): SuiteReport {
  return reportThrough(createNeedleAggregator(params, suiteId), cases, results);
}
