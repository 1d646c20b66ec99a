// Retrieval in the inspector, in Chromium: a case's ranked candidates with the cut-off at k and its failure cause, a
// not-retrieved case, sent passages linked to their cards, the failure split's bars filtering the case list (mouse and
// keyboard), the retrieval metrics' line chart; screenshots in light, dark and high contrast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import {
  MALFORMED_CASE, MARKUP_ID, METRIC_KS, NOT_RETRIEVED_CASE, NOT_RETRIEVED_WORDS, RAG_K, RAG_MODEL, RANKED_OUT_CASE, RANKED_OUT_WORDS, SOURCE_FILE, SOURCE_PDF, SOURCE_URL, ragRun,
} from './ragBuilders.js';
import { collectPageErrors, cspViolations, screenshotPath, seedViewState, useBrowser, waitFor, webviewBundle } from './harness.js';
import { renderHtmlReport } from '../../src/core/report/html.js';
import type { PaletteName } from '../../webview/theme/palettes.js';

const session = useBrowser();
const run = ragRun();
const THEMES: PaletteName[] = ['light', 'dark', 'highContrast'];

async function openCase(caseId: string, theme: PaletteName = 'dark'): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1300, height: 950 } });
  const errors = collectPageErrors(page);
  await seedViewState(page, { runId: run.detail.listing.runId, view: 'cases' });
  await page.goto(session.server.setPage({ runs: [run], theme }));
  await page.locator(`ri-case-list .row[data-case="${caseId}"][data-model="${RAG_MODEL}"]`).click();
  await page.locator('ri-case-view h2').filter({ hasText: caseId }).waitFor();
  await page.locator('ri-retrieval-view').waitFor();
  return { page, errors };
}

async function openSummary(theme: PaletteName): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1300, height: 1100 } });
  const errors = collectPageErrors(page);
  await seedViewState(page, { runId: run.detail.listing.runId, view: 'summary' });
  await page.goto(session.server.setPage({ runs: [run], theme }));
  await page.locator('ri-bar-chart button.bar').first().waitFor();
  return { page, errors };
}

const rankOrder = (page: Page) => page.locator('ri-retrieval-view tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-rank') ?? `cut-${r.getAttribute('data-cutoff')}`));

test('a ranked-out case: the cause with its evidence, the cut-off line between rank k and k + 1, relevance and its label source, top 20 then all', async () => {
  const { page, errors } = await openCase(RANKED_OUT_CASE);
  const view = page.locator('ri-retrieval-view');
  assert.equal(await view.locator('.cause').innerText(), `Ranked out: ${RANKED_OUT_WORDS}`);
  // 20 of 25 rows, the cut-off line right after rank 5.
  const order = await rankOrder(page);
  assert.deepEqual(order.slice(0, 7), ['1', '2', '3', '4', '5', `cut-${RAG_K}`, '6']);
  assert.equal(order.filter((r) => !r.startsWith('cut')).length, 20);
  assert.match(await view.locator('.cutoff-line').innerText(), /cut-off k = 5: below this line was not sent/);
  // The cause's passage is marked, relevant with its label source, and not sent.
  const relevantRow = view.locator('tr[data-rank="8"]');
  assert.equal(await relevantRow.getAttribute('data-id'), 'doc-17');
  assert.match((await relevantRow.getAttribute('class'))!, /\babout\b/);
  assert.match(await relevantRow.innerText(), /✓ relevant \(relevant_ids\)/);
  assert.match(await relevantRow.innerText(), /not sent/);
  assert.match(await view.locator('tr[data-rank="2"]').innerText(), /✗ not relevant \(relevant_ids\)/);
  assert.match(await view.locator('tr[data-rank="6"]').innerText(), /\? unknown/);
  // Sources: a file as text (no commands in the report), a URL as text, never a link.
  assert.match(await view.locator('tr[data-rank="2"]').innerText(), new RegExp(`${SOURCE_FILE.replaceAll('/', '\\/')}:40–52`));
  assert.equal(await view.locator('tr[data-rank="3"] .url').innerText(), SOURCE_URL);
  // A PDF's passage is placed by its pages.
  assert.match(await view.locator('tr[data-rank="4"]').innerText(), new RegExp(`${SOURCE_PDF.replaceAll('/', '\\/').replaceAll('.', '\\.')} pp\\. 3–4`));
  assert.equal(await view.locator('a').count(), 0);
  // Markup in an id is text.
  assert.equal(await view.locator('tr[data-rank="10"]').getAttribute('data-id'), MARKUP_ID);
  assert.equal(await view.locator('tr[data-rank="10"] td.id').innerText(), MARKUP_ID);
  assert.equal(await page.evaluate('window.__xss'), undefined);
  // The list row shows the cause in words.
  assert.match(await page.locator(`ri-case-list .row[data-case="${RANKED_OUT_CASE}"] .badge.cause`).innerText(), /ranked out/);

  await view.locator('button', { hasText: 'Show all 25 candidates (5 more)' }).click();
  assert.equal((await rankOrder(page)).filter((r) => !r.startsWith('cut')).length, 25);
  await view.locator('button', { hasText: 'Show the top 20 only' }).waitFor();
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sent passage links to its document card: click or Enter scrolls to the card and flashes it', async () => {
  const { page, errors } = await openCase(RANKED_OUT_CASE);
  const card = page.locator('ri-document-card[data-doc-id="d4"] article');
  await page.locator('ri-case-view').evaluate((el) => { (el as unknown as { scrollTop: number }).scrollTop = 0; });
  const link = page.locator('ri-retrieval-view tr[data-rank="5"] button', { hasText: 'sent as d4' });
  await link.focus();
  await page.keyboard.press('Enter');
  await waitFor(async () => /\bflash\b/.test((await card.getAttribute('class')) ?? ''), 'the card flashes');
  const [box, viewport] = [await card.boundingBox(), page.viewportSize()!];
  assert.ok(box && box.y >= 0 && box.y < viewport.height, 'the card was scrolled into view');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a not-retrieved case: its cause, no relevant candidate, the relevant id never retrieved named', async () => {
  const { page, errors } = await openCase(NOT_RETRIEVED_CASE);
  const view = page.locator('ri-retrieval-view');
  assert.equal(await view.locator('.cause').getAttribute('data-cause'), 'not-retrieved');
  assert.match(await view.locator('.cause').innerText(), new RegExp(`^Not retrieved: ${NOT_RETRIEVED_WORDS.replace(/[()]/g, '\\$&')}$`));
  assert.equal(await view.locator('tbody .relevant').count(), 0);
  assert.equal(await view.locator('tbody .not-relevant').count(), 6);
  assert.match(await view.locator('dl.facts').innerText(), /Relevant, never retrieved\s+doc-99/);
  assert.deepEqual(await rankOrder(page), ['1', '2', '3', '4', '5', 'cut-5', '6']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a malformed retrieval record is named in words, and the rest of the case still shows', async () => {
  const { page, errors } = await openCase(MALFORMED_CASE);
  const alert = page.locator('ri-retrieval-view [role="alert"]');
  assert.equal(await alert.innerText(), 'This case\'s retrieval record cannot be read (params.retrieval.k is not a whole number ≥ 0); its ranked list is not shown.');
  assert.equal(await page.locator('ri-retrieval-view table').count(), 0);
  await page.locator('ri-document-card').first().waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bar of the failure split filters the case list by its cause: click, and Tab + Enter', async () => {
  const { page, errors } = await openSummary('dark');
  const bars = page.locator('ri-bar-chart button.bar');
  assert.deepEqual(await bars.evaluateAll((els) => els.map((e) => e.getAttribute('data-label'))), ['not-retrieved', 'ranked-out', 'retrieved-not-used']);
  assert.equal(await bars.nth(1).getAttribute('aria-label'), 'ranked out: 0.667 [0.208, 0.939], n = 3. Show these cases');
  assert.match(await bars.nth(1).innerText(), /ranked out\s+0\.667 \[0\.208, 0\.939\]\s+n = 3/);
  await bars.nth(1).click();
  const rows = page.locator('ri-case-list .viewport [role="option"]');
  await waitFor(async () => (await rows.count()) === 2, 'the list shows the ranked-out cases');
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-case')).sort()), [RANKED_OUT_CASE, 'rag-docs/3']);
  assert.equal(await page.locator('ri-case-filters vscode-single-select[data-filter="cause"]').evaluate((el) => (el as unknown as { value: string }).value), 'ranked-out');

  // Back to the summary; the keyboard reaches the first bar and Enter opens its cases.
  await page.locator('[role="tab"]#tab-summary').click();
  await bars.first().waitFor();
  await bars.first().focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  assert.equal(await bars.first().evaluate((el) => el.matches(':focus')), true, 'Tab reaches the bar');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await rows.count()) === 1, 'the list shows the not-retrieved case');
  assert.equal(await rows.first().getAttribute('data-case'), NOT_RETRIEVED_CASE);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the retrieval metrics by k: one line per metric over k, interval bands, axis titles; the tables fold under their charts', async () => {
  const { page, errors } = await openSummary('dark');
  const chart = page.locator('figure.line-chart ri-line-chart');
  assert.deepEqual(await chart.locator('svg g[data-series]').evaluateAll((els) => els.map((e) => e.getAttribute('data-series'))), ['recall@k', 'precision@k', 'hit rate@k', 'MRR', 'nDCG@k']);
  assert.equal(await chart.locator('path.band').count(), 5);
  assert.equal(await chart.locator('line.whisker').count(), 0);
  const texts = await chart.locator('svg[role="img"] > text, svg[role="img"] .axis text').evaluateAll((els) => els.map((e) => e.textContent));
  for (const k of METRIC_KS) assert.ok(texts.includes(k), `x tick ${k}`);
  assert.ok(texts.includes('k') && texts.includes('value'), 'axis titles');
  assert.match((await chart.locator('svg[role="img"]').getAttribute('aria-label'))!, /recall@k 1→0\.25, 3→0\.25, 5→0\.25, 10→0\.75/);
  // Both tables are charted: their numbers fold away, and no second line chart is drawn from them.
  assert.equal(await page.locator('ri-report-table details table').count(), 2);
  assert.equal(await page.locator('ri-line-chart').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the offline HTML report shows the same: ranked list with its cut-off and cause, bars that filter the list', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'rag-inspector-rag-report-')), 'report.html');
  writeFileSync(file, renderHtmlReport(run.detail, run.cases, await webviewBundle()));
  const page = await session.browser.newPage({ viewport: { width: 1300, height: 950 } });
  const errors = collectPageErrors(page);
  await page.goto(pathToFileURL(file).href);
  await page.locator('ri-bar-chart button.bar[data-label="ranked-out"]').click();
  const rows = page.locator('ri-case-list .viewport [role="option"]');
  await waitFor(async () => (await rows.count()) === 2, 'the list shows the ranked-out cases');
  await page.locator(`ri-case-list .row[data-case="${RANKED_OUT_CASE}"]`).click();
  const view = page.locator('ri-retrieval-view');
  await view.locator('.cutoff-line').waitFor();
  assert.equal(await view.locator('.cause').innerText(), `Ranked out: ${RANKED_OUT_WORDS}`);
  // No editor to open a file in: the source is its path as text.
  assert.equal(await view.locator('tr[data-rank="2"] button').count(), 1, 'only the card link');
  assert.deepEqual(errors, []);
  await page.close();
});

for (const theme of THEMES) {
  test(`screenshots in ${theme}: the ranked-out case's retrieval, the summary's charts`, async () => {
    const { page, errors } = await openCase(RANKED_OUT_CASE, theme);
    await page.locator('ri-retrieval-view').screenshot({ path: screenshotPath(`retrieval-${theme}-case`) });
    await page.close();
    const summary = await openSummary(theme);
    await summary.page.locator('ri-run-summary section.suite').screenshot({ path: screenshotPath(`retrieval-${theme}-summary`) });
    assert.deepEqual([...errors, ...summary.errors], []);
    await summary.page.close();
  });
}
