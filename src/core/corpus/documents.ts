// Reads a corpus folder into documents: the files its include/exclude globs select (Markdown and text as they are,
// HTML and JSONL as extracted text with a map back to their lines, PDF as the text of its pages with a map to them),
// in path order, each with the sha256 of its bytes. A file that cannot be read, a bad JSONL line, a PDF without text
// or a link leaving the folder is said (file:line, how to fix it) and the other files are still read.
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { InputError } from '../errors.js';
import { decodeUtf8 } from '../data/lines.js';
import { FileProblem, readRegularFile } from '../regularFile.js';
import { isInside } from '../spec/containment.js';
import { globMatcher } from '../suites/needle/haystack.js';
import type { CorpusDocument, IndexProgress } from './contract.js';
import { htmlText } from './html.js';
import { jsonlText } from './jsonlDocuments.js';
import { pdfText } from './pdf.js';
import type { PdfTextCache } from './pdfTextCache.js';
import { DEFAULT_CORPUS_INCLUDE } from '../retrieval/indexSpec.js';

/** Folders never walked, besides those whose name starts with ".": installed packages, not the team's documents. */
const NEVER_WALKED = new Set(['node_modules']);

/** A file larger than this is refused (a corpus of documents, not of data dumps). */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** Which files of `folder` are documents: globs relative to it ('/' separators; `**`, `*`, `?`, `{a,b}`). Empty `include` means the defaults. */
export interface CorpusSelection {
  folder: string;
  include: readonly string[];
  exclude: readonly string[];
}

export interface CorpusRead {
  /** Sorted by `file`. */
  documents: CorpusDocument[];
  /** What could not be read, each naming its file (and line); the documents above are still good. */
  problems: InputError[];
}

/** How one document is read: the signal (honoured between a PDF's pages) and where PDFs' texts are kept. */
export interface DocumentOptions {
  signal?: AbortSignal;
  pdfCache?: PdfTextCache;
}

export interface ReadOptions extends DocumentOptions {
  onProgress?: (progress: IndexProgress) => void;
}

/** `a/{b,c}/*.md` → `a/b/*.md`, `a/c/*.md` (nested braces too). */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open === -1) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '{') depth++;
    else if (char === '}' && --depth === 0) {
      const cuts = [open, ...commas, i];
      const rest = expandBraces(pattern.slice(i + 1));
      const options = cuts.slice(0, -1).map((cut, n) => pattern.slice(cut + 1, cuts[n + 1]));
      return options.flatMap((option) => expandBraces(pattern.slice(0, open) + option)).flatMap((head) => rest.map((tail) => head + tail));
    } else if (char === ',' && depth === 1) commas.push(i);
  }
  return [pattern];
}

/** A test of relative paths against globs; a leading "./" is ignored. */
export function pathMatcher(globs: readonly string[]): (relative: string) => boolean {
  const patterns = globs.flatMap(expandBraces).map((glob) => globMatcher(glob.replace(/^\.\//, '')));
  return (relative) => patterns.some((pattern) => pattern.test(relative));
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The selected files, as paths relative to the folder, sorted. Names starting with "." (.git, .rag-inspector, where
 * indexes live) and node_modules folders are not walked. A link is followed only when its target is inside the folder; one that leaves it is
 * refused with a problem (a selected file, or a folder not excluded).
 */
export async function listCorpusFiles(selection: CorpusSelection): Promise<{ files: string[]; problems: InputError[] }> {
  const folder = path.resolve(selection.folder);
  const info = await stat(folder).catch(() => undefined);
  if (!info) throw new InputError({ file: folder }, 'the corpus folder does not exist', 'check the folder the index names');
  if (!info.isDirectory()) throw new InputError({ file: folder }, 'the corpus folder is not a folder', 'name the folder that holds the documents');
  const included = pathMatcher(selection.include.length === 0 ? DEFAULT_CORPUS_INCLUDE : selection.include);
  const excluded = pathMatcher(selection.exclude);
  const realFolder = await realpath(folder);
  const visited = new Set([realFolder]);
  const files: string[] = [];
  const problems: InputError[] = [];
  const selected = (relative: string) => included(relative) && !excluded(relative);
  const leaves = (relative: string, real: string) =>
    new InputError({ file: path.join(folder, relative) }, `is a link to ${real}, outside the corpus folder: not read`, 'copy the file into the folder, or exclude it');

  async function walk(relativeFolder: string): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(folder, relativeFolder), { withFileTypes: true });
    } catch (error) {
      problems.push(new InputError({ file: path.join(folder, relativeFolder) }, `cannot be listed (${(error as Error).message})`, 'check its permissions'));
      return;
    }
    for (const entry of entries.sort((a, b) => byCodeUnits(a.name, b.name))) {
      if (entry.name.startsWith('.') || (NEVER_WALKED.has(entry.name) && !entry.isFile())) continue;
      const relative = relativeFolder === '' ? entry.name : `${relativeFolder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!excluded(`${relative}/`) && !excluded(relative)) await walk(relative);
      } else if (entry.isFile()) {
        if (selected(relative)) files.push(relative);
      } else if (entry.isSymbolicLink()) {
        await followLink(relative);
      } else if (selected(relative)) {
        files.push(relative); // a named pipe, socket or device: reading it says what it is instead (regularFile.ts)
      }
    }
  }

  async function followLink(relative: string): Promise<void> {
    const full = path.join(folder, relative);
    const real = await realpath(full).catch(() => undefined);
    const target = real === undefined ? undefined : await stat(real).catch(() => undefined);
    if (real === undefined || target === undefined) {
      if (selected(relative)) problems.push(new InputError({ file: full }, 'is a link to nothing (its target does not exist)', 'remove the link or restore its target'));
      return;
    }
    if (target.isDirectory()) {
      if (excluded(`${relative}/`) || excluded(relative)) return;
      if (!isInside(real, [realFolder])) problems.push(leaves(relative, real));
      else if (!visited.has(real)) {
        visited.add(real);
        await walk(relative);
      }
      return;
    }
    if (!selected(relative)) return;
    if (isInside(real, [realFolder])) files.push(relative);
    else problems.push(leaves(relative, real));
  }

  await walk('');
  return { files: files.sort(byCodeUnits), problems };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The document a format gives, or the problems that kept it (or some of its lines or pages) out. */
async function documentOf(relative: string, absolute: string, bytes: Buffer, options: DocumentOptions): Promise<{ document?: CorpusDocument; problems: InputError[] }> {
  const contentHash = sha256(bytes);
  const extension = path.extname(relative).toLowerCase();
  if (extension === '.pdf') {
    const read = () => pdfText(bytes, absolute, options.signal ? { signal: options.signal } : {});
    const { text, extracted, problems } = options.pdfCache ? await options.pdfCache.text(contentHash, absolute, read) : await read();
    return { document: { file: relative, text, contentHash, extracted }, problems };
  }
  const source = decodeUtf8(absolute, bytes);
  if (extension === '.html' || extension === '.htm') {
    const { text, extracted } = htmlText(source);
    return { document: { file: relative, text, contentHash, extracted }, problems: [] };
  }
  if (extension === '.jsonl') {
    const { text, extracted, problems } = jsonlText(source, absolute);
    return { document: { file: relative, text, contentHash, extracted }, problems };
  }
  return { document: { file: relative, text: source, contentHash }, problems: [] };
}

/** A corpus file's bytes, or the problem saying why it cannot be read (a pipe or device, over the size limit, gone). */
async function readCorpusBytes(absolute: string): Promise<Buffer | InputError> {
  try {
    return await readRegularFile(absolute, MAX_DOCUMENT_BYTES);
  } catch (error) {
    if (error instanceof FileProblem) return new InputError({ file: absolute }, `the file ${error.says}`, error.kind === 'too-large' ? 'split it, or exclude it' : 'exclude it, or make it a readable regular file');
    throw error;
  }
}

/** One file of the corpus read as a document (through regularFile.ts: never a pipe or device, never over the size limit). */
export async function readCorpusDocument(folder: string, relative: string, options: DocumentOptions = {}): Promise<{ document?: CorpusDocument; problems: InputError[] }> {
  const absolute = path.join(path.resolve(folder), relative);
  const bytes = await readCorpusBytes(absolute);
  if (bytes instanceof InputError) return { problems: [bytes] };
  try {
    return await documentOf(relative, absolute, bytes, options);
  } catch (error) {
    if (error instanceof InputError) return { problems: [error] };
    throw error;
  }
}

/** A selected file and the sha256 of its bytes: all an incremental rebuild needs to know what changed. */
export interface CorpusFile {
  file: string;
  contentHash: string;
}

/**
 * The selected files with their hashes, without extracting any text: cheap enough to run on every rebuild (parsing
 * every HTML page again is not), so that only the files diffManifest calls changed are read with readCorpusDocument.
 * Throws like readCorpus when the folder selects no file.
 */
export async function hashCorpus(selection: CorpusSelection, options: ReadOptions = {}): Promise<{ files: CorpusFile[]; problems: InputError[] }> {
  const { files, problems } = await selectedFiles(selection);
  const hashed: CorpusFile[] = [];
  for (const [done, file] of files.entries()) {
    options.signal?.throwIfAborted();
    options.onProgress?.({ stage: 'read', done, total: files.length, file });
    const bytes = await readCorpusBytes(path.join(path.resolve(selection.folder), file));
    if (bytes instanceof InputError) problems.push(bytes);
    else hashed.push({ file, contentHash: sha256(bytes) });
  }
  options.onProgress?.({ stage: 'read', done: files.length, total: files.length });
  return { files: hashed, problems };
}

/** listCorpusFiles, throwing when nothing is selected and nothing went wrong: an empty corpus is a mistake to say. */
async function selectedFiles(selection: CorpusSelection): Promise<{ files: string[]; problems: InputError[] }> {
  const listed = await listCorpusFiles(selection);
  if (listed.files.length === 0 && listed.problems.length === 0) {
    const include = selection.include.length === 0 ? DEFAULT_CORPUS_INCLUDE : selection.include;
    throw new InputError({ file: path.resolve(selection.folder) }, `no file in the corpus folder matches ${include.join(', ')}${selection.exclude.length === 0 ? '' : ` (excluding ${selection.exclude.join(', ')})`}`, 'add documents, or change include/exclude');
  }
  return listed;
}

/** Every selected document of the folder, in path order, with what could not be read. Throws when the folder selects no file. */
export async function readCorpus(selection: CorpusSelection, options: ReadOptions = {}): Promise<CorpusRead> {
  const { files, problems } = await selectedFiles(selection);
  const documents: CorpusDocument[] = [];
  for (const [done, file] of files.entries()) {
    options.signal?.throwIfAborted();
    options.onProgress?.({ stage: 'read', done, total: files.length, file });
    const read = await readCorpusDocument(selection.folder, file, options);
    if (read.document) documents.push(read.document);
    problems.push(...read.problems);
  }
  options.onProgress?.({ stage: 'read', done: files.length, total: files.length });
  return { documents, problems };
}
