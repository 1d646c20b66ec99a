// The distractors a stress case draws from: other rows' passages that bear none of their own row's answer, or the
// paragraphs of a corpus folder. Each row ranks the pool by a seeded hash of (row, passage text) (rank.ts) and takes
// candidates from the top, as one sequence every testbed takes a prefix of: more noise adds passages rather than
// swapping them, and editing one row of the dataset changes only the rows its passages rank high for.
//
// Why this reads the file itself: Suite.expandRow sees one row, but distractors come from the other rows (after this
// one too), as IF-RAG's irrelevant passages do; so the file is read once with IF-RAG's reader and kept until it changes.
import { readdirSync, statSync } from 'node:fs';
import { describeNonRegular, readRegularFileSync } from '../../regularFile.js';
import * as path from 'node:path';
import { InputError } from '../../errors.js';
import type { DatasetRow } from '../../model.js';
import { rowsOfFile } from '../ifrag/pool.js';
import type { AnswerParts } from '../rgb/rows.js';
import { bearingOf, mentionsAnswer } from './bearing.js';
import type { DistractorSource } from './params.js';
import { inRankOrder } from './rank.js';
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
  /** The row's draw seed (from the run seed and the row's key): the pool's order for this row. */
  seed: number;
  /** This row's index: its own passages are never its distractors. */
  rowIndex: number;
  answer: AnswerParts;
  /** The row's own passages (by text): a copy of one elsewhere in the dataset is no distractor either. */
  own: readonly string[];
  count: number;
}

export interface Draw {
  distractors: Distractor[];
  /** Passed over because they mention this row's answer word for word (they would be hidden answer-bearing passages). */
  passedOver: number;
}

/**
 * The row's candidates in its rank order: each distinct text once, never the row's own passages, and never one that
 * mentions the row's answer word for word (RGB's rule; with answerBearing: judge the judge then checks the rest).
 * `onPassedOver` hears of each passage left out for mentioning the answer.
 */
export function* distractorCandidates(pool: DistractorPool, request: Omit<DrawRequest, 'count'>, onPassedOver?: () => void): Generator<Distractor> {
  const own = new Set(request.own);
  const seen = new Set<string>();
  for (const i of inRankOrder(pool.items, request.seed)) {
    const item = pool.items[i] as Distractor;
    if (item.rowIndex === request.rowIndex || own.has(item.text) || seen.has(item.text)) continue;
    seen.add(item.text);
    if (mentionsAnswer(item.text, request.answer)) {
      onPassedOver?.();
      continue;
    }
    yield item;
  }
}

/** The first `count` candidates in the row's rank order (fewer when the pool runs out). */
export function drawDistractors(pool: DistractorPool, request: DrawRequest): Draw {
  let passedOver = 0;
  const distractors: Distractor[] = [];
  if (request.count <= 0) return { distractors, passedOver };
  for (const candidate of distractorCandidates(pool, request, () => passedOver++)) {
    distractors.push(candidate);
    if (distractors.length >= request.count) break;
  }
  return { distractors, passedOver };
}
