// One whole process timed as a user meets it: wall time from the caller, CPU from /usr/bin/time (the child's own accounting).
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface Timing {
  wallMs: number;
  cpuMs: number;
  /** The process's peak resident set, in MiB. */
  peakMiB: number;
}

/**
 * Runs `command` in `cwd` with a fixture key set (and `env`); an exit code outside `okCodes` throws with the end of its
 * stderr.
 */
export function timedProcess(command: string[], cwd: string, okCodes: readonly number[] = [0], env: Record<string, string> = {}): Timing {
  const started = performance.now();
  const child = spawnSync('/usr/bin/time', ['-f', '%U %S %M', ...command], { cwd, encoding: 'utf8', env: { ...process.env, OPENAI_API_KEY: 'sk-fixture-key-for-the-bench-0000', ...env } });
  const wallMs = performance.now() - started;
  const last = child.stderr.trim().split('\n').pop() ?? '';
  const [user, system, peakKiB] = last.split(' ').map(Number);
  if (child.status === null || !okCodes.includes(child.status)) throw new Error(`${command.join(' ')} exited with ${child.status}: ${child.stderr.slice(-1000)}`);
  return { wallMs, cpuMs: ((user ?? NaN) + (system ?? NaN)) * 1000, peakMiB: (peakKiB ?? NaN) / 1024 };
}
