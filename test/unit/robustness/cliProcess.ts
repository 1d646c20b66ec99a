// The rag-inspector CLI in a child process: bundled once per test file from src/cli (as esbuild.mjs bundles dist/cli.js) into the OS temp dir.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { build } from 'esbuild';

const REPO = path.resolve(__dirname, '../../..');

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<CliExit>;
}

let bundle: Promise<string> | undefined;
let bundleDir: string | undefined;

after(() => {
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

/**
 * A bundle starts in a fraction of the time `--import tsx` takes, which matters for tests that run the CLI dozens of
 * times. It finds its built-in prompts and the webview bundle (for report.html) the way an installed CLI does: beside
 * a package.json named rag-inspector.
 */
export function cliBundle(): Promise<string> {
  bundle ??= (async () => {
    bundleDir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-cli-'));
    const file = path.join(bundleDir, 'cli.cjs');
    await build({ entryPoints: [path.join(REPO, 'src/cli/main.ts')], outfile: file, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error' });
    // node_modules beside it, as an npm-installed CLI has.
    symlinkSync(path.join(REPO, 'node_modules'), path.join(bundleDir, 'node_modules'));
    writeFileSync(path.join(bundleDir, 'package.json'), JSON.stringify({ name: 'rag-inspector', private: true }));
    symlinkSync(path.join(REPO, 'prompts'), path.join(bundleDir, 'prompts'));
    mkdirSync(path.join(bundleDir, 'dist'));
    // The HTML report embeds the built inspector; `npm run test:unit` builds it first.
    symlinkSync(path.join(REPO, 'dist', 'webview.js'), path.join(bundleDir, 'dist', 'webview.js'));
    // The vendor SDKs are loaded from beside the bundle on first use (src/core/vendor/load.ts); built by the same step.
    symlinkSync(path.join(REPO, 'dist', 'vendor'), path.join(bundleDir, 'vendor'));
    // Likewise the tokenizer tables (src/core/prompt/encodings.ts), which a cost estimate reads.
    symlinkSync(path.join(REPO, 'dist', 'encodings'), path.join(bundleDir, 'encodings'));
    return file;
  })();
  return bundle;
}

/**
 * Starts `rag-inspector <args>` with a bare environment (plus `env`): no key or base URL of the developer's shell
 * reaches a test, and CI=true gives plain progress lines.
 */
export async function startCli(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliRun> {
  const file = await cliBundle();
  const child = spawn(process.execPath, [file, ...args], { env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), CI: 'true', ...env }, ...(cwd ? { cwd } : {}) });
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character whose bytes are split between two chunks (Chinese text in a JSON line) stays whole.
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk) => { stdout += chunk; });
  child.stderr?.on('data', (chunk) => { stderr += chunk; });
  const done = new Promise<CliExit>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

/** Runs the CLI to its end; killed after `timeoutMs` so a hang fails the test instead of stalling the suite. */
export async function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000, cwd?: string): Promise<CliExit> {
  const { child, done } = await startCli(args, env, cwd);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    return await done;
  } finally {
    clearTimeout(timer);
  }
}
