// A real extension-host crash mid-run, then Resume Interrupted Run: every case logged exactly once, no finished case sent to the model again.
//
// A code-server workbench (headless Chromium) opens a folder with one eval file: 120 RGB cases on an OpenAI-compatible
// endpoint served by the fixture LLM server (150 ms per answer, 4 calls at once; a local server with no key, so the
// eval file names none). Run Evaluation is started from the command palette; once the run log holds >= 20 case lines
// the extension host process is SIGKILLed. The page is reloaded (a new extension host), the "interrupted" notice must
// appear, and Resume Interrupted Run is started from the palette. Then, from the log and the server's own record:
// each case has one case line; a case finished before the kill was sent once; a case in flight at the kill was sent at
// most twice; the others once, after the kill. Screenshots in .e2e/screenshots/crash-*.png.
// Env: E2E_TIMEOUT_MS (default 5 min), E2E_KEEP=1.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { Checks } from './lib/checks.mjs';
import { assertInstalled, launchBrowser, log, remoteUri, ROOT, startCodeServer, workbenchUrl } from './lib/codeServer.mjs';
import { driverCleanUp, landmarkCaseId, writeLandmarkWorkspace } from './lib/driver.mjs';
import { channelLog, runCommand, runCommandAndPick, shot, SHOTS, waitFor, waitForLog } from './lib/workbench.mjs';
import { readLogLines, runLogsIn } from './lib/runLogLines.mjs';
import { askServer, startLlmServerProcess } from './lib/llmServerProcess.mjs';

const CASES = 120;
const CONCURRENCY = 4;
const LATENCY_MS = 150;
const KILL_AFTER = 20;
const EVAL_NAME = 'crash-resume';

const checks = new Checks();
let server;
let browser;
let llm;
const cleanUp = driverCleanUp('crash/resume test', 5 * 60_000, () => ({ browser, server, llm }));

const must = (ok, what, detail) => checks.must(ok, what, detail);
const expect = (ok, what, detail) => checks.expect(ok, what, detail);

// ---- the fixture LLM server, in its own process (it is TypeScript: node --import tsx) ----

const startLlmServer = () => startLlmServerProcess(ROOT, { latencyMs: LATENCY_MS }, 'the fixture LLM server');

const requestsOf = (child) => askServer(child, 'requests');

// The workspace: lib/driver.mjs writeLandmarkWorkspace (the server gives each row's correct answer).
const caseIdOf = landmarkCaseId;

const runLogs = () => runLogsIn(server.workspace);

// ---- the workbench ----

/** Occurrences of `text` in the channel log: activation happens twice here, so "once more" is a count. */
const logCount = (text) => channelLog(server).split(text).length - 1;

/**
 * The extension host of this code-server: a process of the server's group started as `bootstrap-fork
 * --type=extensionHost`. To be sure it is the one running our run, it must hold the run log open.
 */
function extensionHostWriting(logFile) {
  const ps = execFileSync('ps', ['-o', 'pid=,args=', '-g', String(server.pid)], { encoding: 'utf8' });
  const hosts = ps.split('\n').map((line) => /^\s*(\d+)\s+(.*)$/.exec(line)).filter((m) => m && /bootstrap-fork .*--type=extensionHost/.test(m[2]));
  const writing = hosts.filter((m) => {
    try {
      return readdirSync(`/proc/${m[1]}/fd`).some((fd) => {
        try { return readlinkSync(`/proc/${m[1]}/fd/${fd}`) === logFile; } catch { return false; }
      });
    } catch {
      return false;
    }
  });
  return { hosts: hosts.map((m) => Number(m[1])), writing: writing.map((m) => Number(m[1])) };
}

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

async function main() {
  assertInstalled();
  mkdirSync(SHOTS, { recursive: true });
  const fixture = await startLlmServer();
  llm = fixture.child;
  log(`fixture LLM server at ${fixture.openaiBaseUrl} (${LATENCY_MS} ms per answer)`);
  server = await startCodeServer('crash');
  writeLandmarkWorkspace(server.workspace, { name: EVAL_NAME, cases: CASES, baseUrl: fixture.openaiBaseUrl, topLines: [`concurrency: ${CONCURRENCY}`] });
  log(`code-server on ${server.host}, workspace ${server.workspace}`);
  browser = await launchBrowser();
  const { page } = browser;
  page.on('pageerror', (error) => { if (process.env.VERBOSE) console.log('[pageerror]', error.message.slice(0, 300)); });
  const url = workbenchUrl(server, [['extensionDevelopmentPath', remoteUri(server, ROOT)]]);
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await waitFor(() => logCount('RAG Inspector 0.1.0 activated') >= 1, 'the extension to activate', 60_000);

  // 1. Run Evaluation from the palette, as a user would; the workspace's only eval file runs.
  await runCommand(page, 'RAG Inspector: Run Evaluation');
  const logFile = await waitFor(() => runLogs()[0], 'the run log to appear');
  await waitFor(() => readLogLines(logFile).cases.length >= KILL_AFTER, `${KILL_AFTER} case lines in the run log`, 60_000);

  // 2. SIGKILL the extension host: the process of the server's group that holds the run log open.
  const { hosts, writing } = extensionHostWriting(logFile);
  must(writing.length === 1, 'exactly one extension-host process (bootstrap-fork --type=extensionHost) holds the run log open', `hosts ${hosts.join(', ') || 'none'}, writing ${writing.join(', ') || 'none'}`);
  const hostPid = writing[0];
  process.kill(hostPid, 'SIGKILL');
  await waitFor(() => !alive(hostPid), 'the extension host to die', 10_000);
  const atKill = readLogLines(logFile);
  // Requests still open die with the host's sockets; give the server a moment to see them close.
  await page.waitForTimeout(500);
  const beforeKill = await requestsOf(llm);
  must(atKill.cases.length >= KILL_AFTER && atKill.cases.length < CASES && !atKill.lines.some((l) => l.type === 'summary'),
    `the run was killed mid-run: ${atKill.cases.length} of ${CASES} cases logged, no summary${atKill.partial ? `, a last line cut short (${atKill.partial} bytes)` : ''}`);
  await shot(page, 'crash-killed');

  // 3. Reload the page: a new extension host starts, activates, and finds the run interrupted.
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const notice = 'was interrupted after';
  await waitFor(() => channelLog(server).includes('Interrupted run found:'), 'the new extension host to find the interrupted run', 60_000);
  // The notice reaches the screen-reader alert at once; this headless build shows no toast, so the notification
  // center is opened to see it with its buttons.
  const alert = page.locator('.monaco-aria-container .monaco-alert', { hasText: notice });
  await alert.first().waitFor({ state: 'attached', timeout: 15_000 });
  await runCommand(page, 'Notifications: Show Notifications');
  const item = page.locator('.notifications-center .notification-list-item', { hasText: notice }).first();
  await item.waitFor({ timeout: 15_000 });
  const itemText = (await item.locator('.notification-list-item-message').textContent()).replace(/\s+/g, ' ').trim();
  const buttons = (await item.locator('.monaco-button').allTextContents()).map((t) => t.trim()).filter(Boolean);
  expect(new RegExp(`^RAG Inspector: a run of ${EVAL_NAME} was interrupted after ${atKill.cases.length} cases\\.$`).test(itemText),
    `after the reload one notice says "${itemText}"`);
  expect(JSON.stringify(buttons) === JSON.stringify(['Resume', 'Show', 'Dismiss']), `the notice offers ${buttons.join(' / ')}`);
  expect((await page.locator('.notifications-center .notification-list-item', { hasText: notice }).count()) === 1, 'the notice is shown once');
  await shot(page, 'crash-notice');
  await runCommand(page, 'Notifications: Hide Notifications');

  // 4. Resume Interrupted Run from the palette; the pick lists the run with its cases done (the inspector the reload
  // restored may take focus as it loads and close the pick: runCommandAndPick runs the command again then).
  const runId = path.basename(logFile, '.jsonl');
  let pickSeen = false;
  const seen = async (row) => {
    if (pickSeen) return;
    pickSeen = true;
    const rowText = (await row.textContent()).replace(/\s+/g, ' ').trim();
    expect(new RegExp(`${atKill.cases.length} cases done`).test(rowText), `the pick lists the run with the cases done at the kill: "${rowText.slice(0, 160)}"`);
    await shot(page, 'crash-resume-pick');
  };
  for (let attempt = 1; ; attempt++) {
    await runCommandAndPick(page, 'RAG Inspector: Resume Interrupted Run', EVAL_NAME, { seen });
    try {
      // A click that lands as the pick closes chooses nothing: the log says whether the resume began.
      await waitForLog(page, server, `Resuming run ${runId}`, 15_000);
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      log(`the resume did not begin after the pick (attempt ${attempt}); running the command again`);
    }
  }
  await waitFor(() => readLogLines(logFile).lines.at(-1)?.type === 'summary', 'the summary line of the resumed run', 90_000);
  await waitFor(() => channelLog(server).includes(`run ${runId} success`), 'the resumed run to be reported', 15_000);
  must(true, 'the resumed run wrote its summary line');

  // 5. The log: one case line per case, nothing lost, nothing twice; the summary counts each once.
  const end = readLogLines(logFile);
  const perCase = new Map();
  for (const line of end.cases) perCase.set(line.case.id, (perCase.get(line.case.id) ?? 0) + 1);
  const missing = Array.from({ length: CASES }, (_, i) => caseIdOf(i)).filter((id) => !perCase.has(id));
  const twice = [...perCase].filter(([, n]) => n > 1).map(([id]) => id);
  expect(missing.length === 0, `every case is in the log (${perCase.size} of ${CASES})`, `missing ${missing.join(', ')}`);
  expect(twice.length === 0 && end.cases.length === CASES, `no case is logged twice (${end.cases.length} case lines)`, `twice: ${twice.join(', ')}`);
  expect(end.partial === 0 && !end.lines.some((l) => l.type === 'unparsable'), 'every line of the log parses (a line cut by the kill was truncated by the resume)');
  expect(end.lines.filter((l) => l.type === 'resume').length === 1, 'the log marks where the resume began (one resume line)');
  const summary = end.lines.at(-1);
  expect(summary.status === 'success' && summary.totals.cases === CASES && summary.totals.passed === CASES,
    `the summary: success, ${summary.totals?.cases} cases, ${summary.totals?.passed} passed`, JSON.stringify(summary.totals));
  const preserved = atKill.cases.every((line, i) => JSON.stringify(end.cases[i]) === JSON.stringify(line));
  expect(preserved, `the ${atKill.cases.length} case lines written before the kill are kept as they were`);

  // 6. The server's record, per prompt (row): finished before the kill → sent once, never again; in flight at the
  // kill (sent, not logged) → sent again at most once; never sent before the kill → sent once after it.
  const all = await requestsOf(llm);
  // The server numbers every request, the runs' preflights (model listing) too: the kill falls after the last case request seen.
  const seqAtKill = beforeKill.length ? Math.max(...beforeKill.map((r) => r.seq)) + 1 : 0;
  const sent = (rows, from, to) => rows.filter((r) => r.seq >= from && r.seq < to);
  const byRow = (records) => { const m = new Map(); for (const r of records) m.set(r.row, (m.get(r.row) ?? 0) + 1); return m; };
  const before = byRow(sent(all, 0, seqAtKill));
  const after = byRow(sent(all, seqAtKill, Infinity));
  expect(all.every((r) => r.row !== null), 'every request the server saw was a case prompt');
  const finishedRows = new Set(atKill.cases.map((l) => Number(l.case.id.split('/')[1])));
  const inFlight = [...before.keys()].filter((row) => !finishedRows.has(row));
  const resent = inFlight.filter((row) => after.has(row));
  const badFinished = [...finishedRows].filter((row) => before.get(row) !== 1 || after.has(row));
  expect(badFinished.length === 0, `none of the ${finishedRows.size} cases finished before the kill was sent again`, `rows ${badFinished.join(', ')}`);
  expect(inFlight.length <= CONCURRENCY && inFlight.every((row) => before.get(row) === 1 && (after.get(row) ?? 0) <= 1),
    `${inFlight.length} case(s) in flight at the kill (at most ${CONCURRENCY}, the concurrency): ${resent.length} sent again, none more than once`, `rows ${inFlight.join(', ')}`);
  const rest = Array.from({ length: CASES }, (_, i) => i).filter((row) => !before.has(row));
  expect(rest.every((row) => after.get(row) === 1), `the ${rest.length} cases not started before the kill were each sent once, after it`);
  expect(all.length === CASES + resent.length, `model requests = cases + in-flight re-sent: ${all.length} = ${CASES} + ${resent.length}`);
  log(`killed after ${atKill.cases.length} logged cases; ${beforeKill.length} requests before the kill (${inFlight.length} not logged, ${beforeKill.filter((r) => r.clientClosed).length} seen closed by the server), ${all.length - beforeKill.length} after`);

  // 7. The inspector shows the finished run, every case of it (the earlier ones too).
  const webview = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  await webview.locator('.badge', { hasText: 'success' }).waitFor({ timeout: 30_000 });
  const casesTab = webview.getByRole('tab', { name: new RegExp(`^Cases \\(${CASES}\\b`) });
  await casesTab.waitFor({ timeout: 15_000 }).then(() => undefined, () => undefined);
  const tabText = (await webview.getByRole('tab', { name: /^Cases/ }).first().textContent().catch(() => '')).trim();
  expect(new RegExp(`^Cases \\(${CASES}\\b`).test(tabText), `the inspector shows the finished run: success, "${tabText}"`);
  await shot(page, 'crash-resumed');
  console.log(checks.failed.length ? '' : `PASS (${checks.passed.length} checks)`);
  console.log(checks.summary());
}

main()
  .then(async () => { await cleanUp(); process.exit(checks.failed.length ? 1 : 0); })
  .catch(async (error) => {
    console.error(`crash/resume test FAILED: ${error instanceof Error ? error.message : String(error)}`);
    if (browser) await browser.page.screenshot({ path: path.join(SHOTS, 'crash-failure.png') }).catch(() => undefined);
    console.error(`failure screenshot: ${path.relative(ROOT, path.join(SHOTS, 'crash-failure.png'))}; server log: ${server?.logFile}`);
    // CI keeps only what is printed: the end of the extension's own log says what it was doing.
    if (server) console.error(`the RAG Inspector log ends:\n${channelLog(server).split('\n').slice(-40).join('\n')}`);
    console.log(checks.summary());
    await cleanUp();
    process.exit(1);
  });
