// Heatmaps from a report's chart specs: cells with their colour on the spec's scale, grouped by grid, linked to their cases.
import type { CaseListItem } from '../../src/protocol.js';
import type { HeatmapChartSpec, ReportCell, SuiteReport } from '../../src/core/suites/contract.js';

export interface HeatCell {
  row: number;
  col: number;
  rowLabel: string;
  colLabel: string;
  /** The mean; null when no result could be scored (the cell is drawn hatched). */
  value: number | null;
  n: number;
  undetermined: number;
  low?: number;
  high?: number;
  /** `#rrggbb` on the spec's scale; undefined for a cell without data. */
  fill: string | undefined;
  /** List keys of the cases behind the cell (empty when they cannot be found). */
  keys: string[];
}

export interface HeatmapModel {
  /** Unique within the summary: `${suiteId}\u0000${tableId}`. */
  id: string;
  spec: HeatmapChartSpec;
  suiteId: string;
  /** The model the table is about, when its id names one of the run's models. */
  modelKey: string | undefined;
  rows: string[];
  columns: string[];
  cells: HeatCell[][];
  /** Cells with no scored result, and results left out of every mean (judge or model errors). */
  noData: number;
  undetermined: number;
}

/** Heatmaps drawn on the same axes (same rows and columns), e.g. one per prompt template, to show side by side. */
export interface HeatmapGroup {
  rows: string[];
  columns: string[];
  maps: HeatmapModel[];
}

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

function parseHex(colour: string): [number, number, number] | undefined {
  const match = HEX.exec(colour.trim());
  if (!match) return undefined;
  const digits = match[1]!.length === 3 ? [...match[1]!].map((d) => d + d).join('') : match[1]!;
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

function toHex(channels: readonly number[]): string {
  return `#${channels.map((c) => Math.round(Math.max(0, Math.min(255, c))).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The colour of `value` on evenly spaced stops from `min` to `max`, interpolated channel by channel in sRGB as
 * matplotlib's LinearSegmentedColormap (the reference's) does; values outside the range take the end colours.
 */
export function colourAt(value: number, min: number, max: number, stops: readonly string[]): string {
  const parsed = stops.map(parseHex).filter((c): c is [number, number, number] => c !== undefined);
  if (parsed.length === 0) return '#808080';
  if (parsed.length === 1 || !(max > min)) return toHex(parsed[0]!);
  const t = Math.max(0, Math.min(1, (value - min) / (max - min))) * (parsed.length - 1);
  const i = Math.min(parsed.length - 2, Math.floor(t));
  const f = t - i;
  const [a, b] = [parsed[i]!, parsed[i + 1]!];
  return toHex(a.map((c, k) => c + (b[k]! - c) * f));
}

/** Needle case ids end in `/L=<length>/d=<depth>` (src/core/suites/needle/cases.ts); that is how a cell finds its cases. */
const CELL_ID = /\/L=([^/]+)\/d=([^/]+)$/;

/** Cases by (suite, model, row label, column label), for the cells of needle-style heatmaps. */
export function indexCellCases(items: readonly CaseListItem[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const item of items) {
    const match = CELL_ID.exec(item.caseId);
    if (!match) continue;
    const key = cellKey(item.suiteId, item.modelKey, match[2]!, match[1]!);
    const list = index.get(key);
    if (list) list.push(item.key);
    else index.set(key, [item.key]);
  }
  return index;
}

function cellKey(suiteId: string, modelKey: string, row: string, col: string): string {
  return [suiteId, modelKey, row, col].join('\u0000');
}

/** The run model a table id names (`needle-heatmap:openai:gpt-4o:judge` → `openai:gpt-4o`), the longest that fits. */
export function modelOfTable(tableId: string, models: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const model of models) {
    const at = tableId.indexOf(model);
    if (at < 0) continue;
    const before = tableId[at - 1];
    const after = tableId[at + model.length];
    const bounded = (before === undefined || before === ':') && (after === undefined || after === ':');
    if (bounded && (!best || model.length > best.length)) best = model;
  }
  return best;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function toCell(cell: ReportCell | undefined, row: number, col: number, rowLabel: string, colLabel: string, spec: HeatmapChartSpec, keys: string[]): HeatCell {
  const value = cell && typeof cell.value === 'number' && Number.isFinite(cell.value) ? cell.value : null;
  const out: HeatCell = {
    row, col, rowLabel, colLabel, value,
    n: numberOr(cell?.n, value === null ? 0 : 1),
    undetermined: numberOr(cell?.undetermined, 0),
    fill: value === null ? undefined : colourAt(value, spec.min, spec.max, spec.colors),
    keys,
  };
  if (typeof cell?.low === 'number' && typeof cell.high === 'number') { out.low = cell.low; out.high = cell.high; }
  return out;
}

/** Every heatmap the reports ask for, in report order; a spec whose table is missing is skipped. */
export function heatmapsOf(reports: readonly SuiteReport[], items: readonly CaseListItem[], runModels: readonly string[] = []): HeatmapModel[] {
  const charts = reports.flatMap((report) => (report.charts ?? []).filter((c): c is HeatmapChartSpec => c.kind === 'heatmap').map((spec) => ({ report, spec })));
  if (charts.length === 0) return [];
  const index = indexCellCases(items);
  const models = new Set([...runModels, ...items.map((i) => i.modelKey)]);
  return charts.flatMap(({ report, spec }) => {
    const table = report.tables.find((t) => t.id === spec.tableId);
    if (!table) return [];
    const modelKey = modelOfTable(table.id, models);
    const rows = table.rows.map((r) => r.label);
    const columns = [...table.columns];
    let noData = 0;
    let undetermined = 0;
    const cells = table.rows.map((r, i) => columns.map((c, j) => {
      const keys = modelKey ? index.get(cellKey(report.suiteId, modelKey, r.label, c)) ?? [] : [];
      const cell = toCell(r.cells[j], i, j, r.label, c, spec, keys);
      if (cell.value === null) noData++;
      undetermined += cell.undetermined;
      return cell;
    }));
    return [{ id: `${report.suiteId}\u0000${table.id}`, spec, suiteId: report.suiteId, modelKey, rows, columns, cells, noData, undetermined }];
  });
}

/**
 * Heatmaps on identical axes share a group (drawn side by side), in order of first appearance; within a group
 * each model's heatmaps are kept together, so one model's templates line up next to each other.
 */
export function groupHeatmaps(maps: readonly HeatmapModel[]): HeatmapGroup[] {
  const groups = new Map<string, HeatmapGroup>();
  for (const map of maps) {
    const key = JSON.stringify([map.rows, map.columns, map.spec.xTitle, map.spec.yTitle]);
    const group = groups.get(key);
    if (group) group.maps.push(map);
    else groups.set(key, { rows: map.rows, columns: map.columns, maps: [map] });
  }
  for (const group of groups.values()) {
    const order = [...new Set(group.maps.map((m) => m.modelKey ?? ''))];
    // Array.prototype.sort is stable: suites keep their report order within a model.
    group.maps.sort((a, b) => order.indexOf(a.modelKey ?? '') - order.indexOf(b.modelKey ?? ''));
  }
  return [...groups.values()];
}

/** Table ids some chart draws, so the summary can fold those tables away under their chart. */
export function chartedTableIds(report: SuiteReport): Set<string> {
  return new Set((report.charts ?? []).map((c) => c.tableId));
}

/** Every `step`-th label index, always the first and the last, so dense axes stay legible. */
export function labelIndexes(count: number, room: number): number[] {
  if (count <= 0) return [];
  const step = Math.max(1, Math.ceil(count / Math.max(1, room)));
  const indexes: number[] = [];
  for (let i = 0; i < count; i += step) indexes.push(i);
  if (indexes[indexes.length - 1] !== count - 1) {
    // Replace a last label that would crowd the final one.
    if (count - 1 - indexes[indexes.length - 1]! < step / 2 && indexes.length > 1) indexes.pop();
    indexes.push(count - 1);
  }
  return indexes;
}
