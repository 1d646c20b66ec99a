// A new webview message is one descriptor and one handler: test-only messages (probeMessages.ts) go through the
// product's generic client (webview/api/vscodeApi.ts) in Chromium and the product's host dispatch
// (src/extension/webviewDispatch.ts) over the page's real message channel, with no other code written for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import type { Page } from 'playwright-core';
import { WebviewDispatcher, onCommand, onRequest } from '../../src/extension/webviewDispatch.js';
import { Knock, Knocked, Measure } from './probeMessages.js';
import { ROOT, collectPageErrors, cspViolations, useBrowser, waitFor } from './harness.js';

/** The page's script: the generic client and the test's descriptors, exposed for page.evaluate. Not type-checked here. */
const PROBE = `
import { VsCodeApi } from './webview/api/vscodeApi.js';
import { Knock, Knocked, Measure, Unhandled } from './test/webview/probeMessages.js';
const api = new VsCodeApi(acquireVsCodeApi());
const heard = [];
api.on(Knocked, (params) => heard.push(params));
const failure = (promise) => promise.then(() => 'answered', (error) => error.name + ': ' + error.message + ' (' + error.code + ')');
window.__probe = {
  measure: (params) => api.request(Measure, params),
  measureFailure: (params) => failure(api.request(Measure, params)),
  unhandled: () => failure(api.request(Unhandled, { runId: 'run-1' })),
  knock: (times) => api.command(Knock, { times }),
  heard,
};
`;

const session = useBrowser(() => esbuild.build({
  stdin: { contents: PROBE, resolveDir: ROOT, sourcefile: 'messageProbe.ts', loader: 'ts' },
  bundle: true, platform: 'browser', format: 'esm', target: 'es2022', write: false, logLevel: 'warning',
}).then((result) => result.outputFiles[0]!.text));

/** The host: the product's dispatcher with this test's table, wired to the page like VS Code's postMessage. */
async function openProbe(): Promise<{ page: Page; errors: string[]; knocks: number[]; measured: unknown[]; logged: string[] }> {
  const page = await session.browser.newPage();
  const errors = collectPageErrors(page);
  const knocks: number[] = [];
  const measured: unknown[] = [];
  const logged: string[] = [];
  const post = (message: unknown) => void page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(m, '*'), message);
  const dispatcher = new WebviewDispatcher([
    onRequest(Measure, ({ shelf }) => { measured.push(shelf); return { area: shelf.size.rows * shelf.tags.length, labels: shelf.tags.map((tag) => `${shelf.title}/${tag}${shelf.size.unit ?? ''}`) }; }),
    onCommand(Knock, ({ times }) => { knocks.push(times); post(Knocked.create({ heard: times })); }),
  ], {
    post,
    logger: { debug: () => undefined, warn: (text) => logged.push(text), error: (text) => logged.push(String(text)) },
    commandFailed: (text) => logged.push(`shown: ${text}`),
  });
  await page.exposeBinding('__hostPost', (_source, json: string) => dispatcher.dispatch(JSON.parse(json)));
  await page.exposeBinding('__hostState', () => undefined);
  await page.goto(session.server.setPage({ runs: [], vscode: true }));
  await page.waitForFunction('window.__probe !== undefined');
  return { page, errors, knocks, measured, logged };
}

type Probe = {
  measure(params: unknown): Promise<unknown>;
  measureFailure(params: unknown): Promise<string>;
  unhandled(): Promise<string>;
  knock(times: number): void;
  heard: unknown[];
};
const probe = (page: Page) => ({
  call: <T>(run: (p: Probe) => T | Promise<T>) => page.evaluate(`(${run.toString()})(window.__probe)`) as Promise<T>,
});

test('a new request with nested params is answered by its one handler through the generic client', async () => {
  const { page, errors, logged, measured } = await openProbe();
  const answer = await probe(page).call((p) => p.measure({ shelf: { title: 'oak', tags: ['a', 'b'], size: { rows: 3, unit: 'cm' } } }));
  assert.deepEqual(answer, { area: 6, labels: ['oak/acm', 'oak/bcm'] });
  // Only declared members reach the handler.
  await probe(page).call((p) => p.measure({ shelf: { title: 'pine', tags: [], size: { rows: 1 }, colour: 'red' }, extra: true }));
  assert.deepEqual(measured.at(-1), { title: 'pine', tags: [], size: { rows: 1 } });
  assert.deepEqual(logged, []);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('params of the wrong shape are refused by the host with bad-request naming the field; the handler never runs', async () => {
  const { page, errors, measured } = await openProbe();
  const refused = await probe(page).call((p) => Promise.all([
    p.measureFailure({ shelf: { title: 'oak', tags: ['a', 7], size: { rows: 3 } } }),
    p.measureFailure({ shelf: { title: 'oak', tags: [], size: { rows: 3, unit: 'mm' } } }),
    p.measureFailure({ shelf: { title: 'oak', tags: [] } }),
    p.measureFailure({}),
  ]));
  assert.deepEqual(refused, [
    'InspectorError: "shelf.tags[1]" must be a non-empty string (bad-request)',
    'InspectorError: "shelf.size.unit" must be one of "cm", "in" (bad-request)',
    'InspectorError: "shelf.size" must be an object (bad-request)',
    'InspectorError: "shelf" must be an object (bad-request)',
  ]);
  assert.deepEqual(measured, []);
  assert.equal(await probe(page).call((p) => p.unhandled()), 'InspectorError: unknown request "test/unhandled" (bad-request)');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a new command reaches its handler, and a new notification reaches the listener the view gave api.on', async () => {
  const { page, errors, knocks } = await openProbe();
  await probe(page).call((p) => { p.knock(2); p.knock(5); });
  await waitFor(async () => (await probe(page).call((p) => p.heard.length)) === 2, 'two Knocked notifications', 5_000);
  assert.deepEqual(knocks, [2, 5]);
  assert.deepEqual(await probe(page).call((p) => p.heard), [{ heard: 2 }, { heard: 5 }]);
  assert.deepEqual(errors, []);
  await page.close();
});
