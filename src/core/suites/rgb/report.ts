// Aggregates RGB results into the paper's tables (1, 3, 5, 7), one column per model, Wilson intervals throughout.
// Built case by case (createRgbAggregator): what it keeps is counts per (model, scope, metric), never the cases.
import { wilson } from '../../stats.js';
import type { ReportCell, ReportMetric, ReportTable, SuiteAggregator, SuiteReport } from '../contract.js';
import type { ReportCase, ReportResult } from '../reportView.js';
import { joined, modelColumns, orphansNote, reportThrough } from '../aggregator.js';
import { RGB_METHOD, rgbCaseParams } from './cases.js';
import { failureLabelsFor } from './judge.js';
import type { RgbParams } from './params.js';
import { wilsonCell } from '../reportCells.js';
import { TallyBook, scoreOf } from './tallies.js';
import type { Tally } from './tallies.js';

function proportionCell(tally: Tally): ReportCell {
  const cell = wilsonCell(tally.hits, tally.n, tally.undetermined);
  return tally.unmatched ? { ...cell, unmatched: tally.unmatched } : cell;
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

function noLabelZero(result: ReportResult): boolean {
  return !labelsOf(result).includes(0);
}

// ——— scopes: the subsets of a model's results a table reads ———

const METRICS = ['correct', 'rejected', 'rej_star', 'factual_error_detected', 'ed_star'] as const;
/** CR: error detected and no answer part missing; CR*: detected by the judge and correct. */
const CONDITIONALS = [{ flag: 'factual_error_detected', good: noLabelZero }, { flag: 'ed_star', good: isCorrect }];

const ALL = 'all';
const atRate = (rate: number | null | undefined) => `rate=${String(rate)}`;
const DOCS = 'documents';
const NO_DOCS = 'no documents';
const docsAtRate = (rate: number | null | undefined) => `documents@${String(rate)}`;

/** Every scope a case's results count in: all of them, its noise ratio, with or without documents (and ratio). */
function scopesOf(evalCase: ReportCase): string[] {
  const { noiseRate, noDocuments } = rgbCaseParams(evalCase);
  return noDocuments ? [ALL, atRate(noiseRate), NO_DOCS] : [ALL, atRate(noiseRate), DOCS, docsAtRate(noiseRate)];
}

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

/**
 * Per requested ratio, how many of the suite's cases ran at it and at which other effective ratios (rows short of
 * positives or negatives), counted case by case; each case once, whatever number of models ran it.
 */
class EffectiveRates {
  private readonly byRate: { rate: number; cases: number; differing: Map<string, number> }[];

  constructor(private readonly suiteId: string, params: RgbParams) {
    this.byRate = params.noiseRates.map((rate) => ({ rate, cases: 0, differing: new Map() }));
  }

  addCase(evalCase: ReportCase): void {
    const { noDocuments, noiseRate, effectiveNoiseRate } = rgbCaseParams(evalCase);
    if (evalCase.suiteId !== this.suiteId || noDocuments) return;
    for (const at of this.byRate) {
      if (noiseRate !== at.rate) continue;
      at.cases++;
      if (effectiveNoiseRate === at.rate) continue;
      const key = effectiveNoiseRate === null ? 'no documents' : format(effectiveNoiseRate);
      at.differing.set(key, (at.differing.get(key) ?? 0) + 1);
    }
  }

  notes(): string[] {
    return this.byRate.filter((at) => at.differing.size > 0).map(({ rate, cases, differing }) => {
      const total = [...differing.values()].reduce((a, b) => a + b, 0);
      const detail = [...differing.entries()].map(([key, count]) => `${count} at ${key}`).join(', ');
      return `Noise ratio ${format(rate)}: ${total} of ${cases} cases ran at another effective ratio (${detail}) because their rows had too few positive or negative passages.`;
    });
  }
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
function accuracyByRatio(book: TallyBook, models: string[], params: RgbParams, suiteId: string, title: string, id: string): Built {
  const rows = params.noiseRates.map((rate) => ({
    label: format(rate),
    cells: models.map((model) => proportionCell(book.tally(model, atRate(rate), 'correct'))),
  }));
  const metrics = models.flatMap((model) => [
    metric(suiteId, model, 'accuracy', book.tally(model, ALL, 'correct')),
    ...params.noiseRates.map((rate) => metric(suiteId, model, `accuracy@${format(rate)}`, book.tally(model, atRate(rate), 'correct'))),
  ]);
  return { tables: [{ id, title, columns: models, rows }], metrics, notes: [] };
}

/** Table 3: Rej beside Rej*. */
function rejectionTable(book: TallyBook, models: string[], suiteId: string): Built {
  const rej = models.map((model) => book.tally(model, ALL, 'rejected'));
  const rejStar = models.map((model) => book.tally(model, ALL, 'rej_star'));
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

/** Table 7: Acc (no documents), Acc_doc, ED, ED*, CR, CR*. */
function counterfactualTables(book: TallyBook, models: string[], params: RgbParams, suiteId: string): Built {
  const perModel = models.map((model) => ({
    acc: book.tally(model, NO_DOCS, 'correct'),
    accDoc: book.tally(model, DOCS, 'correct'),
    ed: book.tally(model, DOCS, 'factual_error_detected'),
    edStar: book.tally(model, DOCS, 'ed_star'),
    cr: book.conditional(model, DOCS, 'factual_error_detected'),
    crStar: book.conditional(model, DOCS, 'ed_star'),
  }));
  const tables: ReportTable[] = [];
  const ratios = params.noiseRates.length > 1 ? params.noiseRates : [undefined];
  for (const rate of ratios) {
    const scope = rate === undefined ? DOCS : docsAtRate(rate);
    const cells = models.map((model, i) => ({
      acc: proportionCell((perModel[i] as (typeof perModel)[number]).acc),
      accDoc: proportionCell(book.tally(model, scope, 'correct')),
      ed: proportionCell(book.tally(model, scope, 'factual_error_detected')),
      edStar: proportionCell(book.tally(model, scope, 'ed_star')),
      cr: conditionalCell(book.conditional(model, scope, 'factual_error_detected')),
      crStar: conditionalCell(book.conditional(model, scope, 'ed_star')),
    }));
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

/** The judge's failure labels per model: results labelled, of them determined (no judge error), and each label's count. */
class FailureLabels {
  private readonly byModel = new Map<string, { labelled: number; determined: number; labels: Map<string, number> }>();

  add(result: ReportResult): void {
    const score = result.status === 'success' ? scoreOf(result, 'failure_label') : undefined;
    if (!score) return;
    let counts = this.byModel.get(result.modelKey);
    if (!counts) {
      counts = { labelled: 0, determined: 0, labels: new Map() };
      this.byModel.set(result.modelKey, counts);
    }
    counts.labelled++;
    if (score.judgeError !== undefined) return;
    counts.determined++;
    if (score.label !== undefined) counts.labels.set(score.label, (counts.labels.get(score.label) ?? 0) + 1);
  }

  /** Share of each failure label among the labelled failures; undefined when the failure-label pass never ran. */
  table(models: string[], params: RgbParams): ReportTable | undefined {
    if (this.byModel.size === 0) return undefined;
    const rows = failureLabelsFor(params.testbed).map((label) => ({
      label,
      cells: models.map((model) => {
        const counts = this.byModel.get(model) ?? { labelled: 0, determined: 0, labels: new Map<string, number>() };
        const interval = wilson(counts.labels.get(label) ?? 0, counts.determined);
        return { value: interval.value, low: interval.low, high: interval.high, n: counts.determined, undetermined: counts.labelled - counts.determined };
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
}

function buildForTestbed(book: TallyBook, models: string[], params: RgbParams, suiteId: string): Built {
  switch (params.testbed) {
    case 'noise_robustness':
      return accuracyByRatio(book, models, params, suiteId, 'Noise robustness: accuracy by noise ratio (RGB Table 1)', 'rgb-noise-accuracy');
    case 'information_integration':
      return accuracyByRatio(book, models, params, suiteId, 'Information integration: accuracy by noise ratio (RGB Table 5)', 'rgb-integration-accuracy');
    case 'negative_rejection':
      return rejectionTable(book, models, suiteId);
    case 'counterfactual_robustness':
      return counterfactualTables(book, models, params, suiteId);
  }
}

/** Suite.createAggregator for RGB: counts per (model, scope, metric), the failure labels, the effective ratios. */
export function createRgbAggregator(params: RgbParams, suiteId: string): SuiteAggregator {
  const book = new TallyBook(METRICS, CONDITIONALS);
  const labels = new FailureLabels();
  const rates = new EffectiveRates(suiteId, params);
  const models = new Set<string>();
  let errors = 0;
  return joined({
    addCase: (evalCase) => rates.addCase(evalCase),
    add(evalCase, result) {
      models.add(result.modelKey);
      book.add(result.modelKey, scopesOf(evalCase), result);
      labels.add(result);
      if (result.status !== 'success') errors++;
    },
    finish(orphans) {
      const columns = modelColumns(models);
      const built = buildForTestbed(book, columns, params, suiteId);
      const labelTable = labels.table(columns, params);
      const notes = [modeNote(params), ...rates.notes(), ...built.notes];
      if (params.judge.failureLabels && !labelTable) notes.push('No failure labels: they need a judge model (set judge in the eval file) and at least one wrong answer.');
      if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined, not as wrong.`);
      notes.push(...orphansNote(orphans));
      return { suiteId, method: RGB_METHOD, tables: labelTable ? [...built.tables, labelTable] : built.tables, metrics: built.metrics, notes };
    },
  });
}

/** Suite.report for RGB: the aggregator fed from arrays. */
export function rgbReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: RgbParams, suiteId: string): SuiteReport {
  return reportThrough(createRgbAggregator(params, suiteId), cases, results);
}
