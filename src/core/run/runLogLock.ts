// One writer per run log: a run log being written is locked by an advisory lock file beside it, `<log>.lock`,
// holding the writer's pid. Two processes appending to one log (two `--resume`s, a resume while the run still runs,
// the extension and the CLI) would both rerun the missing cases, paying every call twice, and number their shared
// values independently; the second is refused instead, with the pid and what to do. A lock whose process is gone (a
// crash, a kill) is stale and taken over.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { InputError } from '../errors.js';

interface LockHolder {
  pid: number;
  host: string;
  since: string;
  /** Tells this lock from a later one taken by a process that got the same pid. */
  token: string;
}

/** A second writer of a run log: the log is being written by the process named. */
export class RunLogLockedError extends InputError {
  constructor(readonly logFile: string, readonly lockFile: string, readonly holder: LockHolder) {
    super(
      { file: logFile },
      `this run log is being written by another RAG Inspector process (pid ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}, since ${holder.since}); a run log has one writer at a time`,
      `wait for that run to finish, or stop it (Ctrl-C, or Cancel in VS Code), then resume again; if no RAG Inspector process is running, delete ${lockFile}`,
    );
    this.name = 'RunLogLockedError';
  }
}

/** The locks this process holds: a process that exits without closing its writers (process.exit on a second Ctrl-C) leaves none behind. */
const held = new Set<RunLogLock>();
let releaseOnExit = false;

/** Held by a RunLogWriter from before its first write until it closes. */
export class RunLogLock {
  private constructor(readonly file: string, private readonly token: string) {
    held.add(this);
    if (!releaseOnExit) {
      releaseOnExit = true;
      process.once('exit', () => {
        for (const lock of [...held]) lock.release();
      });
    }
  }

  /** Takes the lock of `logFile`, or throws RunLogLockedError naming the process that holds it. */
  static acquire(logFile: string): RunLogLock {
    const file = `${logFile}.lock`;
    const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token: randomBytes(8).toString('hex') };
    // A few tries: each stale lock removed may be replaced by another process's live one in between.
    for (let attempt = 0; attempt < 5; attempt++) {
      if (createExclusive(file, `${JSON.stringify(holder)}\n`)) return new RunLogLock(file, holder.token);
      const current = readHolder(file);
      if (current === 'gone') continue;
      if (current !== 'unreadable' && isAlive(current)) throw new RunLogLockedError(logFile, file, current);
      // Stale (its process is gone) or not a lock this product wrote: removed, and taken on the next try.
      try {
        unlinkSync(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    const current = readHolder(file);
    throw new RunLogLockedError(logFile, file, typeof current === 'object' ? current : { pid: 0, host: hostname(), since: 'unknown', token: '' });
  }

  /** Removes the lock file, if it is still this lock's (idempotent). */
  release(): void {
    if (!held.delete(this)) return;
    const current = readHolder(this.file);
    if (typeof current !== 'object' || current.token !== this.token) return;
    try {
      unlinkSync(this.file);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

/**
 * Creates `file` with `text` only if it does not exist, atomically with its content (written to a temporary file
 * and hard-linked into place), so no reader ever sees an empty lock. False when the file exists.
 */
function createExclusive(file: string, text: string): boolean {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, text, { flag: 'wx' });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: an exclusive create (the content follows at once).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      try {
        writeFileSync(file, text, { flag: 'wx' });
        return true;
      } catch (fallback) {
        if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw fallback;
      }
    }
    throw error;
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // Best effort: a left-over temporary file is harmless.
    }
  }
}

function readHolder(file: string): LockHolder | 'gone' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isInteger(value.pid) && typeof value.host === 'string' && typeof value.since === 'string' && typeof value.token === 'string') return value as LockHolder;
  } catch {
    // Not a lock this product wrote.
  }
  return 'unreadable';
}

/** Whether the lock's process still runs; one on another machine (a shared folder) cannot be checked, so it counts as running. */
function isAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  return holder.pid === process.pid || processAlive(holder.pid);
}

/** Signal 0 checks that a process exists; EPERM means it exists but belongs to someone else. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
