// The one place a dataset row gets the key its cases are named by: its `id`, else its 0-based position, made unique
// within the file so that two rows never share cases (a collision would merge them into one in every report).
import { InputError } from '../errors.js';
import type { DatasetRow } from '../model.js';

const UNIQUE_HINT = 'give each row a unique id (or leave the id out everywhere and rows are named by their position)';

/**
 * A row's `id` cell: a string or number, or undefined when the row has none. An empty cell (a CSV column left blank)
 * is no id: the row is named by its position like a row without the column.
 */
export function rowId(row: DatasetRow): string | number | undefined {
  const value = row.data.id;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  throw new InputError({ file: row.ref.file, line: row.ref.line }, `row id: expected a string or number, got ${JSON.stringify(value)}`, UNIQUE_HINT);
}

/**
 * The name a row's cases are built from: the key readDataset assigned (unique in the file), else — a row made by hand
 * rather than read from a file — its id or position. A row whose id cell is malformed throws, as a bad field does.
 */
export function rowKey(row: DatasetRow): string {
  if (row.key !== undefined) return row.key;
  return naturalKey(row);
}

/** The row's id as text, else its 0-based position. */
function naturalKey(row: DatasetRow): string {
  return String(rowId(row) ?? row.ref.index);
}

/** What assigning a row's key found: its key and, when its natural key was taken, one problem at each of the two rows. */
export interface AssignedKey {
  key: string;
  problems: InputError[];
}

/** Integer keys up to this many times the rows read so far are kept in a dense array; others in a map. */
const DENSE_SLACK = 4;
const DENSE_FLOOR = 1 << 16;

/**
 * Assigns each row of one file, in file order, a key no earlier row has: its natural key when free, else that key
 * suffixed by its line (`7@line12`, then `7@line12#2`… in the unlikely case that is taken too). The first row keeps
 * its name, so a row's key depends only on the rows before it: it is the same on every run of an unchanged file, and
 * adding a row at the end renames nothing. Memory is one slot per row: integer keys (the usual ids and every
 * position) live in a typed array of the line that took them, other keys in a map.
 */
export class RowKeys {
  private dense = new Int32Array(1024);
  private readonly named = new Map<string, number>();
  private rows = 0;

  assign(row: DatasetRow): AssignedKey {
    this.rows += 1;
    let id: string | number | undefined;
    try {
      id = rowId(row);
    } catch {
      // The method reports the malformed id when it reads the row; until then the row is named by its position.
      id = undefined;
    }
    const natural = String(id ?? row.ref.index);
    const earlier = this.lineOf(natural);
    if (earlier === undefined) {
      this.take(natural, row.ref.line);
      return { key: natural, problems: [] };
    }
    let key = `${natural}@line${row.ref.line}`;
    for (let n = 2; this.lineOf(key) !== undefined; n++) key = `${natural}@line${row.ref.line}#${n}`;
    this.take(key, row.ref.line);
    return { key, problems: collisionProblems(row, id, natural, earlier, key) };
  }

  private lineOf(key: string): number | undefined {
    const n = denseIndex(key);
    if (n !== undefined && n < this.dense.length && this.dense[n] !== 0) return this.dense[n];
    return this.named.get(key);
  }

  private take(key: string, line: number): void {
    const n = denseIndex(key);
    if (n !== undefined && n < Math.max(DENSE_FLOOR, this.rows * DENSE_SLACK)) {
      if (n >= this.dense.length) {
        const grown = new Int32Array(Math.max(n + 1, this.dense.length * 2));
        grown.set(this.dense);
        this.dense = grown;
      }
      // Lines start at 1, so 0 means free.
      this.dense[n] = Math.max(1, line);
      return;
    }
    this.named.set(key, line);
  }
}

/** A key that is a non-negative integer written canonically ("7", not "07" or "7.0"), as an array index. */
function denseIndex(key: string): number | undefined {
  if (!/^(0|[1-9]\d{0,8})$/.test(key)) return undefined;
  return Number(key);
}

function collisionProblems(row: DatasetRow, id: string | number | undefined, natural: string, earlierLine: number, key: string): InputError[] {
  const { file, line } = row.ref;
  const named = id === undefined ? `has no id, so it is named by its position ${natural},` : `has id ${JSON.stringify(id)},`;
  return [
    new InputError({ file, line: earlierLine }, `row id ${JSON.stringify(natural)} is used again by the row at line ${line}; that row's cases are named "${key}"`, UNIQUE_HINT),
    new InputError({ file, line }, `this row ${named} which the row at line ${earlierLine} already uses; its cases are named "${key}" instead`, UNIQUE_HINT),
  ];
}
