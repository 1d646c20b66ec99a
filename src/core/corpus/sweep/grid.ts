// The cells of a sweep: every combination of the values `sweep:` lists (chunk size × overlap × embeddings × hybrid
// weight × reranker × top-k), grouped by the work they share — one index per (chunking, embeddings), one retrieval per
// query-time setting at its largest k, which serves every smaller k (its prefix) — and the cell of the current setting.
import type { ModelSpec } from '../../providers/contract.js';
import type { SweepCellRef, SweepSpec } from '../../retrieval/indexSpec.js';

/** The settings a sweep can vary, in the grid's order (k innermost: the cheapest to change). */
export const SWEEP_AXES = ['chunkSize', 'overlap', 'embeddings', 'hybridWeight', 'rerank', 'k'] as const;
export type SweepAxis = (typeof SWEEP_AXES)[number];

/** Settings the index is built with: a cell differing only in the others reuses the same index. */
const INDEX_AXES: readonly SweepAxis[] = ['chunkSize', 'overlap', 'embeddings'];

/** One cell's settings; an axis neither swept nor known from the current setting is absent. Embeddings by name. */
export interface SweepSettings {
  chunkSize?: number;
  overlap?: number;
  embeddings?: string;
  hybridWeight?: number;
  rerank?: boolean;
  k: number;
}

export type QuerySettings = Omit<SweepSettings, 'k'>;

export interface SweepCell {
  /** Unique in the grid, readable: "chunkSize=256 overlap=32 k=5". */
  key: string;
  settings: SweepSettings;
  /** The query-time setting whose one retrieval serves this cell (QuerySetting.key). */
  queryKey: string;
  /** The current setting (the index's own values, or the retriever's params and the suite's k). */
  current: boolean;
}

/** A retrieval the sweep makes once per question: every cell that shares it reads a prefix of its ranking. */
export interface QuerySetting {
  key: string;
  settings: QuerySettings;
  /** The index these settings are searched in (chunking and embeddings): built once for every query setting on it. */
  indexKey: string;
  /** The embedding model's full spec, when the setting names one. */
  embeddings?: ModelSpec;
  /** The largest k of its cells: what each question is asked with. */
  maxK: number;
  cells: SweepCell[];
}

/** The current setting, as far as it is known: the index's values (or the retriever's params) and the suite's k. */
export interface SweepBase {
  chunkSize?: number;
  overlap?: number;
  embeddings?: ModelSpec;
  hybridWeight?: number;
  rerank?: boolean;
  k: number;
}

export interface SweepGrid {
  /** The axes the sweep varies, with their values in the order listed (repeats dropped). */
  axes: { axis: SweepAxis; values: (number | boolean | string)[] }[];
  cells: SweepCell[];
  settings: QuerySetting[];
  current: SweepCell;
  /** What the grid left out or assumed, in words. */
  notes: string[];
}

/** An embedding model as a cell names it: its label, else provider:model. */
export function embeddingsName(spec: ModelSpec): string {
  return spec.label ?? `${spec.provider}:${spec.model}`;
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

function cellKey(settings: Partial<SweepSettings>, axes: readonly SweepAxis[]): string {
  return axes.filter((axis) => settings[axis] !== undefined).map((axis) => `${axis}=${String(settings[axis])}`).join(' ') || 'current';
}

/** Every cell of `sweep` over `base`, grouped by shared work; the current setting added when the grid lacks it. */
export function expandGrid(sweep: SweepSpec, base: SweepBase): SweepGrid {
  const notes: string[] = [];
  const models = new Map<string, ModelSpec>();
  for (const spec of [...(base.embeddings ? [base.embeddings] : []), ...(sweep.embeddings ?? [])]) models.set(embeddingsName(spec), spec);
  const listed: Partial<Record<SweepAxis, (number | boolean | string)[]>> = {
    ...(sweep.chunkSize ? { chunkSize: unique(sweep.chunkSize) } : {}),
    ...(sweep.overlap ? { overlap: unique(sweep.overlap) } : {}),
    ...(sweep.embeddings ? { embeddings: unique(sweep.embeddings.map(embeddingsName)) } : {}),
    ...(sweep.hybridWeight ? { hybridWeight: unique(sweep.hybridWeight) } : {}),
    ...(sweep.rerank ? { rerank: unique(sweep.rerank) } : {}),
    ...(sweep.k ? { k: unique(sweep.k) } : {}),
  };
  const baseValue = (axis: SweepAxis): number | boolean | string | undefined => (axis === 'embeddings' ? (base.embeddings ? embeddingsName(base.embeddings) : undefined) : base[axis]);
  const axes = SWEEP_AXES.filter((axis) => listed[axis] !== undefined).map((axis) => ({ axis, values: listed[axis] as (number | boolean | string)[] }));

  // The current setting: the base's value on each axis; an axis the base does not know takes its first listed value.
  const currentSettings: Partial<SweepSettings> = {};
  for (const axis of SWEEP_AXES) {
    const known = baseValue(axis);
    const value = known ?? listed[axis]?.[0];
    if (value === undefined) continue;
    if (known === undefined) notes.push(`The current setting has no ${axis} of its own: the first value listed (${String(value)}) stands for it.`);
    (currentSettings as Record<string, unknown>)[axis] = value;
  }

  // Every combination, k innermost; an axis not swept keeps the current value.
  let combos: Partial<SweepSettings>[] = [{}];
  for (const axis of SWEEP_AXES) {
    const values = listed[axis] ?? (currentSettings[axis] === undefined ? [undefined] : [currentSettings[axis]]);
    combos = combos.flatMap((combo) => values.map((value) => (value === undefined ? combo : { ...combo, [axis]: value })));
  }
  const invalid = (s: Partial<SweepSettings>) => s.chunkSize !== undefined && s.overlap !== undefined && s.overlap >= s.chunkSize;
  const left = combos.filter(invalid);
  if (left.length > 0) notes.push(`${left.length} cell${left.length === 1 ? '' : 's'} left out where the overlap is not below the chunk size (${unique(left.map((s) => `chunkSize ${s.chunkSize} × overlap ${s.overlap}`)).join(', ')}).`);
  const valid = combos.filter((s) => !invalid(s)) as SweepSettings[];

  const shownAxes = SWEEP_AXES.filter((axis) => listed[axis] !== undefined);
  const sameAs = (a: Partial<SweepSettings>, b: Partial<SweepSettings>) => SWEEP_AXES.every((axis) => a[axis] === b[axis]);
  const cells: SweepCell[] = valid.map((settings) => ({ key: cellKey(settings, shownAxes), settings, queryKey: '', current: sameAs(settings, currentSettings) }));
  let current = cells.find((cell) => cell.current);
  if (!current) {
    // The current setting is not among the listed values: it is retrieved too, so the best cell has a baseline.
    current = { key: `current (${cellKey(currentSettings, SWEEP_AXES)})`, settings: currentSettings as SweepSettings, queryKey: '', current: true };
    cells.push(current);
    if (invalid(currentSettings)) notes.push('The current setting\'s overlap is not below its chunk size.');
  }

  const settings = new Map<string, QuerySetting>();
  for (const cell of cells) {
    const { k, ...query } = cell.settings;
    const key = cellKey(query, SWEEP_AXES);
    cell.queryKey = key;
    let setting = settings.get(key);
    if (!setting) {
      const model = query.embeddings === undefined ? undefined : models.get(query.embeddings);
      setting = { key, settings: query, indexKey: cellKey(query, INDEX_AXES), ...(model ? { embeddings: model } : {}), maxK: k, cells: [] };
      settings.set(key, setting);
    }
    setting.maxK = Math.max(setting.maxK, k);
    setting.cells.push(cell);
  }
  return { axes, cells, settings: [...settings.values()], current, notes };
}

/** Whether `cell` is the one `ref` names: every setting the reference gives is the cell's. */
export function cellMatches(cell: SweepCell, ref: SweepCellRef): boolean {
  return Object.entries(ref).every(([axis, value]) => value === undefined || cell.settings[axis as SweepAxis] === value);
}
