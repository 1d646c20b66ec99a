// The run log followed as it is written: each case line read back as a reader of the file reads it (run/logTail.ts)
// and fed, in log order, to the suites' tables and to the host's follower (the CLI's reports), so that when the last
// case is logged only the writing of the tables and reports remains. A resumed run's earlier cases are read from the
// log once, first.
import { caseKey, splitCaseKey } from '../model.js';
import { readCaseLines, scanRunLog } from '../run/runLog.js';
import type { CaseLine, RunHeader, RunLogProblem, RunLogWriter, SummaryLine } from '../run/runLog.js';
import type { SuitePlan } from './plan.js';
import { TablesCounter } from './tablesFromLog.js';

/** Told of a run's log as it is written (RunOptions.follower). */
export interface LogFollower {
  /** Once the log exists, before any case: its header as a reader reads it. */
  start(header: RunHeader, logFile: string): void;
  /** Each (case, model) that counts, in log order, as it is logged (a resumed run's earlier ones first); awaited. */
  add(line: CaseLine): Promise<void>;
}

/** What a follower was given, against what a reader of the finished log reads (runDataFromLog). */
export interface FollowedLog {
  header: RunHeader;
  /** The summary line as read back. */
  summary: SummaryLine | undefined;
  /** What the log's scan reports (lines of a resumed log's earlier sessions that could not be read). */
  problems: RunLogProblem[];
  /** How many (case, model) pairs the log holds: the scan's count. */
  cases: number;
  /**
   * False when the lines given are not those a reader of the log reads, in its order: a line that could not be read
   * back, or a resumed run's pair set to run again (--retry-errors) that was not, whose earlier line counts where it
   * stands. The follower's output must then come from the log.
   */
  exact: boolean;
}

/** Lines written before they are read back and fed: a few dozen cases. */
const READ_BACK_LINES = 256;

/**
 * At most this long between a line being written and its being fed. A run waiting on a server writes a case every few
 * ms and is idle in between: the lines are fed in those pauses, a few cases at a time, instead of in bursts of
 * hundreds that hold up the answers arriving meanwhile and leave the last ones' feeding until after the last answer.
 * A run kept busy by its own work (the extractive reader) still feeds hundreds together.
 */
const FEED_WITHIN_MS = 20;

/** Forgets a case once as many of its lines as there are models were fed: one model keeps nothing. */
class FirstLineOfCase {
  private readonly seen = new Map<string, number>();
  constructor(private readonly models: number) {}

  check(line: CaseLine): boolean {
    if (this.models <= 1) return true;
    const id = line.result.caseId;
    const count = (this.seen.get(id) ?? 0) + 1;
    if (count >= this.models) this.seen.delete(id);
    else this.seen.set(id, count);
    return count === 1;
  }
}

/**
 * Starts following `writer`'s log: the follower told the header, a resumed log's earlier cases (`finished`: the pairs
 * not run again) fed from the file, read once. `fed()` feeds what was logged since; `end()` after the summary is written.
 */
export async function followLog(writer: RunLogWriter, suites: readonly SuitePlan[], resumed: { finished: ReadonlySet<string> } | undefined, modelKeys: readonly string[], follower?: LogFollower) {
  const tail = writer.readBack();
  follower?.start(writer.header, writer.file);
  const finished = resumed?.finished ?? new Set<string>();
  const scan = resumed ? await scanRunLog(writer.file) : undefined;
  // Pairs of the earlier sessions to be run again: each must be logged again for the lines fed to be the log's.
  const rerun = new Set<string>();
  const models = new Set(modelKeys);
  for (const key of scan?.winners.keys() ?? []) {
    models.add(splitCaseKey(key).modelKey);
    if (!finished.has(key)) rerun.add(key);
  }
  const problems = [...(scan?.problems ?? [])];
  const earlier = scan?.winners.size ?? 0;
  const retried = rerun.size;
  const first = new FirstLineOfCase(models.size);
  const tables = new TablesCounter(suites, (line) => first.check(line));
  let logged = 0;
  const feed = async (line: CaseLine) => {
    tables.add(line);
    await follower?.add(line);
  };
  if (scan) {
    for await (const line of readCaseLines(scan)) if (finished.has(caseKey(line.result.caseId, line.result.modelKey))) await feed(line);
  }
  let chain: Promise<void> = Promise.resolve();
  let feedSoon: NodeJS.Timeout | undefined;
  const flush = (): Promise<void> => {
    clearTimeout(feedSoon);
    feedSoon = undefined;
    chain = chain.then(async () => {
      for (const line of await tail.take()) {
        logged += 1;
        rerun.delete(caseKey(line.result.caseId, line.result.modelKey));
        await feed(line);
      }
    });
    return chain;
  };
  return {
    tables,
    /**
     * Feeds the cases logged since it last fed, in order, once enough lines wait (read back together, the decoding
     * stays in a tight loop instead of between each case's other work); the run waits for that feeding.
     */
    fed: (): Promise<void> => {
      if (tail.unread >= READ_BACK_LINES) return flush();
      // A failure of this feeding stays in the chain: the run meets it at its next `fed` or `flush`.
      if (tail.unread > 0 && !feedSoon) feedSoon = setTimeout(() => void flush().catch(() => undefined), FEED_WITHIN_MS).unref();
      return chain;
    },
    /** Feeds every case logged: before the tables are finished. */
    flush,
    exact: () => tail.exact && rerun.size === 0,
    /** After the summary line is written. */
    end(): FollowedLog {
      return { header: writer.header, summary: tail.summary, problems, cases: earlier + logged - retried, exact: tail.exact && rerun.size === 0 };
    },
    close: () => {
      clearTimeout(feedSoon);
      return tail.close();
    },
  };
}
