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
  throw new InputError({ file: row.ref.file, line: row.ref.line }, `row id: expected a string or number, got ${describe(value)}`, 'write the id as a string or a number, or leave it out (the row is then named by its position)');
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

/**
 * The name a row's cases are built from: the key readDataset assigned (unique in the file), else — a row made by hand
 * rather than read from a file — its id or position. A row whose id cell is malformed throws, as a bad field does.
 */
export function rowKey(row: DatasetRow): string {
  const id = rowId(row);
  return row.key ?? String(id ?? row.ref.index);
}

/** What assigning a row's key found: its key and, when its natural key was taken, one problem at each of the two rows. */
export interface AssignedKey {
  key: string;
  problems: InputError[];
}

/** Integer keys up to this many times the rows read so far are kept in a dense array; others in a map. */
const DENSE_SLACK = 4;
const DENSE_FLOOR = 1 << 16;

/** How a row came by its key: its id, its position (it has no id), or its line (its id or position was taken). */
type How = 'id' | 'position' | 'renamed';
const HOWS: readonly How[] = ['id', 'position', 'renamed'];

/** The row that holds a key. */
interface Holder {
  line: number;
  how: How;
}

/**
 * Assigns each row of one file, in file order, a key no earlier row has: its natural key when free, else that key
 * suffixed by its line (`7@line12`, then `7@line12#2`… in the unlikely case that is taken too). The first row keeps
 * its name, so a row's key depends only on the rows before it: it is the same on every run of an unchanged file, and
 * adding a row at the end renames nothing. Memory is one number per row: integer keys (the usual ids and every
 * position) live in a typed array of the line that took them (negative when by position), other keys in a map.
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
    const how: How = id === undefined ? 'position' : 'id';
    const earlier = this.holder(natural);
    if (earlier === undefined) {
      this.take(natural, { line: row.ref.line, how });
      return { key: natural, problems: [] };
    }
    let key = `${natural}@line${row.ref.line}`;
    for (let n = 2; this.holder(key) !== undefined; n++) key = `${natural}@line${row.ref.line}#${n}`;
    this.take(key, { line: row.ref.line, how: 'renamed' });
    return { key, problems: collisionProblems(row, { line: row.ref.line, how }, natural, earlier, key) };
  }

  private holder(key: string): Holder | undefined {
    const n = denseIndex(key);
    const slot = n !== undefined && n < this.dense.length ? this.dense[n]! : 0;
    if (slot !== 0) return { line: Math.abs(slot), how: slot > 0 ? 'id' : 'position' };
    const packed = this.named.get(key);
    if (packed === undefined) return undefined;
    return { line: Math.floor(packed / HOWS.length), how: HOWS[packed % HOWS.length]! };
  }

  private take(key: string, holder: Holder): void {
    const n = denseIndex(key);
    // Lines start at 1, so 0 means free. A renamed key is never an integer, so the sign tells id from position.
    if (n !== undefined && n < Math.max(DENSE_FLOOR, this.rows * DENSE_SLACK) && holder.line >= 1) {
      if (n >= this.dense.length) {
        const grown = new Int32Array(Math.max(n + 1, this.dense.length * 2));
        grown.set(this.dense);
        this.dense = grown;
      }
      this.dense[n] = holder.how === 'position' ? -holder.line : holder.line;
      return;
    }
    this.named.set(key, holder.line * HOWS.length + HOWS.indexOf(holder.how));
  }
}

/** A key that is a non-negative integer written canonically ("7", not "07" or "7.0"), as an array index. */
function denseIndex(key: string): number | undefined {
  // Digit by digit rather than a regular expression: this runs for every row of every dataset read.
  const length = key.length;
  if (length === 0 || length > 9 || (length > 1 && key.charCodeAt(0) === 48)) return undefined;
  let n = 0;
  for (let i = 0; i < length; i++) {
    const digit = key.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return n;
}

/** What a row's name is, in words. */
function nameOf(holder: Holder, name: string): string {
  if (holder.how === 'id') return `id ${JSON.stringify(name)}`;
  if (holder.how === 'position') return `no id, so it is named by its position ${name}`;
  return `the name ${JSON.stringify(name)} (its own id was taken)`;
}

/** One problem at each of the two rows: each names the other row's line, what clashed, and the later row's new name. */
function collisionProblems(row: DatasetRow, later: Holder, name: string, earlier: Holder, key: string): InputError[] {
  const { file } = row.ref;
  return [
    new InputError({ file, line: earlier.line }, `this row has ${nameOf(earlier, name)}; the row at line ${later.line} has the same name (${nameOf(later, name)}), so that row's cases are named "${key}"`, UNIQUE_HINT),
    new InputError({ file, line: later.line }, `this row has ${nameOf(later, name)}, the same name as the row at line ${earlier.line} (${nameOf(earlier, name)}); its cases are named "${key}" instead`, UNIQUE_HINT),
  ];
}
