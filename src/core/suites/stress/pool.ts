// The distractors a stress case draws from: other rows' passages that bear none of their own row's answer, or the
// paragraphs of a corpus folder. Drawn per row with a seeded generator, as one sequence every testbed takes a prefix
// of, so more noise adds passages rather than swapping them.
//
// Why this reads the file itself: Suite.expandRow sees one row, but distractors come from the other rows (after this
// one too), as IF-RAG's irrelevant passages do; so the file is read once with IF-RAG's reader and kept until it changes.
import { readdirSync, statSync } from 'node:fs';
import { describeNonRegular, readRegularFileSync } from '../../regularFile.js';
import * as path from 'node:path';
import { InputError } from '../../errors.js';
import type { DatasetRow } from '../../model.js';
import type { Random } from '../../random.js';
import { rowsOfFile } from '../ifrag/pool.js';
import type { AnswerParts } from '../rgb/rows.js';
import { bearingOf, mentionsAnswer } from './bearing.js';
import type { DistractorSource } from './params.js';
import { readStressRow } from './rows.js';

export interface Distractor {
  text: string;
  /** Where it came from: "rows[7].contexts[2]" or "corpus:facts.txt#3". */
  source: string;
  /** Dataset pools: the 0-based row it belongs to, so a row never draws its own passages. */
  rowIndex?: number;
}

export interface DistractorPool {
  items: readonly Distractor[];
}

/** A dataset's pool: every usable row's passages that bear none of that row's answer parts. */
export function poolFromRows(rows: Iterable<{ index: number; data: unknown }>): DistractorPool {
  const items: Distractor[] = [];
  for (const { index, data } of rows) {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) continue;
    let row;
    try {
      row = readStressRow({ ref: { file: '', line: 0, index }, data: data as Record<string, unknown> });
    } catch {
      continue; // a row the method cannot read is reported at its own line; it just gives no distractors
    }
    const bearing = new Set(bearingOf(row).bearing.map((b) => b.index));
    row.contexts.forEach((text, i) => {
      if (!bearing.has(i)) items.push({ text, source: `rows[${index}].contexts[${i}]`, rowIndex: index });
    });
  }
  return { items };
}

/** A corpus folder's pool: the non-blank paragraphs of its .txt and .md files, in file-name order. */
export function poolFromCorpus(folder: string, files: readonly string[]): DistractorPool {
  const items: Distractor[] = [];
  for (const name of files) {
    const paragraphs = readRegularFileSync(path.join(folder, name)).toString('utf8').split(/\r?\n\s*\r?\n/).map((p) => p.trim()).filter((p) => p !== '');
    paragraphs.forEach((text, i) => items.push({ text, source: `corpus:${name}#${i}` }));
  }
  return { items };
}

const cache = new Map<string, { stamp: string; pool: DistractorPool }>();

function corpusFiles(folder: string, where: DatasetRow['ref']): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    throw new InputError({ file: where.file, line: where.line }, `the distractor corpus folder ${folder} cannot be read`, 'set params.distractors.corpus to a folder (relative to the eval file) holding .txt or .md files');
  }
  return names.filter((n) => /\.(txt|md)$/i.test(n)).sort();
}

/** The pool for a row's suite, read once and again only when the dataset file or corpus files change. */
export function distractorPoolFor(source: DistractorSource, row: DatasetRow): DistractorPool {
  if (source.kind === 'dataset') {
    const info = statSync(row.ref.file);
    const stamp = `${info.mtimeMs}:${info.size}`;
    const cached = cache.get(row.ref.file);
    if (cached?.stamp === stamp) return cached.pool;
    const pool = poolFromRows(rowsOfFile(row.ref.file));
    cache.set(row.ref.file, { stamp, pool });
    return pool;
  }
  const files = corpusFiles(source.folder, row.ref);
  const stamp = files.map((n) => {
    const info = statSync(path.join(source.folder, n));
    // Read synchronously below: a named pipe would block the event loop (and Ctrl-C) for good.
    const nonRegular = describeNonRegular(info);
    if (nonRegular) throw new InputError({ file: row.ref.file, line: row.ref.line }, `the distractor corpus file ${path.join(source.folder, n)} ${nonRegular}`, 'keep only .txt and .md files in the corpus folder');
    return `${n}:${info.mtimeMs}:${info.size}`;
  }).join('|');
  const key = `corpus:${source.folder}`;
  const cached = cache.get(key);
  if (cached?.stamp === stamp) return cached.pool;
  const pool = poolFromCorpus(source.folder, files);
  cache.set(key, { stamp, pool });
  return pool;
}

export interface DrawRequest {
  /** This row's index: its own passages are never its distractors. */
  rowIndex: number;
  answer: AnswerParts;
  /** The row's own passages (by text): a copy of one elsewhere in the dataset is no distractor either. */
  own: readonly string[];
  count: number;
}

export interface Draw {
  distractors: Distractor[];
  /** Drawn but passed over because they mention this row's answer (they would be hidden answer-bearing passages). */
  passedOver: number;
}

/**
 * `count` distinct distractors, seeded. Random picks first (a pool of 50,000 passages is not shuffled for every
 * row), then, if the pool is nearly exhausted, one pass from a random start so every eligible passage can be found.
 */
export function drawDistractors(pool: DistractorPool, request: DrawRequest, random: Random): Draw {
  const { items } = pool;
  const own = new Set(request.own);
  const taken = new Set<number>();
  const rejected = new Set<number>();
  const distractors: Distractor[] = [];
  const consider = (i: number): void => {
    if (taken.has(i) || rejected.has(i)) return;
    const item = items[i] as Distractor;
    if (item.rowIndex === request.rowIndex || own.has(item.text)) return void rejected.add(i);
    if (mentionsAnswer(item.text, request.answer)) return void rejected.add(i);
    taken.add(i);
    distractors.push(item);
  };
  const attempts = request.count * 8;
  for (let a = 0; a < attempts && distractors.length < request.count && items.length > 0; a++) consider(Math.floor(random() * items.length));
  if (distractors.length < request.count && items.length > 0) {
    const start = Math.floor(random() * items.length);
    for (let step = 0; step < items.length && distractors.length < request.count; step++) consider((start + step) % items.length);
  }
  const passedOver = [...rejected].filter((i) => (items[i] as Distractor).rowIndex !== request.rowIndex && !own.has((items[i] as Distractor).text)).length;
  return { distractors, passedOver };
}
