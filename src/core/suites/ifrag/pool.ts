// The passages of every row of a dataset file, from which IF-RAG draws a question's irrelevant passages.
//
// Why this reads the file itself: Suite.expandRow is synchronous and sees one row, but IF-RAG's irrelevant
// passages come from the OTHER rows (paper §3.1), including rows after this one. So the first expandRow of a file
// reads the whole file synchronously, once, and keeps the passages until the file changes.
import { statSync } from 'node:fs';
import { readRegularFileSync } from '../../regularFile.js';
import * as path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { cellValue } from '../../data/csv.js';
import { jsonOrUndefined } from '../../data/jsonError.js';
import { decodeUtf8 } from '../../data/lines.js';
import { isRecord } from '../../data/reader.js';

export interface PoolPassage {
  /** 0-based index of the row among the file's rows, as the dataset reader numbers them. */
  rowIndex: number;
  rowId?: string | number;
  /** Index in that row's `passages`. */
  passageIndex: number;
  text: string;
}

export interface PassagePool {
  passages: readonly PoolPassage[];
  /** Passages per row index, so "how many belong to other rows" needs no pass over the pool. */
  countByRow: ReadonlyMap<number, number>;
}

/** A row as the pool sees it: rows whose `passages` are unusable simply add nothing. */
export interface PoolRow {
  index: number;
  data: unknown;
}

/** The pool of a list of rows: each row's `passages` strings, in file order. */
export function poolFromRows(rows: Iterable<PoolRow>): PassagePool {
  const passages: PoolPassage[] = [];
  const countByRow = new Map<number, number>();
  for (const row of rows) {
    if (!isRecord(row.data) || !Array.isArray(row.data.passages)) continue;
    const id = row.data.id;
    const rowId = typeof id === 'string' || typeof id === 'number' ? id : undefined;
    row.data.passages.forEach((text, passageIndex) => {
      if (typeof text !== 'string' || text.trim() === '') return;
      passages.push({ rowIndex: row.index, ...(rowId !== undefined ? { rowId } : {}), passageIndex, text });
      countByRow.set(row.index, (countByRow.get(row.index) ?? 0) + 1);
    });
  }
  return { passages, countByRow };
}

// ——— reading a file the way readDataset numbers its rows ———

/** JSON Lines: every non-blank line is a row index, even one that does not parse (readDataset reports it there). */
function jsonlRows(text: string): PoolRow[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.map((line, index) => ({ index, data: jsonOrUndefined(line) }));
}

function firstLineIsObject(text: string): boolean {
  const first = text.split('\n').find((line) => line.trim() !== '');
  return first !== undefined && first.trimStart().startsWith('{') && isRecord(jsonOrUndefined(first));
}

function arrayRows(value: unknown): PoolRow[] {
  return Array.isArray(value) ? value.map((data, index) => ({ index, data })) : [];
}

function csvRows(text: string, delimiter: string): PoolRow[] {
  const records = parseCsv(text.replaceAll('\r\n', '\n'), { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as string[][];
  const [header, ...body] = records;
  if (!header) return [];
  return body.map((cells, index) => ({
    index,
    data: Object.fromEntries(header.map((name, i) => [name, cellValue(cells[i] ?? '')])),
  }));
}

/** Every row of a dataset file, numbered as readDataset numbers them (rows that do not parse are `undefined` data). */
export function rowsOfFile(file: string): PoolRow[] {
  const text = decodeUtf8(file, readRegularFileSync(file));
  switch (path.extname(file).toLowerCase()) {
    case '.jsonl':
    case '.ndjson':
      return jsonlRows(text);
    case '.json':
      return firstLineIsObject(text) ? jsonlRows(text) : arrayRows(jsonOrUndefined(text));
    case '.yaml':
    case '.yml':
      return arrayRows(parseYaml(text));
    case '.csv':
      return csvRows(text, ',');
    case '.tsv':
      return csvRows(text, '\t');
    default:
      return [];
  }
}

const cache = new Map<string, { mtimeMs: number; size: number; pool: PassagePool }>();

/** The pool of a dataset file, read once and again only when the file's size or modification time changes. */
export function passagePoolOf(file: string): PassagePool {
  const info = statSync(file);
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.pool;
  const pool = poolFromRows(rowsOfFile(file));
  cache.set(file, { mtimeMs: info.mtimeMs, size: info.size, pool });
  return pool;
}
