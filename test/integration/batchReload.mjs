// A batch run survives a window reload: the resumed run collects the vendor batch the first window submitted, never
// sends it again.
//
// A code-server workbench (headless Chromium) opens a folder with one eval file: 10 RGB cases on an OpenAI-compatible
// endpoint served by the fixture LLM server in batch mode (`batch: true`; a local server with no key). The server keeps
// a batch in progress for BATCH_MS, its items answered evenly over that time. Run Evaluation is started from the
// palette; once the run log holds the batch line and the status bar shows the batch's progress, the window is reloaded
// (a new page load: the extension host of the first window ends, the run is interrupted without a summary). The
// "interrupted" notice must appear; Resume Interrupted Run is chosen from the palette, and the resumed run must collect
// the same batch. From the server's own record: one file upload and one batch created across both windows, no batch
// cancelled, no case asked interactively; from the run log: one batch line, every case once, a success summary; the
// output channel shows the batch's progress lines. Screenshots in .e2e/screenshots/batch-reload-*.png.
// Env: E2E_TIMEOUT_MS (default 4 min), E2E_KEEP=1.
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { Checks } from './lib/checks.mjs';
import { assertInstalled, launchBrowser, log, remoteUri, ROOT, startCodeServer, workbenchUrl } from './lib/codeServer.mjs';
import { driverCleanUp, landmarkCaseId, writeLandmarkWorkspace } from './lib/driver.mjs';
import { channelLog, runCommand, runCommandAndPick, shot, SHOTS, waitFor, waitForLog } from './lib/workbench.mjs';
import { readLogLines, runLogsIn } from './lib/runLogLines.mjs';
import { askServerMessage, startLlmServerProcess } from './lib/llmServerProcess.mjs';

const CASES = 10;
/** Long enough that the batch is still in progress when the window has reloaded (and the resume begins). */
const BATCH_MS = 15_000;
const EVAL_NAME = 'batch-reload';
const MODEL_KEY = 'openai-compatible:fixture-model';

const checks = new Checks();
let server;
let browser;
let llm;
const cleanUp = driverCleanUp('batch reload test', 4 * 60_000, () => ({ browser, server, llm }));

const must = (ok, what, detail) => checks.must(ok, what, detail);
const expect = (ok, what, detail) => checks.expect(ok, what, detail);

/** What the server received of the batch API, and the chat completions asked interactively (llmServerMain.ts BatchTraffic). */
const trafficOf = async (child) => (await askServerMessage(child, 'batchTraffic')).traffic;

// The workspace: lib/driver.mjs writeLandmarkWorkspace (the server gives each row's correct answer).
const caseIdOf = landmarkCaseId;

const runLogs = () => runLogsIn(server.workspace);

/** The status bar item of RAG Inspector while its run waits on a vendor batch: "RAG batch n/m". */
const batchStatus = (page) => page.locator('.statusbar-item', { hasText: /RAG batch \d+\/\d+/ }).first();

async function main() {
  assertInstalled();
  mkdirSync(SHOTS, { recursive: true });
  const fixture = await startLlmServerProcess(ROOT, { batchProcessingMs: BATCH_MS }, 'the fixture LLM server');
  llm = fixture.child;
  log(`fixture LLM server at ${fixture.openaiBaseUrl} (a batch stays in progress ${BATCH_MS / 1000} s)`);
  server = await startCodeServer('batch-reload');
  writeLandmarkWorkspace(server.workspace, { name: EVAL_NAME, cases: CASES, baseUrl: fixture.openaiBaseUrl, modelLines: ['batch: true'] });
  log(`code-server on ${server.host}, workspace ${server.workspace}`);
  browser = await launchBrowser();
  const { page } = browser;
  page.on('pageerror', (error) => { if (process.env.VERBOSE) console.log('[pageerror]', error.message.slice(0, 300)); });
  const url = workbenchUrl(server, [['extensionDevelopmentPath', remoteUri(server, ROOT)]]);
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const activated = 'RAG Inspector 0.1.0 activated';
  await waitFor(() => channelLog(server).includes(activated), 'the extension to activate', 60_000);

  // 1. Run Evaluation from the palette: the cases go out as one vendor batch, recorded in the run log when submitted.
  await runCommand(page, 'RAG Inspector: Run Evaluation');
  const logFile = await waitFor(() => runLogs()[0], 'the run log to appear', 60_000);
  const batchLine = await waitFor(() => readLogLines(logFile).batches[0], 'the batch line in the run log (the batch submitted)', 60_000);
  await batchStatus(page).waitFor({ timeout: 30_000 }).catch(() => undefined);
  const statusText = ((await batchStatus(page).textContent().catch(() => '')) ?? '').replace(/\s+/g, ' ').trim();
  expect(new RegExp(`^RAG batch \\d+/${CASES}$`).test(statusText), `the status bar shows the batch's progress: "${statusText}"`);
  await shot(page, 'batch-reload-submitted');
  const atReload = readLogLines(logFile);
  const before = await trafficOf(llm);
  must(atReload.batches.length === 1 && batchLine.requests?.length === CASES && batchLine.modelKey === MODEL_KEY,
    `the run log holds one batch line: ${batchLine.batchId}, ${batchLine.requests?.length} requests of ${batchLine.modelKey}`);
  must(atReload.cases.length === 0 && !atReload.lines.some((l) => l.type === 'summary'),
    `no case finished before the reload (${atReload.cases.length} case lines, no summary)`);
  const held = before.batches.find((b) => b.id === batchLine.batchId);
  must(held?.status === 'in_progress', `the server holds the batch in progress at the reload (${held?.status}, ${held?.completed} of ${held?.total} done)`);

  // 2. Reload the window: this extension host ends with the run in it, and a new one starts.
  const sessionsBefore = channelLog(server).split(activated).length - 1;
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await waitFor(() => channelLog(server).split(activated).length - 1 > sessionsBefore, 'the extension to activate in the reloaded window', 60_000);
  const notice = 'was interrupted after';
  await waitFor(() => channelLog(server).includes('Interrupted run found:'), 'the new extension host to find the interrupted run', 30_000);
  // Whether the first window's output channel still took the run's last line ("left interrupted") is up to VS Code's
  // shutdown: said, not checked.
  log(channelLog(server).includes('left interrupted') ? 'the first window logged the run as left interrupted' : 'the first window\'s log closed before the run\'s last line');
  const afterReload = readLogLines(logFile);
  expect(!afterReload.lines.some((l) => l.type === 'summary'), 'the reload left the run interrupted: no summary line');
  // The notice reaches the screen-reader alert at once; this headless build shows no toast, so the notification
  // center is opened to see it with its buttons.
  await page.locator('.monaco-aria-container .monaco-alert', { hasText: notice }).first().waitFor({ state: 'attached', timeout: 15_000 });
  await runCommand(page, 'Notifications: Show Notifications');
  const item = page.locator('.notifications-center .notification-list-item', { hasText: notice }).first();
  await item.waitFor({ timeout: 15_000 });
  const itemText = (await item.locator('.notification-list-item-message').textContent()).replace(/\s+/g, ' ').trim();
  const buttons = (await item.locator('.monaco-button').allTextContents()).map((t) => t.trim()).filter(Boolean);
  expect(itemText === `RAG Inspector: a run of ${EVAL_NAME} was interrupted after 0 cases.`, `after the reload the notice says "${itemText}"`);
  expect(JSON.stringify(buttons) === JSON.stringify(['Resume', 'Show', 'Dismiss']), `the notice offers ${buttons.join(' / ')}`);
  await shot(page, 'batch-reload-notice');
  await runCommand(page, 'Notifications: Hide Notifications');
  const beforeResume = await trafficOf(llm);
  expect(beforeResume.batchCancels === 0, `the reload cancelled no batch at the server (${beforeResume.batchCancels} cancels)`);

  // 3. Resume Interrupted Run from the palette (the restored inspector may take focus and close the pick:
  // runCommandAndPick runs the command again then; a click as the pick closes chooses nothing, so the log is checked).
  const runId = path.basename(logFile, '.jsonl');
  for (let attempt = 1; ; attempt++) {
    await runCommandAndPick(page, 'RAG Inspector: Resume Interrupted Run', EVAL_NAME);
    try {
      await waitForLog(page, server, `Resuming run ${runId}`, 15_000);
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      log(`the resume did not begin after the pick (attempt ${attempt}); running the command again`);
    }
  }
  const stillOpen = (await trafficOf(llm)).batches.find((b) => b.id === batchLine.batchId);
  log(`resumed with the batch ${stillOpen?.status} at the server (${stillOpen?.completed} of ${stillOpen?.total} done at its last poll)`);
  await batchStatus(page).waitFor({ timeout: 15_000 }).then(() => shot(page, 'batch-reload-collecting'), () => log('the status bar showed no batch progress after the resume (the batch may have ended)'));
  await waitFor(() => readLogLines(logFile).lines.at(-1)?.type === 'summary', 'the summary line of the resumed run', 90_000);
  await waitFor(() => channelLog(server).includes(`run ${runId} success`), 'the resumed run to be reported', 15_000);
  must(true, 'the resumed run wrote its summary line');

  // 4. The server's record, across both windows: the batch was created once and collected, nothing asked interactively.
  const end = await trafficOf(llm);
  expect(end.batchCreates === 1 && end.batches.length === 1 && end.batches[0].id === batchLine.batchId,
    `one batch was created across both windows (${end.batchCreates} POST /v1/batches): the one in the log, ${batchLine.batchId}`, JSON.stringify(end.batches));
  expect(end.fileUploads === 1, `one input file was uploaded (${end.fileUploads} POST /v1/files)`);
  expect(end.batchCancels === 0, `no batch was cancelled (${end.batchCancels} cancels)`);
  expect(end.batches[0]?.status === 'completed' && end.batches[0]?.completed === CASES, `the batch completed at the server: ${end.batches[0]?.completed} of ${end.batches[0]?.total} done`);
  expect(end.chatCompletions.length === 0, `no case was asked interactively (${end.chatCompletions.length} chat completions)`, `rows ${end.chatCompletions.map((r) => r.row).join(', ')}`);
  expect(end.batchRetrieves > before.batchRetrieves, `the resumed run polled the batch (${end.batchRetrieves - before.batchRetrieves} retrieves after the reload)`);

  // 5. The log: the one batch line, every case once, a success summary counting each once.
  const final = readLogLines(logFile);
  const perCase = new Map();
  for (const line of final.cases) perCase.set(line.case.id, (perCase.get(line.case.id) ?? 0) + 1);
  const missing = Array.from({ length: CASES }, (_, i) => caseIdOf(i)).filter((id) => !perCase.has(id));
  const twice = [...perCase].filter(([, n]) => n > 1).map(([id]) => id);
  expect(missing.length === 0, `every case is in the log (${perCase.size} of ${CASES})`, `missing ${missing.join(', ')}`);
  expect(twice.length === 0 && final.cases.length === CASES, `no case is logged twice (${final.cases.length} case lines)`, `twice: ${twice.join(', ')}`);
  expect(final.batches.length === 1 && final.batches[0].batchId === batchLine.batchId, `the log still holds the one batch line (${final.batches.length}), no second submission`);
  expect(final.lines.filter((l) => l.type === 'resume').length === 1, 'the log marks where the resume began (one resume line)');
  expect(final.partial === 0 && !final.lines.some((l) => l.type === 'unparsable'), 'every line of the log parses');
  const summary = final.lines.at(-1);
  expect(summary.status === 'success' && summary.totals?.cases === CASES && summary.totals?.passed === CASES,
    `the summary: ${summary.status}, ${summary.totals?.cases} cases, ${summary.totals?.passed} passed`, JSON.stringify(summary.totals));

  // 6. The output channel: the batch's progress lines, from the first window (submitted) and the resumed run (ended).
  const channel = channelLog(server);
  const where = `batch ${batchLine.batchId} (${MODEL_KEY}): `;
  const progressLines = channel.split('\n').filter((line) => line.includes(where)).map((line) => line.slice(line.indexOf(where)));
  log(`batch lines in the output channel:\n  ${progressLines.join('\n  ')}`);
  expect(progressLines.some((line) => line === `${where}submitted, ${CASES} requests`), 'the output channel says the batch was submitted');
  expect(progressLines.some((line) => new RegExp(`^${where.replace(/[()]/g, '\\$&')}in progress, \\d+ of ${CASES} done$`).test(line)), 'the output channel shows the batch in progress');
  expect(progressLines.some((line) => line === `${where}ended, ${CASES} of ${CASES} done`), 'the output channel says the batch ended with every request done');
  await shot(page, 'batch-reload-resumed');
  console.log(checks.failed.length ? '' : `PASS (${checks.passed.length} checks)`);
  console.log(checks.summary());
}

main()
  .then(async () => { await cleanUp(); process.exit(checks.failed.length ? 1 : 0); })
  .catch(async (error) => {
    console.error(`batch reload test FAILED: ${error instanceof Error ? error.message : String(error)}`);
    if (browser) await browser.page.screenshot({ path: path.join(SHOTS, 'batch-reload-failure.png') }).catch(() => undefined);
    console.error(`failure screenshot: ${path.relative(ROOT, path.join(SHOTS, 'batch-reload-failure.png'))}; server log: ${server?.logFile}`);
    if (server) console.error(`the RAG Inspector log ends:\n${channelLog(server).split('\n').slice(-40).join('\n')}`);
    if (llm) console.error(`the fixture server's batch traffic: ${JSON.stringify(await Promise.race([trafficOf(llm), new Promise((r) => setTimeout(() => r('(no answer)'), 2000))]))}`);
    console.log(checks.summary());
    await cleanUp();
    process.exit(1);
  });
