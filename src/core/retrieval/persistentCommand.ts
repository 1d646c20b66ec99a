// The user's retriever script started once and kept running: one JSON request per line on its stdin, answers matched
// by id on its stdout (so requests overlap and may be answered out of order), restarted when it dies.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { RetrieverError } from './contract.js';
import type { CommandRetrieverSpec, RetrievalRequest, RetrievalResponse, Retriever } from './contract.js';
import { checkItems, quoteText, stripBom } from './items.js';
import { AbortWatch } from './abortWatch.js';
import { wireRequest } from './wireRequest.js';
import { StderrTail, describeExit, retrieverEnv, spawnRetriever, startError } from './commandProcess.js';

/** Crashes in a row (no answer between them) after which the script is not started again. */
export const MAX_CRASHES_IN_A_ROW = 3;
/** After close() ends stdin: how long the script may take to finish before SIGTERM, then before SIGKILL. */
const CLOSE_GRACE_MS = 1000;
const KILL_GRACE_MS = 2000;
/** After the process exits: how long its last output may take to arrive before its exit is acted on. */
const EXIT_GRACE_MS = 500;
/** An answer line longer than this is taken as a runaway output, not an answer. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

interface Pending {
  id: string;
  resolve: (response: RetrievalResponse) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
  /** Stops watching the caller's signal. */
  unwatch: () => void;
  startedAt: number;
  /** Lines the process had printed when this request was sent: none since then at its timeout means it is hung. */
  linesAtSend: number;
}

/** One running process of the script, with the requests it has been sent and not yet answered. */
interface Running {
  child: ChildProcessWithoutNullStreams;
  pending: Map<string, Pending>;
  stderr: StderrTail;
  stdoutRest: string;
  lines: number;
  /** Lines waiting for stdin to drain (stdin.write returned false). */
  queued: string[];
  blocked: boolean;
  /** We stopped it (close, or hung): its exit is no crash. */
  stopping: boolean;
  ended: boolean;
  exited: Promise<void>;
}

export class PersistentCommandRetriever implements Retriever {
  readonly kind = 'command' as const;
  private running: Running | undefined;
  private lastId = 0;
  private crashesInARow = 0;
  private lastCrash = '';
  private closing: Promise<void> | undefined;
  private readonly aborts = new AbortWatch();

  constructor(private readonly spec: CommandRetrieverSpec, private readonly env: NodeJS.ProcessEnv, readonly identity: string) {}

  retrieve(request: RetrievalRequest, signal: AbortSignal): Promise<RetrievalResponse> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.closing) return Promise.reject(new RetrieverError('crashed', `${this.identity} was already closed: the run has ended.`));
    if (this.crashesInARow >= MAX_CRASHES_IN_A_ROW) {
      return Promise.reject(new RetrieverError('crashed', `${this.identity} crashed ${this.crashesInARow} times in a row without answering, so it is not started again; fix the script and run again (--retry-errors reruns these cases). Last time it ${this.lastCrash}`));
    }
    let running: Running;
    try {
      running = this.running ?? this.start();
    } catch (error) {
      return Promise.reject(error);
    }
    const id = String(++this.lastId);
    const line = `${JSON.stringify({ id, ...wireRequest(request, this.spec.params) })}\n`;
    return new Promise<RetrievalResponse>((resolve, reject) => {
      const pending: Pending = {
        id,
        resolve,
        reject,
        unwatch: () => undefined,
        startedAt: performance.now(),
        linesAtSend: running.lines,
        timer: setTimeout(() => this.timedOut(running, pending), this.spec.timeoutMs),
      };
      running.pending.set(id, pending);
      // Cancelling stops waiting for this request only: the process keeps serving the others, and its late answer is dropped.
      pending.unwatch = this.aborts.watch(signal, () => {
        if (this.settle(running, pending)) reject(signal.reason);
      });
      this.send(running, line);
    });
  }

  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.stopping = true;
    this.failAll(running, () => new RetrieverError('crashed', `${this.identity} was closed while the request waited: the run has ended.`));
    running.child.stdin.end();
    if (await settlesWithin(running.exited, CLOSE_GRACE_MS)) return;
    running.child.kill('SIGTERM');
    if (await settlesWithin(running.exited, KILL_GRACE_MS)) return;
    running.child.kill('SIGKILL');
    await running.exited;
  }

  private start(): Running {
    const env = retrieverEnv(this.spec, this.env);
    const child = spawnRetriever(this.spec, env);
    let markExited!: () => void;
    const running: Running = {
      child, pending: new Map(), stderr: new StderrTail(), stdoutRest: '', lines: 0, queued: [], blocked: false, stopping: false, ended: false,
      exited: new Promise<void>((resolve) => { markExited = resolve; }),
    };
    this.running = running;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onStdout(running, chunk));
    child.stderr.on('data', (chunk: string) => running.stderr.add(chunk));
    // A write to a process that has died fails with EPIPE; its exit says why, so the write error adds nothing.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      // Not started at all (ENOENT, EACCES): every request sent to it fails with the reason; the next one tries again.
      if (child.pid !== undefined) return;
      this.ended(running);
      markExited();
      const failure = startError(this.spec, error);
      this.failAll(running, () => failure);
    });
    child.on('exit', (code, signal) => {
      markExited();
      // Its stdout ends with it, unless a program it started holds it open: then its exit decides, a moment later.
      setTimeout(() => this.onExit(running, code, signal), EXIT_GRACE_MS).unref();
    });
    child.on('close', (code, signal) => this.onExit(running, code, signal));
    return running;
  }

  /** The process is gone: unless we stopped it, the requests it had are failed as a crash. */
  private onExit(running: Running, code: number | null, signal: NodeJS.Signals | null): void {
    if (running.ended) return;
    this.ended(running);
    if (running.stopping) return;
    const waiting = running.pending.size;
    // An idle exit (no request waiting) is no crash: the next question starts it again.
    if (waiting === 0) return;
    this.crashesInARow++;
    this.lastCrash = `${describeExit(code, signal)}${running.stderr.describe()}`;
    const next = this.crashesInARow >= MAX_CRASHES_IN_A_ROW
      ? `It crashed ${this.crashesInARow} times in a row without answering, so it is not started again`
      : 'The next question starts it again';
    const message = `${this.identity} ${describeExit(code, signal)} while ${waiting} request${waiting === 1 ? '' : 's'} waited. ${next}${running.stderr.describe()}`;
    this.failAll(running, () => new RetrieverError('crashed', message));
  }

  private ended(running: Running): void {
    running.ended = true;
    if (this.running === running) this.running = undefined;
  }

  /** Writes a request line, holding further lines while stdin's buffer is full (stdin.write returned false). */
  private send(running: Running, line: string): void {
    if (running.ended) return;
    if (running.blocked) {
      running.queued.push(line);
      return;
    }
    if (!running.child.stdin.write(line)) {
      running.blocked = true;
      running.child.stdin.once('drain', () => this.drain(running));
    }
  }

  private drain(running: Running): void {
    running.blocked = false;
    const queued = running.queued;
    running.queued = [];
    for (const line of queued) this.send(running, line);
  }

  /** Splits stdout into lines, looking for line ends in the new chunk only (a long answer arrives in many chunks). */
  private onStdout(running: Running, chunk: string): void {
    let newline = chunk.indexOf('\n');
    if (newline < 0) {
      running.stdoutRest += chunk;
      if (running.stdoutRest.length > MAX_LINE_CHARS) {
        const text = running.stdoutRest;
        running.stdoutRest = '';
        this.failOldest(running, 'not-json', `printed more than ${MAX_LINE_CHARS} characters without a line end (${quoteText(text)})`);
      }
      return;
    }
    const first = running.stdoutRest + chunk.slice(0, newline);
    running.stdoutRest = '';
    this.onLine(running, first);
    let start = newline + 1;
    while ((newline = chunk.indexOf('\n', start)) >= 0) {
      this.onLine(running, chunk.slice(start, newline));
      start = newline + 1;
    }
    running.stdoutRest = chunk.slice(start);
  }

  /**
   * One stdout line. An answer goes to the request with its id; a late answer (its request timed out or was
   * cancelled) is dropped. Any other line (not JSON, no id, an id never sent) cannot be given to a request without
   * guessing, so the oldest waiting request fails with that line quoted: nothing is mis-assigned, and the
   * request's own answer, if it comes later, is dropped as late.
   */
  private onLine(running: Running, raw: string): void {
    running.lines++;
    // A Windows line end, and a byte-order mark some shells put before the first line, are not part of the JSON.
    const line = stripBom(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.failOldest(running, 'not-json', `printed a line that is not JSON: ${quoteText(line)}`);
      return;
    }
    const id = idOf(message);
    if (id === undefined) {
      this.failOldest(running, 'bad-shape', `printed a line with no "id" of a request: ${quoteText(line)}`);
      return;
    }
    const pending = running.pending.get(id);
    if (!pending) {
      if (this.wasSent(id)) return;
      this.failOldest(running, 'bad-shape', `answered the id "${quoteText(id)}", which no request has: ${quoteText(line)}`);
      return;
    }
    this.settle(running, pending);
    // A well-formed answer, even an error or a bad list, shows the script is working again.
    this.crashesInARow = 0;
    const answer = message as { error?: unknown; items?: unknown };
    if (answer.error !== undefined && answer.error !== null) {
      const words = typeof answer.error === 'string' ? answer.error : JSON.stringify(answer.error);
      pending.reject(new RetrieverError('reported', `${this.identity} answered request ${id} with an error: ${quoteText(words)}`));
      return;
    }
    try {
      const items = checkItems(answer.items, `${this.identity}, answer to request ${id}`);
      pending.resolve({ items, latencyMs: performance.now() - pending.startedAt, cached: false });
    } catch (error) {
      pending.reject(error);
    }
  }

  /** An id we sent at some time (ours are 1, 2, 3…): its request has since timed out or been cancelled. */
  private wasSent(id: string): boolean {
    return /^[1-9][0-9]*$/.test(id) && Number(id) <= this.lastId;
  }

  private failOldest(running: Running, kind: 'not-json' | 'bad-shape', words: string): void {
    const oldest = running.pending.values().next().value;
    if (!oldest || !this.settle(running, oldest)) return;
    oldest.reject(new RetrieverError(kind, `${this.identity} ${words}. Request ${oldest.id}, the oldest waiting, fails in its place. Every stdout line must be an answer {"id": "<the request's id>", "items": [...]}; print logs on stderr.`));
  }

  /**
   * A request with no answer within timeoutMs fails; the process keeps serving the others. But a process that has
   * printed nothing at all since that request was sent is taken as hung: it is stopped (its other requests fail
   * now rather than each at its own timeout) and the next question starts it again. A hang counts as a crash.
   */
  private timedOut(running: Running, pending: Pending): void {
    if (!this.settle(running, pending)) return;
    const limit = `within ${this.spec.timeoutMs} ms (the retriever's timeoutMs)`;
    if (running.lines !== pending.linesAtSend || running.ended) {
      pending.reject(new RetrieverError('timeout', `${this.identity} did not answer request ${pending.id} ${limit}; it keeps running for the other questions.`));
      return;
    }
    running.stopping = true;
    this.crashesInARow++;
    const stderr = running.stderr.describe();
    this.lastCrash = `printed nothing for ${this.spec.timeoutMs} ms${stderr}`;
    pending.reject(new RetrieverError('timeout', `${this.identity} did not answer request ${pending.id} ${limit} and printed nothing since it was sent, so it is taken as hung and stopped; the next question starts it again. Does it flush stdout after each answer (Python: print(..., flush=True))? If it needs longer, e.g. to load an index, raise timeoutMs${stderr}`));
    this.failAll(running, () => new RetrieverError('timeout', `${this.identity} was stopped as hung (nothing printed for ${this.spec.timeoutMs} ms) while this request waited; the next question starts it again${stderr}`));
    this.ended(running);
    running.child.kill('SIGKILL');
  }

  /** Takes the request out of waiting; false when it was already settled (answered, timed out, cancelled). */
  private settle(running: Running, pending: Pending): boolean {
    if (running.pending.get(pending.id) !== pending) return false;
    running.pending.delete(pending.id);
    clearTimeout(pending.timer);
    pending.unwatch();
    return true;
  }

  private failAll(running: Running, error: () => unknown): void {
    for (const pending of [...running.pending.values()]) {
      if (this.settle(running, pending)) pending.reject(error());
    }
  }
}

function idOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const id = (message as { id?: unknown }).id;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
