// `npm run test:integration`: the mocha suite inside a real VS Code extension host (code-server), then the workbench UI tests.
//
// The workbench honours ?payload=[["extensionDevelopmentPath",…],["extensionTestsPath",…]] (code-server started
// with enable-smoke-test-driver) exactly like `code --extensionTestsPath`, and calls window.codeAutomationExit(code)
// when the suite ends. Env: E2E_TIMEOUT_MS (whole run, default 10 min), E2E_SKIP_WORKBENCH=1, E2E_KEEP=1 (keep run dirs),
// E2E_ONLY=<part of a test file's name> (run those files only).
// `--build-only` only bundles the suite (for runElectron.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { closingLine, mochaCounts } from './lib/checks.mjs';
import { assertInstalled, E2E, launchBrowser, log, remoteUri, ROOT, startCodeServer, workbenchUrl } from './lib/codeServer.mjs';

const TOTAL_TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 10 * 60_000);
const SUITE_TIMEOUT_MS = Number(process.env.E2E_SUITE_TIMEOUT_MS ?? 5 * 60_000);
const SUITE_SRC = path.join(ROOT, 'test/integration/suite');
const SUITE_OUT = path.join(E2E, 'out/suite');
const FIXTURE_EXTENSION = path.join(ROOT, 'test/integration/fixtureExtension');

const cleanups = [];
/** For the closing line: mocha's tests plus the workbench test's checks. */
const tally = { passed: 0, failed: 0 };
let exiting = false;
async function finish(code) {
  if (exiting) return;
  exiting = true;
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  process.exit(code);
}

// Nothing may keep CI waiting: past the deadline everything started here is killed.
const hardStop = setTimeout(() => {
  console.error(`test:integration: overall timeout of ${TOTAL_TIMEOUT_MS / 1000}s reached; killing code-server and the browser`);
  void finish(124);
}, TOTAL_TIMEOUT_MS);
hardStop.unref();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void finish(130));

/** Bundles each *.test.ts on its own (mocha loads them one by one) plus index.ts, the extensionTestsPath entry. */
async function buildSuite() {
  rmSync(SUITE_OUT, { recursive: true, force: true });
  mkdirSync(SUITE_OUT, { recursive: true });
  // E2E_ONLY=corpus bundles index.ts and the test files whose name contains it: one file while working on it.
  const only = process.env.E2E_ONLY;
  const entries = readdirSync(SUITE_SRC).filter((f) => f === 'index.ts' || (f.endsWith('.test.ts') && (!only || f.includes(only)))).map((f) => path.join(SUITE_SRC, f));
  await esbuild.build({
    entryPoints: entries,
    outdir: SUITE_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
    // vscode is provided by the extension host; mocha is loaded from node_modules (it requires its reporters dynamically).
    external: ['vscode', 'mocha'],
  });
  return entries.length - 1;
}

async function runSuite() {
  // The fixture extension contributes the chat-model vendor of the vscode-lm tests' scripted models, so the product's
  // manifest need not. code-server loads one extensionDevelopmentPath only, so it comes as an installed extension.
  const server = await startCodeServer('suite', { installed: [FIXTURE_EXTENSION] });
  cleanups.push(async () => server.stop({ keepFiles: process.env.E2E_KEEP === '1' }));
  log(`code-server on ${server.host} (pid group ${server.pid}), workspace ${server.workspace}`);
  const mochaOut = path.join(server.runDir, 'mocha.txt');
  const payload = [
    ['extensionDevelopmentPath', remoteUri(server, ROOT)],
    ['extensionTestsPath', remoteUri(server, path.join(SUITE_OUT, 'index.js'))],
    // The suite writes mocha's report here (extension-host stdout is not ours to read) and finds the logs.
    ['extensionEnvironment', JSON.stringify({ RAG_E2E_MOCHA_OUT: mochaOut, RAG_E2E_USER_DATA: server.userData })],
  ];
  const browser = await launchBrowser();
  cleanups.push(() => browser.close());
  const { page } = browser;
  page.on('pageerror', (error) => { if (process.env.VERBOSE) console.log('[pageerror]', error.message); });
  page.on('console', (message) => { if (process.env.VERBOSE) console.log('[browser]', message.text().slice(0, 300)); });

  let exit;
  const exited = new Promise((resolve) => { exit = resolve; });
  await page.exposeFunction('codeAutomationExit', (code) => exit(code));
  await page.goto(workbenchUrl(server, payload));

  // Mirror the report while it is written, so a hang shows where it hung.
  let printed = 0;
  const tail = () => {
    if (!existsSync(mochaOut)) return;
    const text = readFileSync(mochaOut, 'utf8');
    process.stdout.write(text.slice(printed));
    printed = text.length;
  };
  const ticker = setInterval(tail, 500);
  const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), SUITE_TIMEOUT_MS))]);
  clearInterval(ticker);
  tail();
  const counts = existsSync(mochaOut) ? mochaCounts(readFileSync(mochaOut, 'utf8')) : undefined;
  tally.passed += counts?.passed ?? 0;
  tally.failed += counts ? counts.failed : 1;
  if (code === 'timeout' || printed === 0) {
    const shot = path.join(E2E, 'screenshots/suite-failure.png');
    mkdirSync(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot }).catch(() => undefined);
    console.error(code === 'timeout'
      ? `extension tests did not finish within ${SUITE_TIMEOUT_MS / 1000}s (screenshot: ${shot}; server log: ${server.logFile})`
      : `the extension host ran no tests (screenshot: ${shot}); is extensionTestsPath right? server log: ${server.logFile}`);
    if (process.env.E2E_KEEP !== '1') console.error(readFileSync(server.logFile, 'utf8').split('\n').slice(-40).join('\n'));
    return 1;
  }
  return code;
}

/** A driver script (workbench.mjs, crashResume.mjs, batchReload.mjs, restrictedMode.mjs) in its own process; resolves with its exit code. */
function runDriver(script) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'test/integration', script)], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(async () => { if (child.exitCode === null) child.kill('SIGTERM'); });
    // Passed through as it comes; its "PASS (N checks)" line gives the count for the closing line.
    let checks = 0;
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const match = /PASS \((\d+) checks\)/.exec(chunk.toString());
      if (match) checks = Number(match[1]);
    });
    // 'close', not 'exit': the last output may still be on its way when the process exits.
    child.on('close', (code, signal) => {
      const exitCode = code ?? (signal ? 1 : 0);
      tally.passed += checks;
      if (exitCode !== 0) tally.failed += 1;
      resolve(exitCode);
    });
  });
}

async function main() {
  const started = Date.now();
  const files = await buildSuite();
  log(`suite bundled (${files} test files) into ${path.relative(ROOT, SUITE_OUT)}`);
  // runElectron.ts reuses the same bundle with @vscode/test-electron.
  if (process.argv.includes('--build-only')) return finish(0);
  assertInstalled();
  const suiteCode = await runSuite();
  log(`extension-host suite: exit code ${suiteCode} after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  let workbenchCode = 0;
  if (process.env.E2E_SKIP_WORKBENCH !== '1') {
    // The UI tests after the suite: the palette and inspector, an extension-host crash and Resume Interrupted Run, a
    // batch run through a window reload, then VS Code's real Restricted Mode on a hostile folder (workspace trust on) and trusting it.
    for (const [script, what] of [['workbench.mjs', 'workbench UI test'], ['crashResume.mjs', 'crash/resume test'], ['batchReload.mjs', 'batch reload test'], ['restrictedMode.mjs', 'Restricted Mode test']]) {
      const t = Date.now();
      const code = await runDriver(script);
      log(`${what}: exit code ${code} after ${((Date.now() - t) / 1000).toFixed(1)}s`);
      if (code !== 0) workbenchCode = code;
    }
  }
  log(`total ${((Date.now() - started) / 1000).toFixed(1)}s`);
  console.log(closingLine(tally.passed, tally.failed));
  await finish(suiteCode === 0 && workbenchCode === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(`test:integration: ${error instanceof Error ? error.message : String(error)}`);
  console.log(closingLine(tally.passed, tally.failed + 1));
  void finish(1);
});
