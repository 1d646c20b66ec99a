// Large runs in Chromium: 10,000 and 100,000 cases render only the visible rows and stay fully usable.
// (How fast is measured in bench/webviewList.ts, not asserted here.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bigRun } from './builders.js';
import type { FixtureRun } from './builders.js';
import { collectPageErrors, seedViewState, waitFor, useBrowser } from './harness.js';

const session = useBrowser();


async function openList(run: FixtureRun): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = collectPageErrors(page);
  await seedViewState(page, { runId: run.detail.listing.runId, view: 'cases' });
  await page.goto(session.server.setPage({ runs: [run] }));
  await waitFor(() => page.evaluate("performance.getEntriesByName('ri-first-rows')[0]?.startTime") as Promise<number | undefined>, 'first rows', 60_000);
  return { page, errors };
}

const rowCount = (page: Page) => page.locator('ri-case-list .viewport [role="option"]').count();

test('10,000 cases: only visible rows in the DOM, keyboard opens cases, failed-only filters', async () => {
  const { page, errors } = await openList(bigRun(10_000, { runId: 'big-10k' }));
  assert.ok(await rowCount(page) < 60, 'only the visible rows (plus overscan) are rendered');

  await page.locator('ri-case-list .viewport').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await page.locator('ri-case-view').count()) > 0, 'a case opens');

  await page.locator('ri-case-filters vscode-checkbox').click();
  await waitFor(async () => !/^10,000 of/.test(await page.locator('ri-case-filters .count').innerText()), 'failed only');
  assert.ok(await rowCount(page) < 60);
  assert.deepEqual(errors, []);
  await page.close();
});

test('100,000 cases: search narrows the list and End reaches its last row', async () => {
  const { page, errors } = await openList(bigRun(100_000, { runId: 'big-100k', withDetails: 1_000 }));
  assert.ok(await rowCount(page) < 60);
  await page.locator('ri-case-filters vscode-textfield').evaluate((el) => {
    (el as unknown as { value: string }).value = 'australia';
    el.dispatchEvent(new Event('input'));
  });
  await waitFor(async () => /^20,000 of 100,000$/.test(await page.locator('ri-case-filters .count').innerText()), 'search applied', 20_000);
  await page.locator('ri-case-list .viewport').focus();
  await page.keyboard.press('End');
  await waitFor(async () => (await page.locator('ri-case-list .row.cursor').getAttribute('aria-posinset')) === '20000', 'last row');
  assert.deepEqual(errors, []);
  await page.close();
});
