// What the browser tests share: the webview bundle, a 127.0.0.1 server for pages under a strict CSP, Chromium,
// VS Code theme emulation, and small polling helpers.
import { after, before } from 'node:test';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { escapeJsonForHtml } from '../../src/core/report/html.js';
import { BODY_CLASS, PALETTES } from '../../webview/theme/palettes.js';
import type { PaletteName } from '../../webview/theme/palettes.js';
import type { FixtureRun } from './builders.js';

export const ROOT = join(__dirname, '..', '..');
export const SCREENSHOTS = join(ROOT, 'test', 'webview', '.screenshots');

let bundle: Promise<string> | undefined;

/**
 * The webview bundle with the options esbuild.mjs uses for it (browser, ESM, es2022), built in memory so a
 * test run neither needs the CLI and extension entry points to compile nor races another build over dist/.
 */
export function webviewBundle(): Promise<string> {
  bundle ??= esbuild.build({
    entryPoints: [join(ROOT, 'webview', 'main.ts')], bundle: true, platform: 'browser', format: 'esm', target: 'es2022',
    write: false, logLevel: 'warning', legalComments: 'none',
  }).then((result) => result.outputFiles[0]!.text);
  return bundle;
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * One Chromium and one page server for a test file: started before its tests, closed after them. `script` replaces
 * the webview bundle as the pages' /webview.js (a test page of its own).
 */
export function useBrowser(script: () => Promise<string> = webviewBundle): { readonly browser: Browser; readonly server: TestServer } {
  const session = {} as { browser: Browser; server: TestServer };
  before(async () => {
    session.browser = await launch();
    session.server = await serve(await script());
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return session;
}

export interface PageOptions {
  runs: FixtureRun[];
  /** A VS Code theme to emulate (variables on <html>, class on <body>), or 'none' for the report's own fallback. */
  theme?: PaletteName | 'none';
  /** Install a fake acquireVsCodeApi that forwards to `window.__hostPost` instead of embedding the data. */
  vscode?: boolean;
  /** false serves the page with no CSP at all, so markup rendered as HTML would really execute. */
  csp?: boolean;
  /** Embed this sweep report (the `rag-inspector/sweep` format, as VS Code's sweep panel does) instead of runs. */
  sweep?: object;
  /** Embed this data element as it is (a panel whose page names its view, e.g. the question review), beside `vscode`. */
  data?: object;
}

/** The panel's policy as the extension sets it, minus the webview resource origin: nothing inline, scripts by nonce. */
function cspHeader(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'none'; img-src data:; font-src 'none'`;
}

export function pageHtml(options: PageOptions, nonce: string): string {
  const embedded = options.data ?? (options.sweep ? { format: 'rag-inspector/sweep', version: 1, sweep: options.sweep } : options.vscode ? undefined : { format: 'rag-inspector/static', version: 1, runs: options.runs });
  const data = embedded ? `<script type="application/json" id="rag-inspector-data">${escapeJsonForHtml(JSON.stringify(embedded))}</script>` : '';
  const theme = options.theme ?? 'dark';
  const themeScript = theme === 'none' ? '' : `
    for (const [name, value] of Object.entries(${JSON.stringify(PALETTES[theme])})) document.documentElement.style.setProperty('--vscode-' + name, value);
    document.body.classList.add(${JSON.stringify(BODY_CLASS[theme])});`;
  const vscodeScript = options.vscode ? `
    let state;
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__hostPost(JSON.stringify(m)),
      getState: () => state,
      setState: (s) => { state = s; window.__hostState(JSON.stringify(s)); },
    });` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>RAG Inspector test</title>${data}</head>
<body>
<script nonce="${nonce}">
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));
  ${themeScript}
  ${vscodeScript}
</script>
<script type="module" nonce="${nonce}" src="/webview.js"></script>
</body></html>`;
}

export interface TestServer { url: string; setPage(options: PageOptions): string; close(): Promise<void> }

/** Serves `/page/<n>` pages and `/webview.js` (the webview bundle unless `js` is given) on 127.0.0.1 with the panel's CSP. */
export async function serve(js?: string): Promise<TestServer> {
  js ??= await webviewBundle();
  const pages = new Map<string, { html: string; nonce: string; csp: boolean }>();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    if (path === '/webview.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(js);
      return;
    }
    if (path === '/favicon.ico') { response.writeHead(204); response.end(); return; }
    const page = pages.get(path);
    if (!page) { response.writeHead(404); response.end(); return; }
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      ...(page.csp ? { 'content-security-policy': cspHeader(page.nonce) } : {}),
    });
    response.end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    setPage(options: PageOptions): string {
      const nonce = randomBytes(16).toString('base64');
      const path = `/page/${pages.size}`;
      pages.set(path, { html: pageHtml(options, nonce), nonce, csp: options.csp !== false });
      return `${url}${path}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// Waiting is the one shared poller (test/fixtures/waitFor.mjs): waitFor(probe, what, timeoutMs).
export { waitFor } from '../fixtures/waitFor.mjs';

/** Errors the page reported: uncaught exceptions, console errors, CSP violations. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(`console: ${message.text()}`); });
  page.on('dialog', (dialog) => { errors.push(`dialog: ${dialog.message()}`); void dialog.dismiss(); });
  return errors;
}

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate('window.__csp') as Promise<string[]>;
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}.png`);
}

/** Seeds the static API's view state before the page's scripts run (e.g. to open on the case list). */
export async function seedViewState(page: Page, state: object): Promise<void> {
  // Only when absent, so a reload keeps what the page saved since.
  await page.addInitScript((json: string) => {
    const storage = (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void } }).sessionStorage;
    if (storage.getItem('rag-inspector.viewState') === null) storage.setItem('rag-inspector.viewState', json);
  }, JSON.stringify({ v: 1, view: 'summary', filters: { failedOnly: false, suite: '', model: '', role: '', cause: '', search: '' }, sort: 'run', ...state }));
}

/** A computed style property of the first element a locator matches (the callback runs in the page). */
export function computedStyle(locator: Locator, property: string): Promise<string> {
  return locator.first().evaluate((el, p) => (globalThis as unknown as PageGlobals).getComputedStyle(el).getPropertyValue(p), property);
}

/** The few browser globals the tests' page callbacks use (the test tsconfig has no DOM library). */
export interface PageGlobals {
  getComputedStyle(element: unknown): { getPropertyValue(property: string): string };
  innerHeight: number;
}
