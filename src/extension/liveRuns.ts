// Marks which process is writing a run log, so a window can tell a run another window is running from one whose extension host died.
//
// A log without a summary says only "started": running, or interrupted. Resuming a run that is still running would
// have two processes append to one log, so each window leaves a small marker (pid, hostname) for the run it runs,
// in the extension's global storage (shared by every window of this VS Code, invisible in the workspace). A marker
// whose process is gone means the run was interrupted; it is removed when the run ends or is resumed.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { processAlive } from '../core/run/runLogLock.js';

export interface LiveRunMarker {
  logFile: string;
  runId: string;
  pid: number;
  hostname: string;
}

/** Where the markers live under the extension's global storage; the inspector's listing and Resume read the same folder. */
export function liveRunMarkersDir(globalStorage: string): string {
  return path.join(globalStorage, 'live-runs');
}

export class LiveRunMarkers {
  constructor(private readonly dir: string) {}

  /** Called when this process starts (or resumes) writing `logFile`. */
  mark(logFile: string, runId: string): void {
    mkdirSync(this.dir, { recursive: true });
    const marker: LiveRunMarker = { logFile: path.normalize(logFile), runId, pid: process.pid, hostname: hostname() };
    writeFileSync(this.fileOf(logFile), JSON.stringify(marker));
  }

  /** Called when the run ends, however it ends (a summary is written, or the engine threw). */
  clear(logFile: string): void {
    rmSync(this.fileOf(logFile), { force: true });
  }

  get(logFile: string): LiveRunMarker | undefined {
    try {
      const value = JSON.parse(readFileSync(this.fileOf(logFile), 'utf8')) as Partial<LiveRunMarker>;
      if (typeof value.pid !== 'number' || typeof value.hostname !== 'string' || typeof value.logFile !== 'string') return undefined;
      return value as LiveRunMarker;
    } catch {
      return undefined;
    }
  }

  /** Markers of dead processes of this machine whose log is not among `started` any more (finished or deleted). */
  prune(started: ReadonlySet<string>, isAlive: (pid: number) => boolean = processAlive): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const file = path.join(this.dir, name);
      let marker: Partial<LiveRunMarker>;
      try {
        marker = JSON.parse(readFileSync(file, 'utf8')) as Partial<LiveRunMarker>;
      } catch {
        rmSync(file, { force: true });
        continue;
      }
      const dead = marker.hostname === hostname() && typeof marker.pid === 'number' && !isAlive(marker.pid);
      if (dead && typeof marker.logFile === 'string' && !started.has(path.normalize(marker.logFile))) rmSync(file, { force: true });
    }
  }

  private fileOf(logFile: string): string {
    return path.join(this.dir, `${createHash('sha256').update(path.normalize(logFile)).digest('hex').slice(0, 32)}.json`);
  }
}

export { processAlive };

export const thisHostname = hostname;
