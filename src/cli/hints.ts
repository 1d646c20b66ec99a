// The follow-up lines a run prints (resume it, run its errors again, what the cache answered), each with a command the
// user can paste: written the way this process was started, so `node dist/cli.js …` is never told `rag-inspector …`.
import * as path from 'node:path';

/**
 * How this process was started, as a command to type: `rag-inspector` when started through the package's bin link
 * (or a copy of it on PATH), else `node <script>` with the script's path as typed from the current folder.
 */
export function invocation(script: string | undefined = process.argv[1], cwd: string = process.cwd()): string {
  if (!script) return 'rag-inspector';
  if (!/\.[cm]?js$/.test(script)) return path.basename(script);
  const relative = path.relative(cwd, script);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : script;
  return `node ${quoted(shown)}`;
}

/** A path as a shell argument: quoted only when it needs to be. */
export function quoted(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface RunHintContext {
  /** The eval file as the user gave it. */
  specFile: string;
  runId: string;
  /** The command that started this process (`invocation()`). */
  command: string;
}

function runCommandOf(context: RunHintContext, flags: string): string {
  return `${context.command} run ${quoted(context.specFile)} ${flags}`;
}

export function resumeHint(context: RunHintContext): string {
  return `cancelled: finish it with  ${runCommandOf(context, `--resume ${context.runId}`)}`;
}

/** Printed by every run whose cases ended in an error, whatever started it. */
export function retryErrorsHint(context: RunHintContext, errors: number): string {
  return `${errors} case(s) of this run ended in an error: run them again with  ${runCommandOf(context, `--resume ${context.runId} --retry-errors`)}`;
}

/** A resumed run put back in batch mode because it was started so. */
export const BATCH_RESTORED_LINE = 'batch mode, as the run was started: its batches are collected and the rest goes in new batches (--no-batch asks interactively)';

/** --rerun-failed asks the same requests again; the unchanged ones come back from the cache with the same answers. */
export function rerunCacheHint(cacheHits: number): string | undefined {
  if (cacheHits === 0) return undefined;
  return `--rerun-failed: ${cacheHits} unchanged request(s) were answered from the cache, with the same answers as before; add --refresh to ask the models again`;
}
