// UI test of the real workbench: command palette → RAG Inspector commands → the inspector webview, with screenshots in .e2e/screenshots/.
//
// Drives code-server's VS Code in headless Chromium the way a user does (F1, typing, Enter), loading the extension
// from this repository (extensionDevelopmentPath, no install). Env: E2E_TIMEOUT_MS (default 4 min), E2E_KEEP=1.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { assertInstalled, launchBrowser, log, remoteUri, ROOT, startCodeServer, workbenchUrl } from './lib/codeServer.mjs';
import { driverCleanUp } from './lib/driver.mjs';
import { channelLog, runCommand, shot, SHOTS, waitForLog } from './lib/workbench.mjs';


let server;
let browser;
const cleanUp = driverCleanUp('workbench test', 4 * 60_000, () => ({ browser, server }));

const checks = [];
function pass(name) {
  checks.push(name);
  log(`ok  ${name}`);
}

async function main() {
  assertInstalled();
  mkdirSync(SHOTS, { recursive: true });
  server = await startCodeServer('workbench');
  log(`code-server on ${server.host}`);
  browser = await launchBrowser();
  const { page } = browser;
  page.on('pageerror', (error) => console.log('[pageerror]', error.message.slice(0, 300)));
  // The webview's CSP must hold without exceptions: any violation means an asset or style it would block.
  const cspViolations = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|apply|execute)/.test(message.text())) cspViolations.push(message.text().slice(0, 300));
  });

  await page.goto(workbenchUrl(server, [['extensionDevelopmentPath', remoteUri(server, ROOT)]]));
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // workspaceContains:**/*.eval.yaml activates the extension once the folder is scanned.
  await waitForLog(page, server, 'RAG Inspector 0.1.0 activated', 60_000);
  pass('the extension activates in the workbench (workspaceContains:**/*.eval.yaml)');

  // 1. Open Inspector from the command palette; the webview does the handshake and asks for the runs.
  await runCommand(page, 'RAG Inspector: Open Inspector');
  const webview = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  // "No runs yet" is rendered from the host's answer to runs/list; a failed request shows an alert instead.
  await webview.getByText('No runs yet').waitFor({ timeout: 30_000 });
  if (await webview.locator('[role="alert"]').count()) throw new Error(`the inspector shows an error: ${await webview.locator('[role="alert"]').first().textContent()}`);
  await waitForLog(page, server, 'Inspector webview ready (protocol 2)');
  pass('the inspector panel opens, does the ready handshake and shows the host\'s answer to runs/list');
  await shot(page, 'inspector-empty');

  // 2. Run Evaluation on the workspace's only eval file (extractive baseline, offline); the open inspector fills in.
  await runCommand(page, 'RAG Inspector: Run Evaluation');
  await webview.locator('.badge', { hasText: 'success' }).waitFor({ timeout: 60_000 });
  const casesTab = webview.getByRole('tab', { name: /^Cases \(15/ });
  await casesTab.waitFor({ timeout: 15_000 });
  await page.locator('.statusbar-item', { hasText: /RAG \d+%/ }).first().waitFor({ timeout: 15_000 });
  pass(`Run Evaluation runs smoke.eval.yaml; the inspector and the status bar show the finished run (${(await casesTab.textContent()).trim()})`);
  await shot(page, 'run-summary');
  await casesTab.click();
  const firstFailed = webview.locator('[role="option"][data-outcome="fail"]').first();
  const row = (await firstFailed.count()) ? firstFailed : webview.locator('[role="option"]').first();
  const question = await row.getAttribute('data-case');
  await row.click();
  // The case view is filled from the host's answer to case/get: its documents section appears.
  await webview.getByText(/^Documents \(\d+\)$/).first().waitFor({ timeout: 15_000 });
  pass(`case ${question} opens in the inspector with its documents (case/get answered)`);
  await shot(page, 'run-case');

  // 3. Set API Key: quick pick → password box; the key must land in the secret store, not in the log.
  const key = `sk-e2e-${randomBytes(16).toString('hex')}`;
  await runCommand(page, 'RAG Inspector: Set API Key');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Anthropic' }).first().waitFor({ timeout: 15_000 });
  await shot(page, 'set-api-key-pick');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Anthropic' }).first().click();
  const box = page.locator('.quick-input-widget input[type="password"]');
  await box.waitFor({ state: 'visible', timeout: 15_000 });
  await box.fill(key);
  await shot(page, 'set-api-key-password');
  await page.keyboard.press('Enter');
  // The notification reaches the workbench's screen-reader alert even when this build shows no toast.
  await page.locator('.monaco-aria-container .monaco-alert', { hasText: 'API key stored' }).first().waitFor({ state: 'attached', timeout: 15_000 });
  await waitForLog(page, server, 'Stored the Anthropic API key');
  if (channelLog(server).includes(key)) throw new Error('the API key reached the output channel');
  pass('Set API Key stores the key from a password box and the log never shows it');
  await shot(page, 'set-api-key-stored');

  if (cspViolations.length) throw new Error(`the inspector webview broke its CSP:\n${cspViolations.join('\n')}`);
  pass('no Content-Security-Policy violations in the workbench or the inspector');
  log(`PASS (${checks.length} checks)`);
}

main()
  .then(async () => { await cleanUp(); process.exit(0); })
  .catch(async (error) => {
    console.error(`workbench test FAILED: ${error instanceof Error ? error.message : String(error)}`);
    if (browser) await browser.page.screenshot({ path: path.join(SHOTS, 'workbench-failure.png') }).catch(() => undefined);
    console.error(`failure screenshot: ${path.relative(ROOT, path.join(SHOTS, 'workbench-failure.png'))}; server log: ${server?.logFile}`);
    await cleanUp();
    process.exit(1);
  });
