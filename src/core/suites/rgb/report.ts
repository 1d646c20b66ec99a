// Aggregates RGB results into the paper's tables (1, 3, 5, 7), one column per model, Wilson intervals throughout.
import { entriesForModel, joinEntries, modelsOf } from '../reportEntries.js';
import type { ReportEntry } from '../reportEntries.js';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import { wilson } from '../../stats.js';
import type { ReportCell, ReportMetric, ReportTable, SuiteReport } from '../contract.js';
import { RGB_METHOD, rgbCaseParams } from './cases.js';
import { NEITHER_VERDICT, failureLabelsFor } from './judge.js';
import type { RgbParams } from './params.js';
import { wilsonCell } from '../reportCells.js';

/** A result with the case it answered. */
type Entry = ReportEntry;

/** A proportion over entries: hits / determined, with model errors and judge errors kept apart. */
export interface Tally {
  hits: number;
  n: number;
  undetermined: number;
  /** Whether any entry carried the metric at all (false: e.g. no judge configured). */
  present: boolean;
  /** Judge answers that matched neither verdict, counted in n as the reference counts them (judge.ts, NEITHER_VERDICT). */
  unmatched?: number;
}

function scoreOf(result: ReportResult, metric: string): ReportScore | undefined {
  return result.scores.find((score) => score.metric === metric);
}

export function tallyMetric(entries: readonly Entry[], metric: string, within: (entry: Entry) => boolean = () => true): Tally {
  const tally: Tally = { hits: 0, n: 0, undetermined: 0, present: false };
  for (const entry of entries) {
    if (!within(entry)) continue;
    if (entry.result.status !== 'success') {
      tally.undetermined++;
      continue;
    }
    const score = scoreOf(entry.result, metric);
    if (!score) continue;
    tally.present = true;
    if (score.value === null) tally.undetermined++;
    else {
      tally.n++;
      if (score.value === 1) tally.hits++;
      if (score.label === NEITHER_VERDICT) tally.unmatched = (tally.unmatched ?? 0) + 1;
    }
  }
  return tally;
}

function proportionCell(tally: Tally): ReportCell {
  const cell = wilsonCell(tally.hits, tally.n, tally.undetermined);
  return tally.unmatched ? { ...cell, unmatched: tally.unmatched } : cell;
}

/**
 * CR-style rates: among cases flagged by `flag`, the share that `good` accepts; 0 when nothing was flagged, as the
 * reference returns (`correct_tt / fact_tt if fact_tt > 0 else 0`).
 */
function conditionalTally(entries: readonly Entry[], flag: string, good: (result: ReportResult) => boolean): Tally {
  const flagged = entries.filter((e) => e.result.status === 'success' && scoreOf(e.result, flag)?.value === 1);
  const flagTally = tallyMetric(entries, flag);
  return { hits: flagged.filter((e) => good(e.result)).length, n: flagged.length, undetermined: flagTally.undetermined, present: flagTally.present };
}

/** Nothing flagged: no rate to show ("—"); the metric a threshold reads stays 0, as the reference returns. */
function conditionalCell(tally: Tally): ReportCell {
  if (tally.n === 0) return { value: null, n: 0, undetermined: tally.undetermined };
  return proportionCell(tally);
}

function labelsOf(result: ReportResult): number[] {
  const details = scoreOf(result, 'correct')?.details as { labels?: number[] } | undefined;
  return details?.labels ?? [];
}

function isCorrect(result: ReportResult): boolean {
  return scoreOf(result, 'correct')?.value === 1;
}

// ——— grouping ———



const forModel = entriesForModel;
const atRate = (rate: number) => (e: Entry) => rgbCaseParams(e.evalCase).noiseRate === rate;
const withDocuments = (e: Entry) => !rgbCaseParams(e.evalCase).noDocuments;
const withoutDocuments = (e: Entry) => rgbCaseParams(e.evalCase).noDocuments;

// ——— notes ———

function modeNote(params: RgbParams): string {
  const base = params.strict
    ? 'Strict mode: rejection and factual-error markers matched in any case, and Rej counts rejections only. Not comparable with the paper\'s numbers.'
    : 'Reference mode (RGB evalue.py): markers matched case-sensitively ("Insufficient information" is no rejection) and Rej counts correct answers as rejections (RGB issue #9). Set strict: true for the fixed rules.';
  return params.language === 'zh' ? `${base} Spaces were removed from responses before matching (zh).` : base;
}

function format(rate: number): string {
  return String(Math.round(rate * 1000) / 1000);
}

/** One note per requested ratio whose cases ran at other effective ratios (rows short of positives or negatives). */
function effectiveRateNotes(cases: ReadonlyMap<string, ReportCase>, suiteId: string, params: RgbParams): string[] {
  const notes: string[] = [];
  const suiteCases = [...cases.values()].filter((c) => c.suiteId === suiteId && !rgbCaseParams(c).noDocuments);
  for (const rate of params.noiseRates) {
    const atThisRate = suiteCases.filter((c) => rgbCaseParams(c).noiseRate === rate);
    const differing = new Map<string, number>();
    for (const evalCase of atThisRate) {
      const effective = rgbCaseParams(evalCase).effectiveNoiseRate;
      if (effective === rate) continue;
      const key = effective === null ? 'no documents' : format(effective);
      differing.set(key, (differing.get(key) ?? 0) + 1);
    }
    if (differing.size === 0) continue;
    const total = [...differing.values()].reduce((a, b) => a + b, 0);
    const detail = [...differing.entries()].map(([key, count]) => `${count} at ${key}`).join(', ');
    notes.push(`Noise ratio ${format(rate)}: ${total} of ${atThisRate.length} cases ran at another effective ratio (${detail}) because their rows had too few positive or negative passages.`);
  }
  return notes;
}

function judgeNote(tally: Tally[], name: string): string | undefined {
  if (tally.some((t) => t.present)) return undefined;
  return `${name} need${name.includes(' and ') ? '' : 's'} a judge model: set judge in the eval file (cells left empty).`;
}

// ——— tables per testbed ———

interface Built {
  tables: ReportTable[];
  metrics: ReportMetric[];
  notes: string[];
}

function metric(suiteId: string, modelKey: string, name: string, tally: Tally, conditional = false): ReportMetric {
  const value = tally.n === 0 ? (conditional && tally.present ? 0 : null) : tally.hits / tally.n;
  return { suiteId, modelKey, name, value, n: tally.n };
}

/** Tables 1 and 5: accuracy by noise ratio, rows = ratios, one column per model. */
function accuracyByRatio(entries: Entry[], models: string[], params: RgbParams, suiteId: string, title: string, id: string): Built {
  const rows = params.noiseRates.map((rate) => ({
    label: format(rate),
    cells: models.map((model) => proportionCell(tallyMetric(forModel(entries, model), 'correct', atRate(rate)))),
  }));
  const metrics = models.flatMap((model) => {
    const mine = forModel(entries, model);
    return [
      metric(suiteId, model, 'accuracy', tallyMetric(mine, 'correct')),
      ...params.noiseRates.map((rate) => metric(suiteId, model, `accuracy@${format(rate)}`, tallyMetric(mine, 'correct', atRate(rate)))),
    ];
  });
  return { tables: [{ id, title, columns: models, rows }], metrics, notes: [] };
}

/** Table 3: Rej beside Rej*. */
function rejectionTable(entries: Entry[], models: string[], suiteId: string): Built {
  const rej = models.map((model) => tallyMetric(forModel(entries, model), 'rejected'));
  const rejStar = models.map((model) => tallyMetric(forModel(entries, model), 'rej_star'));
  const table: ReportTable = {
    id: 'rgb-rejection',
    title: 'Negative rejection: rejection rate, exact match (Rej) and judge (Rej*) (RGB Table 3)',
    columns: models,
    rows: [
      { label: 'Rej', cells: rej.map(proportionCell) },
      { label: 'Rej*', cells: rejStar.map(proportionCell) },
    ],
    notes: ['Rej* cells keep judge errors apart as undetermined; they are never counted as 0.'],
  };
  const metrics = models.flatMap((model, i) => {
    const star = rejStar[i] as Tally;
    const list = [metric(suiteId, model, 'rej', rej[i] as Tally)];
    // No judge configured: no rej_star metric, so a threshold on it fails loudly instead of reading an empty number.
    if (star.present) list.push(metric(suiteId, model, 'rej_star', star));
    return list;
  });
  return { tables: [table], metrics, notes: [judgeNote(rejStar, 'Rej*')].filter((n): n is string => n !== undefined) };
}

function noLabelZero(result: ReportResult): boolean {
  return !labelsOf(result).includes(0);
}

/** Table 7: Acc (no documents), Acc_doc, ED, ED*, CR, CR*. */
function counterfactualTables(entries: Entry[], models: string[], params: RgbParams, suiteId: string): Built {
  const withDocs = entries.filter(withDocuments);
  const perModel = models.map((model) => {
    const mine = forModel(withDocs, model);
    return {
      acc: tallyMetric(forModel(entries, model), 'correct', withoutDocuments),
      accDoc: tallyMetric(mine, 'correct'),
      ed: tallyMetric(mine, 'factual_error_detected'),
      edStar: tallyMetric(mine, 'ed_star'),
      cr: conditionalTally(mine, 'factual_error_detected', noLabelZero),
      crStar: conditionalTally(mine, 'ed_star', isCorrect),
    };
  });
  const tables: ReportTable[] = [];
  const ratios = params.noiseRates.length > 1 ? params.noiseRates : [undefined];
  for (const rate of ratios) {
    const scoped = rate === undefined ? withDocs : withDocs.filter(atRate(rate));
    const cells = models.map((model, i) => {
      const mine = forModel(scoped, model);
      return {
        acc: proportionCell((perModel[i] as (typeof perModel)[number]).acc),
        accDoc: proportionCell(tallyMetric(mine, 'correct')),
        ed: proportionCell(tallyMetric(mine, 'factual_error_detected')),
        edStar: proportionCell(tallyMetric(mine, 'ed_star')),
        cr: conditionalCell(conditionalTally(mine, 'factual_error_detected', noLabelZero)),
        crStar: conditionalCell(conditionalTally(mine, 'ed_star', isCorrect)),
      };
    });
    tables.push({
      id: rate === undefined ? 'rgb-counterfactual' : `rgb-counterfactual@${format(rate)}`,
      title: `Counterfactual robustness (RGB Table 7)${rate === undefined ? '' : `, noise ratio ${format(rate)}`}`,
      columns: models,
      rows: [
        { label: 'Acc', cells: cells.map((c) => c.acc) },
        { label: 'Acc_doc', cells: cells.map((c) => c.accDoc) },
        { label: 'ED', cells: cells.map((c) => c.ed) },
        { label: 'ED*', cells: cells.map((c) => c.edStar) },
        { label: 'CR', cells: cells.map((c) => c.cr) },
        { label: 'CR*', cells: cells.map((c) => c.crStar) },
      ],
      notes: [
        'Acc: the question with no documents; Acc_doc: with the counterfactual passages; ED/ED*: error detected by marker / judge; CR: detected and no answer part missing, over detected (— when none was detected; the cr metric is then 0, as the reference returns).',
      ],
    });
  }
  const metrics = models.flatMap((model, i) => {
    const m = perModel[i] as (typeof perModel)[number];
    const list = [
      metric(suiteId, model, 'accuracy', m.accDoc),
      metric(suiteId, model, 'acc_doc', m.accDoc),
      metric(suiteId, model, 'ed', m.ed),
      metric(suiteId, model, 'cr', m.cr, true),
    ];
    if (params.withoutDocuments) list.push(metric(suiteId, model, 'acc_nodoc', m.acc));
    if (m.edStar.present) list.push(metric(suiteId, model, 'ed_star', m.edStar), metric(suiteId, model, 'cr_star', m.crStar, true));
    return list;
  });
  const notes = [judgeNote(perModel.map((m) => m.edStar), 'ED* and CR*')].filter((n): n is string => n !== undefined);
  if (!params.withoutDocuments) notes.push('Acc (no documents) was not run: set withoutDocuments: true to ask each question without documents too.');
  return { tables, metrics, notes };
}

/** Share of each failure label among the labelled failures, when the failure-label pass ran. */
function failureLabelTable(entries: Entry[], models: string[], params: RgbParams): ReportTable | undefined {
  const labelled = entries.filter((e) => e.result.status === 'success' && scoreOf(e.result, 'failure_label'));
  if (labelled.length === 0) return undefined;
  const labels = failureLabelsFor(params.testbed);
  const rows = labels.map((label) => ({
    label,
    cells: models.map((model) => {
      const scores = forModel(labelled, model).map((e) => scoreOf(e.result, 'failure_label') as ReportScore);
      const determined = scores.filter((s) => s.judgeError === undefined);
      const interval = wilson(determined.filter((s) => s.label === label).length, determined.length);
      return { value: interval.value, low: interval.low, high: interval.high, n: determined.length, undetermined: scores.length - determined.length };
    }),
  }));
  return {
    id: 'rgb-failure-labels',
    title: 'Failure kinds among wrong answers (judge-assigned, the paper\'s error taxonomy)',
    columns: models,
    rows,
    notes: ['Labels come from a judge model and explain failures; they are not part of the paper\'s metrics.'],
  };
}

function buildForTestbed(entries: Entry[], models: string[], params: RgbParams, suiteId: string): Built {
  switch (params.testbed) {
    case 'noise_robustness':
      return accuracyByRatio(entries, models, params, suiteId, 'Noise robustness: accuracy by noise ratio (RGB Table 1)', 'rgb-noise-accuracy');
    case 'information_integration':
      return accuracyByRatio(entries, models, params, suiteId, 'Information integration: accuracy by noise ratio (RGB Table 5)', 'rgb-integration-accuracy');
    case 'negative_rejection':
      return rejectionTable(entries, models, suiteId);
    case 'counterfactual_robustness':
      return counterfactualTables(entries, models, params, suiteId);
  }
}

/** Suite.report for RGB. */
export function rgbReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: RgbParams, suiteId: string): SuiteReport {
  const { entries, orphans } = joinEntries(cases, results);
  const models = modelsOf(entries);
  const built = buildForTestbed(entries, models, params, suiteId);
  const labels = failureLabelTable(entries, models, params);
  const notes = [modeNote(params), ...effectiveRateNotes(cases, suiteId, params), ...built.notes];
  if (params.judge.failureLabels && !labels) notes.push('No failure labels: they need a judge model (set judge in the eval file) and at least one wrong answer.');
  const errors = entries.filter((e) => e.result.status !== 'success').length;
  if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined, not as wrong.`);
  if (orphans > 0) notes.push(`${orphans} result(s) had no matching case and were left out.`);
  return { suiteId, method: RGB_METHOD, tables: labels ? [...built.tables, labels] : built.tables, metrics: built.metrics, notes };
}
