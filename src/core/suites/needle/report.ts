// Aggregates needle results into the reference's heatmap (depth × context length, one per model) and a summary.
import { joinEntries, modelsOf } from '../reportEntries.js';
import type { ReportEntry } from '../reportEntries.js';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import type { ChartSpec, ReportCell, ReportMetric, ReportTable, SuiteReport } from '../contract.js';
import { NEEDLE_METHOD, needleCaseParams } from './cases.js';
import type { NeedleParams } from './params.js';
import { JUDGE_PASS, METRIC_OF } from './score.js';
import type { ScoringMode } from './score.js';
import { meanCell, wilsonCell } from '../reportCells.js';

/** The reference heatmap's colours, red → yellow → green, and its axis titles. */
export const HEATMAP_COLORS = ['#F0496E', '#EBB839', '#0CD79F'] as const;
export const X_TITLE = 'Token Limit';
export const Y_TITLE = 'Depth Percent';

type Entry = ReportEntry;

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


const isNegative = (entry: Entry) => needleCaseParams(entry.evalCase).negative;

/** The mode most of a model's scored results used (a resumed run may mix modes if the judge was added). */
function modesOf(entries: readonly Entry[]): ScoringMode[] {
  const counts = new Map<ScoringMode, number>();
  for (const entry of entries) {
    const found = scoreOf(entry.result);
    if (found) counts.set(found.mode, (counts.get(found.mode) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([mode]) => mode);
}

/** The value a result contributes in `mode`: null when it errored or the judge could not score it. */
function valueIn(entry: Entry, mode: ScoringMode): number | null | undefined {
  if (entry.result.status !== 'success') return null;
  const found = scoreOf(entry.result);
  if (!found) return undefined;
  if (found.mode !== mode) return undefined;
  return found.score.value;
}

function passIn(entry: Entry, mode: ScoringMode): boolean | null | undefined {
  const value = valueIn(entry, mode);
  if (value === null || value === undefined) return value;
  return scoreOf(entry.result)?.score.pass === true;
}

function modeMeanCell(entries: readonly Entry[], mode: ScoringMode): ReportCell {
  return meanCell(entries.map((e) => valueIn(e, mode)).filter((v): v is number | null => v !== undefined));
}

interface PassTally {
  passes: number;
  n: number;
  undetermined: number;
}

function passTally(entries: readonly Entry[], mode: ScoringMode): PassTally {
  const tally: PassTally = { passes: 0, n: 0, undetermined: 0 };
  for (const entry of entries) {
    const pass = passIn(entry, mode);
    if (pass === undefined) continue;
    if (pass === null) tally.undetermined++;
    else {
      tally.n++;
      if (pass) tally.passes++;
    }
  }
  return tally;
}

function tableId(model: string, mode: ScoringMode, modes: readonly ScoringMode[]): string {
  return modes.length > 1 ? `needle-heatmap:${model}:${mode}` : `needle-heatmap:${model}`;
}

/** The reference heatmap as a table: rows = depth (0 at the top), columns = context length, cell = mean score. */
function heatmapTable(entries: readonly Entry[], model: string, mode: ScoringMode, modes: readonly ScoringMode[], params: NeedleParams): ReportTable {
  const lengths = [...params.contextLengths].sort((a, b) => a - b);
  const depths = [...params.depths].sort((a, b) => a - b);
  const at = (length: number, depth: number) => entries.filter((e) => {
    const cell = needleCaseParams(e.evalCase);
    return cell.contextLength === length && cell.requestedDepth === depth;
  });
  const scale = SCALES[mode];
  return {
    id: tableId(model, mode, modes),
    title: `Needle retrieval by depth and context length — ${model} (${scale.describe})`,
    columns: lengths.map(String),
    rows: depths.map((depth) => ({ label: String(depth), cells: lengths.map((length) => modeMeanCell(at(length, depth), mode)) })),
    notes: [
      `Rows: ${Y_TITLE} (requested; the needle backs up to a sentence end, see each case's actualDepthPercent). Columns: ${X_TITLE} (context length in tokens).`,
      `Cell: mean over the cell's results with n; colour scale ${HEATMAP_COLORS.join(' → ')} from ${scale.min} to ${scale.max}.`,
    ],
  };
}

function heatmapChart(table: ReportTable, mode: ScoringMode): ChartSpec {
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

function labelCounts(entries: readonly Entry[], mode: ScoringMode): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    const found = scoreOf(entry.result);
    if (entry.result.status !== 'success' || !found || found.mode !== mode || found.score.label === undefined) continue;
    counts.set(found.score.label, (counts.get(found.score.label) ?? 0) + 1);
  }
  return counts;
}

function summarise(entries: readonly Entry[], model: string): ModelSummary {
  const mine = entries.filter((e) => e.result.modelKey === model);
  const positive = mine.filter((e) => !isNegative(e));
  const mode = modesOf(positive)[0] ?? modesOf(mine)[0];
  const empty: PassTally = { passes: 0, n: 0, undetermined: positive.length };
  return {
    model,
    mode,
    mean: mode ? modeMeanCell(positive, mode) : { value: null, n: 0, undetermined: positive.length },
    pass: mode ? passTally(positive, mode) : empty,
    labels: mode ? labelCounts(positive, mode) : new Map(),
    negative: passTally(mine.filter(isNegative), 'rail'),
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

/** How far the back-up moved needles from the requested depth, the deviation the reference never reported. */
function placementNote(cases: readonly ReportCase[]): string | undefined {
  const shifts = cases.map((c) => needleCaseParams(c)).filter((p) => p.requestedDepth !== null && p.actualDepthPercent !== null).map((p) => ({ p, shift: (p.requestedDepth as number) - (p.actualDepthPercent as number) }));
  if (shifts.length === 0) return undefined;
  const mean = shifts.reduce((sum, s) => sum + s.shift, 0) / shifts.length;
  const largest = shifts.reduce((a, b) => (Math.abs(b.shift) > Math.abs(a.shift) ? b : a));
  const rule = largest.p.boundary === 'sentence' ? 'the nearest sentence end before it' : 'the nearest "." token before it (the reference rule)';
  return `Each needle backs up from the requested depth to ${rule}: on average ${format(mean)} points earlier, at most ${format(largest.shift)} (L=${largest.p.contextLength}, depth ${largest.p.requestedDepth}). Heatmap rows are the requested depths.`;
}

function tokenizerNote(cases: readonly ReportCase[], params: NeedleParams): string | undefined {
  const first = cases[0];
  if (!first) return undefined;
  const p = needleCaseParams(first);
  const approximate = p.approximateTokenizer ? ' — an approximation: that model\'s own tokenizer is not available, so lengths are estimates' : '';
  return `Contexts were cut with the ${p.tokenizer} tokenizer of ${p.tokenizerModel ?? params.tokenizerModel}${approximate}. All models under test saw the same contexts (one tokenizer per suite; set params.tokenizerModel to match the model).`;
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

/** Suite.report for Needle in a Haystack. */
export function needleReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: NeedleParams, suiteId: string): SuiteReport {
  const { entries, orphans } = joinEntries(cases, results);
  const models = modelsOf(entries);
  const tables: ReportTable[] = [];
  const charts: ChartSpec[] = [];
  const allModes = new Set<ScoringMode>();
  for (const model of models) {
    const positive = entries.filter((e) => e.result.modelKey === model && !isNegative(e));
    const modes = modesOf(positive);
    for (const mode of modes) {
      allModes.add(mode);
      const table = heatmapTable(positive, model, mode, modes, params);
      tables.push(table);
      charts.push(heatmapChart(table, mode));
    }
  }
  const summaries = models.map((model) => summarise(entries, model));
  tables.push(summaryTable(summaries, params));
  const suiteCases = [...cases.values()].filter((c) => c.suiteId === suiteId);
  const notes = [scoringNote([...allModes], params), placementNote(suiteCases), tokenizerNote(suiteCases, params)].filter((n): n is string => n !== undefined && n !== '');
  const errors = entries.filter((e) => e.result.status !== 'success').length;
  if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined, not as misses.`);
  if (orphans > 0) notes.push(`${orphans} result(s) had no matching case and were left out.`);
  const scoring = scoringSummary([...allModes], params);
  notes.unshift(`Scoring: ${scoring}.`);
  return { suiteId, method: NEEDLE_METHOD, tables, metrics: summaries.flatMap((s) => metricsOf(s, params, suiteId)), notes, charts, scoring };
}
