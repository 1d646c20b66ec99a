// Benchmark: the virtualised case list in Chromium — first paint and case switching at 10,000 cases, scrolling
// and filtering at 10,000 and 100,000. Prints the numbers (BENCHMARKS.md keeps them); asserts nothing.
// Run: npm run bench -- webviewList
import type { Browser, Page } from 'playwright-core';
import { bigRun } from '../test/webview/builders.js';
import type { FixtureRun } from '../test/webview/builders.js';
import { collectPageErrors, launch, seedViewState, serve, waitFor } from '../test/webview/harness.js';
import type { TestServer } from '../test/webview/harness.js';

let browser: Browser;
let server: TestServer;

interface Timings { firstRows: number; fcp: number; domRows: number }

async function openList(run: FixtureRun): Promise<{ page: Page; timings: Timings; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = collectPageErrors(page);
  await seedViewState(page, { runId: run.detail.listing.runId, view: 'cases' });
  await page.goto(server.setPage({ runs: [run] }));
  const firstRows = await waitFor(() => page.evaluate(
    "performance.getEntriesByName('ri-first-rows')[0]?.startTime") as Promise<number | undefined>, 'first rows mark', 60_000) as number;
  const fcp = await waitFor(() => page.evaluate(
    "performance.getEntriesByName('first-contentful-paint')[0]?.startTime") as Promise<number | undefined>, 'first contentful paint', 10_000) as number;
  // Let the collector finish with the parsed run before timing frames, as a reader's first scroll would.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const domRows = await page.locator('ri-case-list .viewport [role="option"]').count();
  return { page, timings: { firstRows, fcp, domRows }, errors };
}

/** In the page: scroll the list by `step` px per frame for `frames` frames; returns frame intervals. */
const SCROLL_FRAMES = `async ([step, frames]) => {
  const list = document.querySelector('rag-inspector-app').shadowRoot.querySelector('ri-case-list');
  const viewport = list.shadowRoot.querySelector('.viewport');
  const gaps = [];
  let last = performance.now();
  for (let i = 0; i < frames; i++) {
    viewport.scrollTop += step;
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }
  const rows = list.shadowRoot.querySelectorAll('.viewport [role="option"]').length;
  return { gaps, rows, scrollTop: viewport.scrollTop };
}`;

/** In the page: ↓ then Enter on the list, until the case view announced the new case and a frame was painted. */
const SWITCH_CASE = `async () => {
  const app = document.querySelector('rag-inspector-app');
  const list = app.shadowRoot.querySelector('ri-case-list');
  const viewport = list.shadowRoot.querySelector('.viewport');
  const shown = new Promise((r) => app.addEventListener('ri-case-shown', r, { once: true }));
  const t0 = performance.now();
  viewport.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, composed: true }));
  viewport.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
  await shown;
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - t0;
}`;

function stats(values: number[]): { median: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: Math.round(at(0.5) * 10) / 10, p95: Math.round(at(0.95) * 10) / 10, max: Math.round(sorted[sorted.length - 1]! * 10) / 10 };
}

async function scrollStats(page: Page, step: number): Promise<{ gaps: { median: number; p95: number; max: number }; rows: number }> {
  const fn = await page.evaluateHandle(SCROLL_FRAMES);
  const result = await fn.evaluate((f, args) => (f as unknown as (a: number[]) => Promise<{ gaps: number[]; rows: number }>)(args), [step, 120]);
  return { gaps: stats(result.gaps), rows: result.rows };
}

async function tenThousand(): Promise<void> {
  const run = bigRun(10_000, { runId: 'big-10k' });
  const { page, timings, errors } = await openList(run);
  console.log(`  10,000 cases: first contentful paint ${Math.round(timings.fcp)} ms, first list rows ${Math.round(timings.firstRows)} ms after navigation start; ${timings.domRows} row elements in the DOM`);

  await page.locator('ri-case-list .viewport').focus();
  const switchFn = await page.evaluateHandle(SWITCH_CASE);
  const switches: number[] = [];
  for (let i = 0; i < 30; i++) switches.push(await switchFn.evaluate((f) => (f as unknown as () => Promise<number>)()));
  const sw = stats(switches);
  console.log(`  case switch (↓ + Enter → case rendered and painted), 30 switches: median ${sw.median} ms, p95 ${sw.p95} ms, max ${sw.max} ms`);

  const wheel = await scrollStats(page, 400);
  console.log(`  scrolling 400 px per frame (wheel) for 120 frames: frame interval median ${wheel.gaps.median} ms, p95 ${wheel.gaps.p95} ms, max ${wheel.gaps.max} ms`);
  const scroll = await scrollStats(page, 1500);
  console.log(`  scrolling 1,500 px per frame (every row replaced) for 120 frames: frame interval median ${scroll.gaps.median} ms, p95 ${scroll.gaps.p95} ms, max ${scroll.gaps.max} ms; ${scroll.rows} rows in the DOM`);

  const filterStarted = Date.now();
  await page.locator('ri-case-filters vscode-checkbox').click();
  await waitFor(async () => !/^10,000 of/.test(await page.locator('ri-case-filters .count').innerText()), 'failed only');
  console.log(`  "failed only" on 10,000 rows: ${Date.now() - filterStarted} ms (includes Playwright round trips)`);
  if (errors.length) console.log(`  page errors: ${errors.join('; ')}`);
  await page.close();
}

async function hundredThousand(): Promise<void> {
  // The list needs every row; details for only the first 1,000 keep the page's embedded JSON reasonable.
  const run = bigRun(100_000, { runId: 'big-100k', withDetails: 1_000 });
  const { page, timings, errors } = await openList(run);
  console.log(`  100,000 cases: first contentful paint ${Math.round(timings.fcp)} ms, first list rows ${Math.round(timings.firstRows)} ms; ${timings.domRows} row elements in the DOM`);

  // A wheel or trackpad moves a few rows a frame; dragging the scrollbar replaces every row every frame.
  const scroll = await scrollStats(page, 400);
  console.log(`  scrolling 400 px per frame (wheel) for 120 frames: frame interval median ${scroll.gaps.median} ms, p95 ${scroll.gaps.p95} ms, max ${scroll.gaps.max} ms`);
  const drag = await scrollStats(page, 20_000);
  console.log(`  scrolling 20,000 px per frame (scrollbar drag) for 120 frames: frame interval median ${drag.gaps.median} ms, p95 ${drag.gaps.p95} ms, max ${drag.gaps.max} ms`);

  const t = Date.now();
  await page.locator('ri-case-filters vscode-textfield').evaluate((el) => {
    (el as unknown as { value: string }).value = 'australia';
    el.dispatchEvent(new Event('input'));
  });
  await waitFor(async () => /^20,000 of 100,000$/.test(await page.locator('ri-case-filters .count').innerText()), 'search applied', 20_000);
  console.log(`  search over 100,000 rows: ${Date.now() - t} ms (includes the 60 ms debounce and Playwright round trips)`);

  // The end of the list is reachable and rendered.
  await page.locator('ri-case-list .viewport').focus();
  await page.keyboard.press('End');
  await waitFor(async () => (await page.locator('ri-case-list .row.cursor').getAttribute('aria-posinset')) === '20000', 'last row');
  if (errors.length) console.log(`  page errors: ${errors.join('; ')}`);
  await page.close();
}

async function main(): Promise<void> {
  browser = await launch();
  server = await serve();
  try {
    await tenThousand();
    await hundredThousand();
  } finally {
    await browser.close();
    await server.close();
  }
}

void main();
