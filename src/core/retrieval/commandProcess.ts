// Starting the user's retriever command and describing how it ended: the environment it gets, the words for a start
// failure, and the tail of its stderr that every error message quotes.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import { redact } from '../redact.js';
import { RetrieverError } from './contract.js';
import type { CommandRetrieverSpec } from './contract.js';

/**
 * What every retriever process gets from our environment, whatever `env:` names: enough to find programs and run an
 * interpreter (PATH, HOME, locale, temp folders; Windows needs SYSTEMROOT and friends for Python's and Node's own
 * start-up). Nothing else leaks in — above all no API keys of the models under test; a script that needs a variable
 * names it in `env:`.
 */
export const BASE_ENV_NAMES: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TEMP', 'TMP',
  'SYSTEMROOT', 'SYSTEMDRIVE', 'WINDIR', 'COMSPEC', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'HOMEDRIVE', 'HOMEPATH',
];

/** How many lines of stderr a message quotes (a Python traceback's end fits). */
const STDERR_LINES = 20;
/** stderr kept while the process runs: the tail only, so a chatty script costs no memory. */
const STDERR_KEEP_CHARS = 8192;
const STDERR_LINE_CHARS = 300;

/** A variable of `env`, also under another case on Windows (where names ignore case but a copied object does not). */
function lookup(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  if (value !== undefined || process.platform !== 'win32') return value;
  const upper = name.toUpperCase();
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === upper);
  return key === undefined ? undefined : env[key];
}

/**
 * The retriever's environment: the base variables that are set, plus every variable `spec.env` names. A named
 * variable that is not set is a 'start' error before the process starts (the script would fail later, less clearly).
 */
export function retrieverEnv(spec: CommandRetrieverSpec, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const child: NodeJS.ProcessEnv = {};
  for (const name of BASE_ENV_NAMES) {
    const value = lookup(env, name);
    if (value !== undefined) child[name] = value;
  }
  const missing: string[] = [];
  for (const name of spec.env ?? []) {
    const value = lookup(env, name);
    if (value === undefined) missing.push(name);
    else child[name] = value;
  }
  if (missing.length > 0) {
    throw new RetrieverError('start', `${commandText(spec)} was not started: the environment variable${missing.length === 1 ? '' : 's'} ${missing.join(', ')} named in the retriever's env: ${missing.length === 1 ? 'is' : 'are'} not set. Set ${missing.length === 1 ? 'it' : 'them'} where the run starts, or remove ${missing.length === 1 ? 'it' : 'them'} from env:.`);
  }
  return child;
}

/** The command as a message names it, secrets redacted ("python3 retrieve.py --index docs"). */
export function commandText(spec: CommandRetrieverSpec): string {
  return redact(spec.command.join(' '));
}

/** Spawns the command without a shell, every stream piped. Start failures arrive as the child's 'error' event. */
export function spawnRetriever(spec: CommandRetrieverSpec, env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  const [program, ...args] = spec.command;
  if (program === undefined || program === '') throw new RetrieverError('start', 'the retriever\'s command is empty: give the program and its arguments, e.g. [python3, retrieve.py].');
  return spawn(program, args, { cwd: spec.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
}

/** The 'start' error for a spawn failure, saying what to check: the program, the folder, the permission. */
export function startError(spec: CommandRetrieverSpec, error: Error): RetrieverError {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `"${redact(spec.command[0] ?? '')}" in ${spec.cwd}`;
  let advice: string;
  if (code === 'ENOENT' && !fs.existsSync(spec.cwd)) advice = `the folder ${spec.cwd} does not exist: fix the retriever's cwd`;
  else if (code === 'ENOENT') advice = 'the program was not found: is it installed and on the PATH the run sees? (a path is taken from the cwd)';
  else if (code === 'EACCES') advice = 'the program is not executable: chmod +x it, or name its interpreter first, e.g. [python3, retrieve.py]';
  else advice = redact(error.message);
  return new RetrieverError('start', `could not start ${where}: ${advice}.`);
}

/** The last lines a process wrote on stderr. */
export class StderrTail {
  private text = '';

  add(chunk: string): void {
    this.text += chunk;
    if (this.text.length > STDERR_KEEP_CHARS * 2) this.text = this.text.slice(-STDERR_KEEP_CHARS);
  }

  /** "; stderr: …last lines…", redacted, or '' when it wrote nothing. */
  describe(): string {
    let tail = this.text.slice(-STDERR_KEEP_CHARS);
    // A tail that starts inside a line drops that part: it could be the end of a key, unrecognisable on its own.
    if (tail.length < this.text.length) tail = tail.slice(tail.indexOf('\n') + 1);
    const lines = tail.split(/\r?\n/).filter((line) => line.trim() !== '').slice(-STDERR_LINES);
    if (lines.length === 0) return '; it wrote nothing on stderr';
    // Each line redacted whole before it is cut, so a key the cut runs through is not shown in part.
    const shown = lines.map((line) => redact(line)).map((line) => (line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line));
    return `; stderr (last ${shown.length} line${shown.length === 1 ? '' : 's'}):\n${shown.join('\n')}`;
  }
}

/** "exited with code 1", "was killed by SIGKILL". */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `was killed by ${signal}`;
  return `exited with code ${code ?? 'unknown'}`;
}
