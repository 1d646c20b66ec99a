// The haystack: its files in a fixed order, read and tokenised once per tokenizer, long enough for the largest cell.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { describeNonRegular, problemOfError, readRegularFile } from '../../regularFile.js';
import { indexTokens } from './tokenIndex.js';
import type { BoundaryRule, IndexedText } from './tokenIndex.js';
import type { HaystackTokenizer } from './tokenizer.js';

/** Thrown for a haystack the user must fix (no files, no text); the suite turns it into an InputError on the key. */
export class HaystackError extends Error {}

const GLOB_CHARS = /[*?[\]{}]/;

/** True when a haystack location is a pattern rather than a file or folder. */
export const isHaystackGlob = (location: string): boolean => GLOB_CHARS.test(location);

/**
 * A folder means its `*.txt` files (the reference globs `haystack_dir/*.txt`); a pattern is matched with `*`
 * (within a folder), `**` (any folders) and `?`; a plain file is itself. Sorted by path, because the reference's
 * glob order is the file system's and a grid must not depend on it.
 */
export async function haystackFiles(location: string): Promise<string[]> {
  if (!GLOB_CHARS.test(location)) {
    const info = await stat(location).catch(() => undefined);
    if (!info) throw new HaystackError(`${location} does not exist`);
    if (info.isFile()) return [location];
    if (!info.isDirectory()) throw new HaystackError(`${location} ${describeNonRegular(info)}`);
    return sortedPaths((await readdir(location, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.txt')).map((e) => path.join(location, e.name)));
  }
  const base = staticBase(location);
  const matcher = globMatcher(path.relative(base, location));
  const files = (await walk(base)).filter((file) => matcher.test(toPosix(path.relative(base, file))));
  return sortedPaths(files);
}

function sortedPaths(files: string[]): string[] {
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}

/**
 * The leading folders of a pattern that hold no wildcard: where the walk starts. The walk lists only files under it
 * and follows no symbolic link (Dirent.isFile/isDirectory are false for links), so it bounds what a pattern reads.
 */
export function staticBase(pattern: string): string {
  const segments = pattern.split(/[\\/]/);
  const firstGlob = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  const base = segments.slice(0, firstGlob).join(path.sep);
  return base === '' ? (path.isAbsolute(pattern) ? path.sep : '.') : base;
}

/** `**` any folders, `*` any name part, `?` one character; everything else literal. */
export function globMatcher(pattern: string): RegExp {
  let source = '';
  const posix = toPosix(pattern);
  for (let i = 0; i < posix.length; i++) {
    const char = posix[i] as string;
    if (char === '*' && posix[i + 1] === '*') {
      const slash = posix[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

async function walk(folder: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const nested = await Promise.all(entries.map(async (entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return walk(full);
    return entry.isFile() ? [full] : [];
  }));
  return nested.flat();
}

/** Tokens past this many beyond the need are kept so a cut through a long word cannot reach the cells. */
const MARGIN_TOKENS = 64;
/** Characters read per token wanted before trying a prefix; CJK text has about one per token, so retries double it. */
const CHARS_PER_TOKEN_GUESS = 6;

/**
 * Reads files in order until there is surely enough text for `needed` tokens (a 16k grid need not read a whole
 * documentation folder). Returns the text and whether every file was read (a full pass, in reference terms).
 */
async function readPrefix(files: readonly string[], chars: number): Promise<{ text: string; complete: boolean }> {
  const parts: string[] = [];
  let length = 0;
  for (const file of files) {
    if (length >= chars) return { text: parts.join(''), complete: false };
    const text = (await readRegularFile(file).catch((error: unknown) => { throw new HaystackError(problemOfError(file, error).message); })).toString('utf8');
    parts.push(text);
    length += text.length;
  }
  return { text: parts.join(''), complete: true };
}

/**
 * Tokens of `pass` repeated until there are `needed`, like the reference's `while len < max: for file: context +=
 * read` — encoding the pass once and copying its tokens, after checking that the join between two passes
 * tokenises the same as the pass end and start do apart. If it does not, the repeated text is encoded whole.
 */
function repeatedTokens(passTokens: number[], passText: string, needed: number, tokenizer: HaystackTokenizer): { tokens: number[]; text: string } {
  if (passTokens.length >= needed) return { tokens: passTokens, text: passText };
  const passes = Math.ceil(needed / passTokens.length);
  const text = passText.repeat(passes);
  if (!joinIsStable(passText, tokenizer)) return { tokens: tokenizer.encode(text), text };
  const tokens = new Array<number>(passTokens.length * passes);
  for (let p = 0; p < passes; p++) for (let i = 0; i < passTokens.length; i++) tokens[p * passTokens.length + i] = passTokens[i] as number;
  return { tokens, text };
}

/** Characters of context either side of the join when checking it. */
const JOIN_WINDOW = 400;

/**
 * BPE splits text into words, numbers and spaces before merging, so if the pass's end and start tokenise the same
 * together as apart, copying the pass's tokens gives what encoding the repeated text would.
 */
function joinIsStable(passText: string, tokenizer: HaystackTokenizer): boolean {
  const tail = passText.slice(-JOIN_WINDOW);
  const head = passText.slice(0, JOIN_WINDOW);
  const together = tokenizer.encode(tail + head);
  const apart = [...tokenizer.encode(tail), ...tokenizer.encode(head)];
  return together.length === apart.length && together.every((token, i) => token === apart[i]);
}

/** The first `count` tokens of an index: a prefix of the text, never a partial character. */
function truncateIndex(index: IndexedText, count: number): IndexedText {
  return {
    text: index.text.slice(0, index.starts[count]),
    tokenCount: count,
    starts: index.starts.subarray(0, count + 1),
    boundaries: index.boundaries.subarray(0, count),
  };
}

/**
 * Tokenises the haystack once: a prefix of the files when that is plenty (its last MARGIN_TOKENS dropped, as a cut
 * through a word may tokenise differently), else every file, repeated whole as the reference does when short.
 */
export async function tokenizeHaystack(files: readonly string[], tokenizer: HaystackTokenizer, needed: number, rule: BoundaryRule): Promise<IndexedText> {
  if (files.length === 0) throw new HaystackError('no haystack files found');
  for (let chars = (needed + MARGIN_TOKENS) * CHARS_PER_TOKEN_GUESS; ; chars *= 2) {
    const { text, complete } = await readPrefix(files, chars);
    if (text.trim() === '') throw new HaystackError('the haystack files hold no text');
    const tokens = tokenizer.encode(text);
    if (complete) {
      const repeated = repeatedTokens(tokens, text, needed, tokenizer);
      return indexTokens(repeated.tokens, tokenizer, rule, repeated.text);
    }
    // Indexed whole, then cut: the decoder only ever sees text that ends on a whole character.
    if (tokens.length >= needed + MARGIN_TOKENS) return truncateIndex(indexTokens(tokens, tokenizer, rule, text), tokens.length - MARGIN_TOKENS);
  }
}

interface CacheEntry {
  key: string;
  index: IndexedText;
}

// Template comparisons are several suite entries on one grid: keep the last haystack rather than tokenise it again.
let lastHaystack: CacheEntry | undefined;

async function cacheKey(files: readonly string[], tokenizer: HaystackTokenizer, rule: BoundaryRule): Promise<string> {
  const stamps = await Promise.all(files.map(async (file) => {
    const info = await stat(file);
    return `${file}\u0000${info.size}\u0000${info.mtimeMs}`;
  }));
  return [tokenizer.name, rule, ...stamps].join('\u0001');
}

/** tokenizeHaystack, reusing the previous result when files, tokenizer and rule are unchanged and it is long enough. */
export async function loadHaystack(files: readonly string[], tokenizer: HaystackTokenizer, needed: number, rule: BoundaryRule): Promise<IndexedText> {
  const key = await cacheKey(files, tokenizer, rule);
  if (lastHaystack && lastHaystack.key === key && lastHaystack.index.tokenCount >= needed) return lastHaystack.index;
  const index = await tokenizeHaystack(files, tokenizer, needed, rule);
  lastHaystack = { key, index };
  return index;
}
