// VS Code's real Restricted Mode on a hostile workspace: nothing outside it is read, its chosen server gets nothing without a yes; once trusted, it runs.
//
// code-server starts with workspace trust on (no --disable-workspace-trust) on a folder it has never trusted, so the
// workbench opens it in Restricted Mode and vscode.workspace.isTrusted is false in the extension host — no test seam.
// The folder is hostile: an eval file whose needle haystack is a glob on /etc, a dataset by `../` and a dataset link
// to a file outside; another whose template includes an outside file through a link; every model's `baseUrl` is
// the fixture LLM server (lib/llmServerMain.ts, its own process), standing in for a server the workspace's author
// chose and recording everything it receives. The files outside hold a marker text and an access time set in 2000,
// so a read of them shows (relatime updates an access time that old on any read).
// From the command palette, as a user: Run Evaluation on each eval file → each outside path refused at its
// file:line:column; the endpoint question names the exact URL, and Cancel or closing it sends nothing; after Allow
// the outside include is still refused. Then the server has received nothing, the outside files were not read and
// the marker is in no log. Then trust is granted in the Workspace Trust editor (from the Restricted Mode status
// item) and the same workspace's outside paths run: no question, the server receives the outside files' text.
// Screenshots in .e2e/screenshots/restricted-*.png. Env: E2E_TIMEOUT_MS (default 5 min), E2E_KEEP=1.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Checks } from './lib/checks.mjs';
import { assertInstalled, launchBrowser, log, remoteUri, ROOT, startCodeServer, workbenchUrl } from './lib/codeServer.mjs';
import { driverCleanUp } from './lib/driver.mjs';
import { channelLog, runCommand, runCommandAndPick, shot, SHOTS, waitFor, waitForLog } from './lib/workbench.mjs';
import { askServer, startLlmServerProcess } from './lib/llmServerProcess.mjs';

/** In every file outside the workspace; in Restricted Mode it must reach no request, log or run file. */
const MARKER = 'OUTSIDE-THE-WORKSPACE-7f3a';
/** An access time no read leaves in place. */
const NEVER_READ = new Date('2000-01-01T00:00:00Z');

const checks = new Checks();
let server;
let browser;
let llm;
const cleanUp = driverCleanUp('Restricted Mode test', 5 * 60_000, () => ({ browser, server, llm }));

const must = (ok, what, detail) => checks.must(ok, what, detail);
const expect = (ok, what, detail) => checks.expect(ok, what, detail);

// ---- the capture server: the fixture LLM server in its own process, asked over IPC what it received ----

const startCaptureServer = () => startLlmServerProcess(ROOT, {}, 'the capture server');

/** Every request the capture server has received: { seq, path, text }. */
const received = () => askServer(llm, 'texts');

// ---- the hostile workspace, and the files outside it ----

const row = (query) => JSON.stringify({ id: 0, query, answer: ['Canberra'], positive: ['Canberra is the capital of Australia.'], negative: ['Sydney is large.'] });

/**
 * Eval files as lines, with where each outside path is named (1-based line and column, as the product reports them).
 * Each names the capture server as its model's endpoint.
 */
function evalFiles(baseUrl) {
  const head = ['version: 1', 'models:', `  - { provider: openai-compatible, model: fixture-model, baseUrl: "${baseUrl}" }`, 'maxRetries: 0', 'suites:'];
  const rgb = (id, dataset, template) => [`  - id: ${id}`, '    method: rgb', `    dataset: ${dataset}`, ...(template ? [`    template: ${template}`] : []),
    '    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 2 }'];
  return {
    // Everything at once: each of the three must be reported, none read.
    'hostile.eval.yaml': [...head,
      '  - id: etc', '    method: needle', '    params: { haystack: "/etc/*.conf", contextLengths: [1000], depths: [50] }',
      ...rgb('up', '../outside/secret.jsonl'),
      ...rgb('link', 'linked.jsonl')],
    // Only paths inside: the one thing left to decide is the endpoint.
    'endpoint.eval.yaml': [...head, ...rgb('inside', 'data.jsonl')],
    // A template inside whose include leaves through a link: found when the run is planned, after the endpoint question.
    'include.eval.yaml': [...head, ...rgb('inc', 'data.jsonl', 't.liquid')],
    // The hostile file's outside datasets without the /etc glob: what a trusted workspace may read.
    'outside.eval.yaml': [...head, ...rgb('up', '../outside/secret.jsonl'), ...rgb('link', 'linked.jsonl')],
  };
}

/** 1-based line and column of `text` in an eval file's lines (the n-th occurrence). */
function positionOf(lines, text, nth = 1) {
  let seen = 0;
  for (const [i, line] of lines.entries()) {
    const col = line.indexOf(text);
    if (col >= 0 && ++seen === nth) return `${i + 1}:${col + 1}`;
  }
  throw new Error(`"${text}" is not in the eval file`);
}

function writeWorkspace(dir, outside, baseUrl) {
  for (const name of readdirSync(dir)) rmSync(path.join(dir, name), { recursive: true, force: true });
  mkdirSync(outside, { recursive: true });
  // Two datasets outside, one reached by ../ and one by a link; their rows differ, so no run answers one from the other's cache.
  writeFileSync(path.join(outside, 'secret.jsonl'), `${row(`${MARKER}:up What is the capital of Australia?`)}\n`);
  writeFileSync(path.join(outside, 'linked-secret.jsonl'), `${row(`${MARKER}:link What is the capital of Australia?`)}\n`);
  writeFileSync(path.join(outside, 'inc.liquid'), `${MARKER}:include\n`);
  writeFileSync(path.join(dir, 'data.jsonl'), `${row('What is the capital of Australia?')}\n`);
  symlinkSync(path.join(outside, 'linked-secret.jsonl'), path.join(dir, 'linked.jsonl'));
  symlinkSync(path.join(outside, 'inc.liquid'), path.join(dir, 'inc-link.liquid'));
  writeFileSync(path.join(dir, 't.liquid'), 'user:\nContext: {% include "inc-link.liquid" %}\nQuestion: {{ question }}\n');
  const files = evalFiles(baseUrl);
  for (const [name, lines] of Object.entries(files)) writeFileSync(path.join(dir, name), `${lines.join('\n')}\n`);
  return files;
}

/** Sets the outside files' access time to 2000; `readSince` tells which have been read since. */
function accessProbe(files) {
  for (const file of files) utimesSync(file, NEVER_READ, statSync(file).mtime);
  return { readSince: () => files.filter((file) => statSync(file).atimeMs !== NEVER_READ.getTime()) };
}

/** Files under `dir` (recursively) whose text holds `text`. */
function filesHolding(dir, text) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => readFileSync(file, 'utf8').includes(text));
}

// ---- the workbench ----

/** Run Evaluation from the palette; with several eval files in the workspace it asks which, and `name` is picked. */
const runEvalFile = (page, name) => runCommandAndPick(page, 'RAG Inspector: Run Evaluation', name, { filter: true });

/** The notice `text` reached the screen-reader alert (this headless build shows no toast: the center shows it). */
const alerted = (page, text) => page.locator('.monaco-aria-container .monaco-alert', { hasText: text }).first().waitFor({ state: 'attached', timeout: 30_000 });

/** The log line that reports `what` at `file:position`, or undefined. */
const refusal = (file, position) => channelLog(server).split('\n').find((l) => l.includes(`${file}:${position}: this workspace is not trusted: paths outside it are not read`));

const dialog = (page) => page.locator('.monaco-dialog-box');

/** Occurrences of `text` in the channel log (across extension-host sessions: a reload starts another). */
const logCount = (text) => channelLog(server).split(text).length - 1;

async function main() {
  assertInstalled();
  mkdirSync(SHOTS, { recursive: true });
  const capture = await startCaptureServer();
  llm = capture.child;
  const baseUrl = capture.openaiBaseUrl;
  log(`capture server (fixture LLM server) at ${baseUrl}`);
  server = await startCodeServer('restricted', { workspaceTrust: true });
  const ws = server.workspace;
  const outside = path.join(server.runDir, 'outside');
  const files = writeWorkspace(ws, outside, baseUrl);
  const outsideFiles = ['secret.jsonl', 'linked-secret.jsonl', 'inc.liquid'].map((name) => path.join(outside, name));
  const probe = accessProbe(outsideFiles);
  // The probe must be able to see a read on this file system (relatime or strictatime, not noatime).
  const canary = path.join(outside, 'canary.txt');
  writeFileSync(canary, 'canary\n');
  const canaryProbe = accessProbe([canary]);
  readFileSync(canary);
  must(canaryProbe.readSince().length === 1, 'a read shows in a file\'s access time on this file system (the probe of the outside files works)');
  log(`code-server with workspace trust on ${server.host}, workspace ${ws}, outside files in ${outside}`);

  browser = await launchBrowser();
  const { page } = browser;
  page.on('pageerror', (error) => { if (process.env.VERBOSE) console.log('[pageerror]', error.message.slice(0, 300)); });
  await page.goto(workbenchUrl(server, [['extensionDevelopmentPath', remoteUri(server, ROOT)]]));
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await waitForLog(page, server, 'RAG Inspector 0.1.0 activated', 60_000);

  // 1. The folder opens in Restricted Mode. code-server may ask at start whether the authors are trusted; the answer is no.
  const restrictedItem = page.locator('.statusbar-item', { hasText: 'Restricted Mode' });
  await restrictedItem.first().waitFor({ timeout: 30_000 });
  const trustPrompt = dialog(page).filter({ hasText: 'trust the authors' });
  if (await trustPrompt.count()) {
    log(`code-server asked at start: ${(await trustPrompt.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
    await trustPrompt.getByRole('button', { name: /^No, I don't trust the authors/ }).click();
  } else {
    log('code-server asked nothing at start (no startup trust dialog): Restricted Mode is shown by its banner and status item');
  }
  const banner = page.locator('.part.banner', { hasText: 'Restricted Mode is intended for safe code browsing' });
  await banner.waitFor({ timeout: 15_000 });
  must(await restrictedItem.first().isVisible(), 'the hostile folder opens in Restricted Mode: the "Restricted Mode" status item and banner are shown, the extension activated (limited support)');
  await shot(page, 'restricted-opened');

  // 2. The hostile eval file: a haystack glob on /etc, a ../ dataset and a dataset link leaving the workspace.
  const hostile = path.join(ws, 'hostile.eval.yaml');
  await runEvalFile(page, 'hostile.eval.yaml');
  const hostileLines = files['hostile.eval.yaml'];
  const where = {
    etc: positionOf(hostileLines, '"/etc/*.conf"'),
    up: positionOf(hostileLines, '../outside/secret.jsonl'),
    link: positionOf(hostileLines, 'linked.jsonl'),
  };
  await waitFor(() => refusal(hostile, where.link), `the refusal of linked.jsonl at ${hostile}:${where.link}`);
  const etc = refusal(hostile, where.etc);
  const up = refusal(hostile, where.up);
  const link = refusal(hostile, where.link);
  expect(etc?.includes('haystack pattern /etc/*.conf'), `the /etc haystack glob is refused at hostile.eval.yaml:${where.etc}`, etc ?? channelLog(server));
  expect(up?.includes('dataset ') && up.includes('secret.jsonl'), `the ../ dataset is refused at hostile.eval.yaml:${where.up}`, up ?? channelLog(server));
  expect(/linked\.jsonl \(links to .*linked-secret\.jsonl\) is outside/.test(link ?? ''), `the dataset link is refused at hostile.eval.yaml:${where.link}, naming where it links to`, link);
  expect([etc, up, link].every((l) => l?.includes('trust the workspace to allow it')), 'each refusal says how to allow it (trust the workspace)');
  await alerted(page, 'the eval file has 3 problem(s); see the RAG Inspector output');
  // The notice comes when the launch has ended; a question about the endpoint would have come before it.
  expect((await dialog(page).count()) === 0, 'an error notice says the eval file has 3 problems; no endpoint question was asked for a file refused');
  expect((await received()).length === 0, 'the capture server received nothing for the hostile eval file');
  await runCommand(page, 'Output: Show Output Channels...');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'RAG Inspector' }).first().waitFor({ timeout: 15_000 });
  await page.locator('.quick-input-widget input').fill('RAG Inspector');
  await page.keyboard.press('Enter');
  await page.locator('.part.panel .monaco-editor', { hasText: 'this workspace is not trusted' }).first().waitFor({ timeout: 15_000 });
  await runCommand(page, 'Notifications: Show Notifications');
  await page.locator('.notifications-center .notification-list-item', { hasText: '3 problem(s)' }).first().waitFor({ timeout: 15_000 });
  await shot(page, 'restricted-refused');
  await runCommand(page, 'Notifications: Hide Notifications');

  // 3. An eval file with only inside paths: the endpoint it chose needs a yes; Cancel, then closing the dialog, send nothing.
  const question = `RAG Inspector: this untrusted workspace wants to send prompts to ${baseUrl}. Allow it?`;
  const notAllowed = `Not started: ${baseUrl} was not allowed.`;
  const endpointDialog = dialog(page).filter({ hasText: 'wants to send prompts to' });
  await runEvalFile(page, 'endpoint.eval.yaml');
  await endpointDialog.waitFor({ timeout: 30_000 });
  const message = (await endpointDialog.locator('.dialog-message-text').innerText()).trim();
  const detail = (await endpointDialog.locator('.dialog-message-detail').innerText().catch(() => '')).trim();
  const buttons = (await endpointDialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  expect(message === question, `the endpoint question names the exact URL: "${message}"`, `expected "${question}"`);
  expect(detail.startsWith('endpoint.eval.yaml names this endpoint for openai-compatible:fixture-model'), `its detail names the eval file and model: "${detail.slice(0, 90)}…"`, detail);
  // The button order is the platform's (Cancel first here).
  expect(JSON.stringify([...buttons].sort()) === JSON.stringify(['Allow', 'Cancel']), `it offers ${buttons.join(' / ')}`);
  await shot(page, 'restricted-endpoint-question');
  await endpointDialog.getByRole('button', { name: 'Cancel' }).click();
  await waitForLog(page, server, notAllowed);
  expect((await received()).length === 0, '"Cancel" sends nothing: the capture server received 0 requests');
  await runEvalFile(page, 'endpoint.eval.yaml');
  await endpointDialog.waitFor({ timeout: 30_000 });
  must(true, 'the question comes again on the next run (a no is not remembered)');
  await page.keyboard.press('Escape');
  await waitFor(() => channelLog(server).split(notAllowed).length - 1 === 2, 'the second "not allowed" line');
  expect((await received()).length === 0, 'closing the question (Escape) sends nothing: the capture server received 0 requests');

  // 4. A template inside that includes an outside file through a link: allowed endpoint, yet refused before any request.
  const template = path.join(ws, 't.liquid');
  await runEvalFile(page, 'include.eval.yaml');
  await endpointDialog.waitFor({ timeout: 30_000 });
  await endpointDialog.getByRole('button', { name: 'Allow' }).click();
  await waitForLog(page, server, `Allowed ${baseUrl} for this workspace until its trust changes.`);
  await waitForLog(page, server, `${template}:2:10:`, 30_000);
  // Templates read includes only inside their own folder, trusted or not, so this refusal is that rule's.
  const include = channelLog(server).split('\n').find((l) => l.includes(`${template}:2:10:`));
  expect(include.includes("cannot read 'inc-link.liquid': it is not a file inside the template's folder"),
    `the include through a link is refused at t.liquid:2:10: "${include.replace(/^.*?\[error\] /, '').slice(0, 120)}…"`, include);
  await alerted(page, "cannot read 'inc-link.liquid'");
  expect((await received()).length === 0, 'after "Allow" the refused include still sent nothing: the capture server received 0 requests');
  // The launch opened the inspector before the run was planned; it works in Restricted Mode too.
  await waitForLog(page, server, 'Inspector webview ready', 30_000);
  await shot(page, 'restricted-include-refused');
  // "Allow" is remembered: the next run of it is refused again without a question (one would hold the run before it).
  await runEvalFile(page, 'include.eval.yaml');
  await waitFor(() => logCount(`${template}:2:10:`) === 2, 'the include to be refused a second time');
  expect((await dialog(page).count()) === 0 && logCount(`Allowed ${baseUrl}`) === 1, 'the allowed URL is not asked about again in this workspace ("Allow" is remembered)');

  // 5. Nothing outside was read, and its text is nowhere: not in the server, the logs or the workspace's run files.
  expect(probe.readSince().length === 0, 'no file outside the workspace was read in Restricted Mode (their access times are unchanged)', probe.readSince().join(', '));
  const holding = [...filesHolding(path.join(server.userData, 'logs'), MARKER), ...filesHolding(path.join(ws, '.rag-inspector'), MARKER)];
  expect(holding.length === 0 && !channelLog(server).includes(MARKER), 'the outside files\' marker is in no log (RAG Inspector\'s channel, the extension host\'s) and no run file', holding.join(', '));
  const notices = (await page.locator('.monaco-aria-container .monaco-alert').allTextContents()).join('\n');
  expect(notices.length > 0 && !notices.includes(MARKER), 'nor in any notice shown');
  expect((await received()).length === 0, 'Restricted Mode ends with the capture server having received nothing at all');

  // 6. Trust, as a user: the Restricted Mode status item opens the Workspace Trust editor, whose Trust button trusts the folder.
  await restrictedItem.first().click();
  const trustEditor = page.locator('.workspace-trust-editor');
  await trustEditor.getByText('You are in Restricted Mode').waitFor({ timeout: 15_000 });
  await shot(page, 'restricted-trust-editor');
  await trustEditor.locator('.monaco-button', { hasText: /^Trust$/ }).first().click();
  await restrictedItem.first().waitFor({ state: 'detached', timeout: 15_000 });
  await trustEditor.getByText('You trust this folder').first().waitFor({ timeout: 15_000 });
  must(!(await banner.isVisible()), 'Trust in the Workspace Trust editor (opened from the status item) ends Restricted Mode: the status item and banner are gone');
  await shot(page, 'restricted-trusted');
  await page.keyboard.press('Escape');

  // 7. Trusted, the same workspace's outside paths run: no question, and the server receives the outside files' text.
  await runEvalFile(page, 'outside.eval.yaml');
  const done = await waitFor(() => /run (\S+) (success|failed|cancelled)[^\n]*/.exec(channelLog(server))?.[0], 'the trusted run to finish', 60_000);
  expect(done.startsWith('run ') && / success:/.test(done), `the trusted run of outside.eval.yaml finishes: "${done}"`);
  expect((await dialog(page).count()) === 0, 'no endpoint question once the workspace is trusted');
  const requests = await received();
  const viaUp = requests.filter((r) => r.text.includes(`${MARKER}:up`));
  const viaLink = requests.filter((r) => r.text.includes(`${MARKER}:link`));
  expect(requests.length >= 2, `the capture server now receives the run's calls (${requests.length})`);
  expect(viaUp.length === 1 && viaLink.length === 1, `they carry the outside files' text: the ../ dataset's row (${viaUp.length} request), the linked dataset's (${viaLink.length})`);
  const read = probe.readSince().map((file) => path.basename(file)).sort();
  expect(JSON.stringify(read) === JSON.stringify(['linked-secret.jsonl', 'secret.jsonl']), 'both outside datasets were read now (their access times moved): the probe that saw no read before sees these', read.join(', '));
  await page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame').locator('.badge', { hasText: 'success' }).waitFor({ timeout: 30_000 });
  await shot(page, 'restricted-trusted-run');

  // 8. Trust taken back (the folder deleted from the Trusted Folders list): VS Code reloads the window in Restricted
  // Mode, and the URL allowed in step 4 is asked about again: granting trust cleared what Restricted Mode had allowed.
  await runCommand(page, 'Workspaces: Manage Workspace Trust');
  const entry = trustEditor.locator('.monaco-list-row', { hasText: ws }).first();
  await entry.hover();
  await entry.locator('.action-label[aria-label="Delete Path"]').click();
  await waitFor(() => logCount('RAG Inspector 0.1.0 activated') === 2, 'the extension to activate again after the reload', 60_000);
  await restrictedItem.first().waitFor({ timeout: 30_000 });
  must(await banner.isVisible(), 'deleting the folder from Trusted Folders reloads the window in Restricted Mode (status item and banner back, the extension activated again)');
  const sentBefore = (await received()).length;
  await runEvalFile(page, 'endpoint.eval.yaml');
  await endpointDialog.waitFor({ timeout: 30_000 });
  const again = (await endpointDialog.locator('.dialog-message-text').innerText()).trim();
  expect(again === question, 'restricted again, the URL allowed before trust was granted is asked about again (granting trust cleared the allowance)', again);
  await shot(page, 'restricted-again-question');
  await endpointDialog.getByRole('button', { name: 'Cancel' }).click();
  await waitFor(() => logCount(notAllowed) === 3, 'the third "not allowed" line');
  expect((await received()).length === sentBefore, `"Cancel" sends nothing (the capture server still has ${sentBefore} requests, all from the trusted run)`);
  console.log(checks.failed.length ? '' : `PASS (${checks.passed.length} checks)`);
  console.log(checks.summary());
}

main()
  .then(async () => { await cleanUp(); process.exit(checks.failed.length ? 1 : 0); })
  .catch(async (error) => {
    checks.fail(`stopped: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    console.error(`Restricted Mode test FAILED: ${error instanceof Error ? error.message : String(error)}`);
    if (browser) await browser.page.screenshot({ path: path.join(SHOTS, 'restricted-failure.png') }).catch(() => undefined);
    console.error(`failure screenshot: ${path.relative(ROOT, path.join(SHOTS, 'restricted-failure.png'))}; server log: ${server?.logFile}`);
    console.log(checks.summary());
    await cleanUp();
    process.exit(1);
  });
