// A run's reports written while it goes: each case, as the engine logs it and reads it back (engine/followLog.ts), is
// handed to the report writers of one pass (reportPass.ts), so after the last case only what waited for the totals is
// written. The run data the writers see is the one a reader of the finished log builds (runDataFromLog), field by field.
import type { FollowedLog, LogFollower } from '../engine/followLog.js';
import { outcomeStatus } from '../model.js';
import type { CaseLine, RunHeader } from '../run/runLog.js';
import type { RunData, RunEntry } from './runData.js';
import { runDataFromLog } from './runDataSources.js';

/** Entries waiting for the writers at most: the run waits beyond that, so a slow disk cannot fill memory. */
const QUEUED = 256;

/** Entries handed from the run to the writers' pass, in order, with back-pressure. */
class EntryChannel implements AsyncIterable<RunEntry> {
  private readonly queue: RunEntry[] = [];
  private closed = false;
  /** Set once the reading side has stopped (the writers failed): entries are dropped from then on. */
  private abandoned = false;
  private failure: { error: unknown } | undefined;
  private wakeReader: (() => void) | undefined;
  private wakeWriters: (() => void)[] = [];

  async push(entry: RunEntry): Promise<void> {
    if (this.abandoned) return;
    this.queue.push(entry);
    this.wake();
    if (this.queue.length >= QUEUED) await new Promise<void>((resolve) => this.wakeWriters.push(resolve));
  }

  close(failure?: { error: unknown }): void {
    this.closed = true;
    this.failure = failure;
    this.wake();
  }

  /** The reading side stopped: nothing more is queued, and whoever waits for room goes on. */
  abandon(): void {
    this.abandoned = true;
    this.queue.length = 0;
    this.release();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RunEntry> {
    try {
      for (;;) {
        const entry = this.queue.shift();
        if (entry) {
          if (this.queue.length < QUEUED / 2) this.release();
          yield entry;
          continue;
        }
        if (this.failure) throw this.failure.error;
        if (this.closed) return;
        await new Promise<void>((resolve) => { this.wakeReader = resolve; });
      }
    } finally {
      this.abandon();
    }
  }

  private wake(): void {
    const wake = this.wakeReader;
    this.wakeReader = undefined;
    wake?.();
  }

  private release(): void {
    const waiting = this.wakeWriters;
    this.wakeWriters = [];
    for (const resolve of waiting) resolve();
  }
}

/** The run's fields the writers may read only once it ended (before `finish`), set then. */
type EndFields = Pick<RunData, 'status' | 'totals' | 'reports' | 'thresholds' | 'problems' | 'caseCount'>;

/**
 * A follower (RunOptions.follower) that writes reports as the run goes. `write` is the host's report writing
 * (writeReports with its folder and formats), given the run once its log exists; its run data's `entries()` is the
 * live stream on its first call and the log read back on later ones (a baseline comparison, a trace export).
 */
export class LiveReports<T> implements LogFollower {
  private readonly channel = new EntryChannel();
  private run: (RunData & { live: true }) | undefined;
  private writing: Promise<T> | undefined;

  constructor(private readonly write: (run: RunData) => Promise<T>) {}

  start(header: RunHeader, logFile: string): void {
    const channel = this.channel;
    let streamed = false;
    const pending = (): never => {
      throw new Error('the run has not ended: its totals and tables are not known yet');
    };
    const run: RunData & { live: true } = {
      live: true,
      runId: header.runId,
      name: header.spec.name,
      specFile: header.spec.file,
      createdAt: header.createdAt,
      models: header.models,
      logFile,
      get status() { return pending(); },
      get totals() { return pending(); },
      get reports() { return pending(); },
      get thresholds() { return pending(); },
      get problems() { return pending(); },
      get caseCount() { return pending(); },
      entries() {
        if (streamed) return logEntries(logFile);
        streamed = true;
        return channel;
      },
    };
    this.run = run;
    this.writing = this.write(run);
    // A writer that fails (a full disk) stops taking cases; the run goes on, and `finish` throws its error.
    this.writing.catch(() => this.channel.abandon());
  }

  add(line: CaseLine): Promise<void> {
    return this.channel.push({ evalCase: line.case, result: line.result });
  }

  /**
   * After the run: the run data completed as a reader of its log would build it, then the writers finished. Undefined
   * when the run gave what cannot be written live (followed.exact false: write from the log instead).
   */
  async finish(followed: FollowedLog, before?: (run: RunData) => Promise<void>): Promise<{ run: RunData; written: T } | undefined> {
    const run = this.run;
    if (!run || !this.writing) return undefined;
    if (!followed.exact || !followed.summary) {
      await this.abandon(new Error('the run log is read back instead'));
      return undefined;
    }
    const { summary } = followed;
    const file = run.logFile!;
    const end: EndFields = {
      status: outcomeStatus(summary.status, summary.totals),
      totals: summary.totals,
      reports: summary.reports,
      thresholds: summary.thresholds,
      problems: [...summary.problems, ...followed.problems.map((p) => ({ file, line: p.line, message: `run log: ${p.message}` }))],
      caseCount: followed.cases,
    };
    for (const [key, value] of Object.entries(end)) Object.defineProperty(run, key, { value, enumerable: true, writable: true });
    await before?.(run);
    this.channel.close();
    return { run, written: await this.writing };
  }

  /** The run failed: the writers stop and remove what they started (no report files are left). */
  async abandon(error: unknown): Promise<void> {
    this.channel.close({ error });
    await this.writing?.catch(() => undefined);
  }
}

/** The run's entries read back from its log (it has ended: every line is there). */
async function* logEntries(file: string): AsyncGenerator<RunEntry> {
  yield* (await runDataFromLog(file)).entries();
}
