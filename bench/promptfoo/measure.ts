// Runs one tool under /usr/bin/time -v (CPU and peak RSS of its whole process tree) with a time limit, and reads the figures back.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export const TIME_BIN = '/usr/bin/time';

export interface Measured {
  wallMs: number;
  /** User + system CPU of the tool and every descendant it waited for (getrusage RUSAGE_CHILDREN, via time -v). */
  cpuMs: number;
  userMs: number;
  systemMs: number;
  /** Largest resident set of any one process of the tree. */
  peakRssBytes: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The 1-minute load average when the run started. */
  loadAtStart: number;
}

export interface RunSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** stdout and stderr of the tool go here. */
  logFile: string;
  timeFile: string;
  timeoutMs: number;
  loadAtStart: number;
}

function field(text: string, label: string): number {
  const match = new RegExp(`^\\s*${label.replace(/[()]/g, '\\$&')}: (.+)$`, 'm').exec(text);
  if (!match) throw new Error(`time -v output has no "${label}"`);
  return Number(match[1]);
}

export function checkTimeBinary(): void {
  if (!existsSync(TIME_BIN)) throw new Error(`${TIME_BIN} is missing: apt-get install time`);
}

/** Spawns the tool in its own process group so a run past its limit can be stopped whole (kill -- -pgid). */
export function measure(spec: RunSpec): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const log = openSync(spec.logFile, 'w');
    const started = performance.now();
    const child = spawn(TIME_BIN, ['-v', '-o', spec.timeFile, spec.command, ...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['ignore', log, log],
      detached: true,
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, spec.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      closeSync(log);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      const wallMs = performance.now() - started;
      clearTimeout(timer);
      closeSync(log);
      // Anything the tool left running in its own process group (none expected) goes with it.
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
      if (signal) return reject(new Error(`${spec.command} was stopped by ${signal} (limit ${spec.timeoutMs / 1000} s); log: ${spec.logFile}`));
      try {
        const text = readFileSync(spec.timeFile, 'utf8');
        const userMs = field(text, 'User time (seconds)') * 1000;
        const systemMs = field(text, 'System time (seconds)') * 1000;
        resolve({
          wallMs,
          cpuMs: userMs + systemMs,
          userMs,
          systemMs,
          peakRssBytes: field(text, 'Maximum resident set size (kbytes)') * 1024,
          exitCode: field(text, 'Exit status'),
          signal: null,
          loadAtStart: spec.loadAtStart,
        });
      } catch (error) {
        reject(new Error(`${String(error)} (exit code ${code}); log: ${spec.logFile}`));
      }
    });
  });
}
