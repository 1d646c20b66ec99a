// Runs a snippet of code in a child Node process with a heap limit and a time limit, so a test of memory or speed fails
// (out of memory, or killed) instead of swapping the machine or stalling the suite.
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ChildLimits {
  /** V8's old-space limit (`--max-old-space-size`), in MB. */
  heapMb: number;
  /** Generous: the child is killed after this long, so a hang or a quadratic slowdown fails instead of stalling. */
  timeoutMs: number;
}

/**
 * Evaluates CommonJS `code` (TypeScript modules of the repository load through tsx: `require('./src/…ts')`, paths
 * relative to the repository root) in a child process under `limits`.
 */
export function runBoundedChild(code: string, limits: ChildLimits): Promise<ChildExit> {
  const child = spawn(process.execPath, [`--max-old-space-size=${limits.heapMb}`, '--import', 'tsx', '-e', code], { cwd: REPO, env: { ...process.env, CI: 'true' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const timer = setTimeout(() => child.kill('SIGKILL'), limits.timeoutMs);
  return new Promise((resolve) => child.on('close', (code, signal) => {
    clearTimeout(timer);
    resolve({ code, signal, stdout, stderr });
  }));
}

/** A readable failure message: how the child ended and the tail of what it printed. */
export function describeExit(exit: ChildExit): string {
  return `exit ${exit.code ?? exit.signal}: ${(exit.stderr + exit.stdout).slice(-2000)}`;
}
