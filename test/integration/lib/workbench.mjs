// Driving the code-server workbench the way a user does, for the UI drivers: the command palette, screenshots, and the extension's log channel.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { E2E, log, ROOT } from './codeServer.mjs';

export const SHOTS = path.join(E2E, 'screenshots');

const { publisher, name } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
/** The folder VS Code writes the extension's output channel to, in each extension host's log folder. */
const CHANNEL_DIR = `${publisher}.${name}`;

/** F1, how a user opens the palette (a driver whose webview may hold the focus passes a way that gets past it). */
const pressF1 = (page) => page.keyboard.press('F1');

/**
 * Opens the command palette with `openPalette`, types the command's title and presses Enter once its row is listed.
 * A quick input closes when something else takes the focus (a test run ending opens its results, a notice appears),
 * so an attempt the palette closed under is retried with a fresh palette, up to three times.
 */
export async function runCommand(page, title, openPalette = pressF1) {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    try {
      await openPalette(page);
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(`>${title}`, { timeout: 5_000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      log(`the palette closed before "${title}" ran (attempt ${attempt}: ${String(error?.message ?? error).split('\n')[0]}); opening it again`);
      await page.keyboard.press('Escape').catch(() => undefined);
      await page.waitForTimeout(500);
    }
  }
}

/**
 * Runs a command that opens a quick pick, and chooses the row holding `rowText` by a click (typing `rowText` into
 * the pick first when `filter` is set). A webview that loads meanwhile (an inspector restored by a reload, or just
 * opened by a run) can take focus, and a quick pick closes when it loses focus: then the command is run again.
 * `seen(row)` looks at the row before it is chosen (a check, a screenshot).
 */
export async function runCommandAndPick(page, title, rowText, { filter = false, seen } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommand(page, title);
      if (filter) await page.locator('.quick-input-widget input').fill(rowText, { timeout: 5_000 });
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: rowText }).first();
      await row.waitFor({ timeout: 15_000 });
      if (seen) await seen(row);
      await row.click({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      log(`the pick of "${title}" closed before "${rowText}" was chosen (attempt ${attempt}: ${String(error?.message ?? error).split('\n')[0]}); running it again`);
      await page.keyboard.press('Escape').catch(() => undefined);
      await page.waitForTimeout(500);
    }
  }
}

/** A screenshot of the page as `.e2e/screenshots/<name>.png`. */
export async function shot(page, name) {
  // Quick inputs and toasts fade in; a picture taken mid-animation shows them half transparent.
  await page.waitForTimeout(400);
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  log(`screenshot ${path.relative(ROOT, file)}`);
}

/** The extension's log channel, read from the server's user-data dir: every extension host session of it (a reload starts another). */
export function channelLog(server) {
  const logs = path.join(server.userData, 'logs');
  if (!existsSync(logs)) return '';
  const files = [];
  for (const session of readdirSync(logs)) {
    const dir = path.join(logs, session);
    for (const host of readdirSync(dir).filter((d) => d.startsWith('exthost'))) files.push(path.join(dir, host, CHANNEL_DIR, 'RAG Inspector.log'));
  }
  return files.filter(existsSync).map((file) => readFileSync(file, 'utf8')).join('\n');
}

// Waiting is the one shared poller: waitFor(probe, what, timeoutMs).
export { waitFor } from '../../fixtures/waitFor.mjs';

/** Waits until the extension's log channel holds `text`; the error quotes the whole log. */
export async function waitForLog(page, server, text, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!channelLog(server).includes(text)) {
    if (Date.now() > deadline) throw new Error(`"${text}" never reached the RAG Inspector log; it holds:\n${channelLog(server)}`);
    await page.waitForTimeout(200);
  }
}
