// A sweep's result in words and numbers: the table the CLI prints (a row per cell, each measure with its interval and
// n, the best and current cells marked), the best cell's verdict against the current setting, and the CSV rows.
import { formatCellNumber } from '../../numberFormat.js';
import type { ReportCell } from '../../reportTable.js';
import { SWEEP_METRIC_WORDS, SWEEP_METRICS } from '../../retrieval/indexSpec.js';
import type { SweepCellResult, SweepResult } from './runSweep.js';
import { SWEEP_AXES } from './grid.js';
import type { SweepAxis } from './grid.js';

/** The axes a result's cells carry a value for (swept, or fixed by the current setting), in the grid's order. */
export function settingColumns(result: Pick<SweepResult, 'cells'>): SweepAxis[] {
  return SWEEP_AXES.filter((axis) => result.cells.some((cell) => cell.settings[axis] !== undefined));
}

function interval(cell: ReportCell): string {
  if (typeof cell.value !== 'number') return '—';
  const bounds = typeof cell.low === 'number' && typeof cell.high === 'number' ? ` [${formatCellNumber(cell.low)}, ${formatCellNumber(cell.high)}]` : '';
  return `${formatCellNumber(cell.value)}${bounds}`;
}

const mark = (cell: SweepCellResult) => `${cell.best ? '★' : ' '}${cell.current ? '•' : ' '}`;

/** The table as aligned text lines: settings, each measure with its 95% interval, n, errors. */
export function sweepTable(result: SweepResult): string[] {
  const axes = settingColumns(result);
  const header = ['', ...axes, ...SWEEP_METRICS.map((m) => SWEEP_METRIC_WORDS[m]), 'n', 'errors'];
  const rows = result.cells.map((cell) => [
    mark(cell),
    ...axes.map((axis) => (cell.settings[axis] === undefined ? '' : String(cell.settings[axis]))),
    ...SWEEP_METRICS.map((m) => interval(cell.metrics[m])),
    String(cell.metrics[result.metric].n ?? 0),
    cell.errors > 0 ? String(cell.errors) : '',
  ]);
  const widths = header.map((title, c) => Math.max(title.length, ...rows.map((row) => (row[c] as string).length)));
  const line = (cells: string[]) => cells.map((text, c) => text.padEnd(widths[c] as number)).join('  ').trimEnd();
  return [line(header), ...rows.map(line), `★ best by ${SWEEP_METRIC_WORDS[result.metric]}   • current setting   [95% bootstrap interval over questions]`];
}

/** The best cell against the current setting, in one sentence. */
export function bestLine(result: SweepResult): string {
  const best = result.cells.find((cell) => cell.best);
  const current = result.cells.find((cell) => cell.current);
  const words = SWEEP_METRIC_WORDS[result.metric];
  if (!best || !current) return `No cell could be measured by ${words}.`;
  const value = (cell: SweepCellResult) => formatCellNumber(cell.metrics[result.metric].value as number);
  if (best === current) return `Best by ${words}: the current setting (${best.key}), ${value(best)}.`;
  const verdict = result.best?.vsCurrent;
  if (!verdict) return `Best by ${words}: ${best.key}, ${value(best)}; the current setting (${current.key}) has no question measured in both.`;
  const sign = verdict.difference >= 0 ? '+' : '−';
  const test = verdict.test === 'mcnemar-exact' ? `exact McNemar p = ${formatCellNumber(verdict.p as number)}` : 'paired bootstrap';
  const reading = verdict.significant ? 'a real difference at 95%' : 'not distinguishable from the current setting at 95%: more questions would tell';
  return `Best by ${words}: ${best.key}, ${value(best)} against ${value(current)} for the current setting (${current.key}): ${sign}${formatCellNumber(Math.abs(verdict.difference))} [${formatCellNumber(verdict.low)}, ${formatCellNumber(verdict.high)}] over ${verdict.n} paired questions (${test}) — ${reading}.`;
}

/** sweep.csv's rows: a header, then a cell per row (settings, each measure's value, low, high; n, errors, marks). */
export function sweepCsvRows(result: SweepResult): (string | number)[][] {
  const axes = settingColumns(result);
  const header = ['cell', ...axes, ...SWEEP_METRICS.flatMap((m) => [m, `${m}_low`, `${m}_high`]), 'n', 'errors', 'best', 'current'];
  const number = (value: number | string | null | undefined) => (typeof value === 'number' ? value : '');
  return [header, ...result.cells.map((cell) => [
    cell.key,
    ...axes.map((axis) => (cell.settings[axis] === undefined ? '' : String(cell.settings[axis]))),
    ...SWEEP_METRICS.flatMap((m) => [number(cell.metrics[m].value), number(cell.metrics[m].low), number(cell.metrics[m].high)]),
    cell.metrics[result.metric].n ?? 0,
    cell.errors,
    cell.best ? 'yes' : '',
    cell.current ? 'yes' : '',
  ])];
}
