// Containment: every path an eval file names must resolve, symbolic links followed, inside allowed folders — checked before anything is read.
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { InputError } from '../errors.js';
import type { PathSegment } from '../errors.js';
import { isHaystackGlob, staticBase } from '../suites/needle/haystack.js';
import { suiteFor } from '../suites/registry.js';
import { asRecord, suitesOf } from './checks.js';
import type { YamlLocator } from './yamlPositions.js';

type Raw = Record<string, unknown>;

/**
 * Where an eval file may read from, and what to tell the user when it names a path elsewhere. Set by the host: the
 * extension in an untrusted workspace (its folders), the CLI with --contain (the eval file's folder tree).
 */
export interface Containment {
  /** Absolute folders; a path is inside when its real path is one of them or below one. */
  roots: readonly string[];
  /** Why paths outside are refused, e.g. "this workspace is not trusted: paths outside it are not read". */
  reason: string;
  /** How to allow it, e.g. "trust the workspace to allow it". */
  hint: string;
}

/** One path the eval file names, where it is written, and what kind of input it is (for the message). */
export interface NamedPath {
  segments: PathSegment[];
  /** dataset, template, or the key of a method's param that names files (Suite.fileParams: haystack). */
  kind: string;
  /** Absolute; for a pattern, the folder its walk starts from. */
  absolute: string;
  /** A param's pattern, absolute, when `absolute` is its fixed leading folder. */
  pattern?: string;
}

/** A command word that names a file: it holds a path separator or ends in a script's extension. */
const SCRIPT_WORD = /[\\/]|\.(?:py|mjs|cjs|js|ts|sh|rb|pl|jar|exe|bat|cmd|ps1)$/i;

/**
 * Datasets and templates (top level and per suite), the files a method's params name (a file, a folder, or a
 * pattern's fixed leading folders), a command retriever's folder and script, and the index's folder. Template includes are bounded by the
 * template's own folder (prompt/liquidEngine.ts), so a contained template contains its includes. The eval file names no output folder: run logs and reports go under
 * the workspace's .rag-inspector (or the CLI's --out, which its user types).
 */
export function namedPaths(data: Raw, folder: string): NamedPath[] {
  const paths: NamedPath[] = [];
  const add = (segments: PathSegment[], kind: string, value: unknown) => {
    if (typeof value !== 'string' || value === '') return;
    const absolute = path.resolve(folder, value);
    if (kind !== 'dataset' && kind !== 'template' && isHaystackGlob(absolute)) paths.push({ segments, kind, absolute: path.resolve(staticBase(absolute)), pattern: absolute });
    else paths.push({ segments, kind, absolute });
  };
  for (const kind of ['dataset', 'template'] as const) add([kind], kind, data[kind]);
  for (const [index, suite] of suitesOf(data)) {
    for (const kind of ['dataset', 'template'] as const) add(['suites', index, kind], kind, suite[kind]);
    // The files a method's params name (Suite.fileParams: Needle's haystack), each a file, a folder or a pattern.
    const method = typeof suite.method === 'string' ? suiteFor(suite.method) : undefined;
    for (const key of method?.fileParams ?? []) add(['suites', index, 'params', key], key, asRecord(suite.params)?.[key]);
  }
  // A command retriever's folder, and the words of its command that name a file (a path or a script's name), which
  // the program would run: both must stay inside as a dataset must.
  const retriever = asRecord(data.retriever);
  if (retriever?.type === 'command') {
    const cwd = typeof retriever.cwd === 'string' ? retriever.cwd : '.';
    add(['retriever', 'cwd'], 'retriever folder', cwd);
    if (Array.isArray(retriever.command)) {
      retriever.command.forEach((word, i) => {
        if (typeof word === 'string' && SCRIPT_WORD.test(word)) add(['retriever', 'command', i], 'retriever script', path.join(cwd, word));
      });
    }
  }
  // The index's folder: every document under it is read, so it must stay inside as a dataset must.
  const index = asRecord(data.index);
  if (index) add(['index', 'folder'], 'index folder', index.folder);
  return paths;
}

/**
 * The real path of `file`, links followed; for a path that does not exist yet, the real path of its nearest existing
 * folder with the rest appended (so `../missing.jsonl` is still seen to leave, and a missing file inside is left to
 * the "file not found" check). Only names are resolved: no file's contents are read.
 */
export async function realPathOf(file: string): Promise<string> {
  const rest: string[] = [];
  let current = path.resolve(file);
  for (;;) {
    try {
      return path.join(await realpath(current), ...rest);
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...rest);
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}

/** True when `real` is one of `realRoots` or below one. Both sides are real paths. */
export function isInside(real: string, realRoots: readonly string[]): boolean {
  return realRoots.some((root) => {
    const relative = path.relative(root, real);
    return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
  });
}

/**
 * Every named path (and the eval file itself) whose real path leaves the roots, as an InputError at the place the
 * path is written. Empty when all are inside. Run before any other check that touches the files it names.
 */
export async function containmentProblems(data: Raw, evalFile: string, locator: YamlLocator, containment: Containment): Promise<InputError[]> {
  const roots = await Promise.all(containment.roots.map((root) => realPathOf(root)));
  const problems: InputError[] = [];
  const realEvalFile = await realPathOf(evalFile);
  if (!isInside(realEvalFile, roots)) {
    problems.push(new InputError({ file: evalFile, line: 1, column: 1 }, `${containment.reason}: the eval file itself is outside (${realEvalFile})`, containment.hint));
  }
  for (const named of namedPaths(data, path.dirname(evalFile))) {
    const real = await realPathOf(named.absolute);
    if (isInside(real, roots)) continue;
    const shown = named.pattern ? `pattern ${named.pattern} (read from ${named.absolute})` : named.absolute;
    const via = real === named.absolute ? '' : ` (links to ${real})`;
    problems.push(new InputError(locator.valueAt(named.segments), `${containment.reason}: ${named.kind} ${shown}${via} is outside ${describeRoots(containment.roots)}`, containment.hint));
  }
  return problems;
}

/**
 * The folders (of those given) whose real path leaves the roots: the workspace's own state folder committed as a link
 * to somewhere else, which run logs would be written to and the cache read from. Folders that do not exist pass.
 */
export async function foldersOutside(folders: readonly string[], roots: readonly string[]): Promise<Array<{ folder: string; real: string }>> {
  const realRoots = await Promise.all(roots.map((root) => realPathOf(root)));
  const outside: Array<{ folder: string; real: string }> = [];
  for (const folder of folders) {
    const real = await realPathOf(folder);
    if (!isInside(real, realRoots)) outside.push({ folder, real });
  }
  return outside;
}

function describeRoots(roots: readonly string[]): string {
  if (roots.length === 0) return 'every allowed folder (none is open)';
  return roots.length === 1 ? (roots[0] as string) : `${roots.slice(0, -1).join(', ')} and ${roots.at(-1) as string}`;
}
