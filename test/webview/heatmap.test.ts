// The Needle heatmaps in Chromium: colours on the reference scale, side by side per template, hover/focus shows the
// cell's case, Enter opens it, hatched empty cells, undetermined counted apart, SVG/PNG export; theme screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { JUDGE_ERROR_CELL, MISSING_CELL, NEEDLE_MODEL, NEEDLE_SUITES, needleGridRun, ratingOf, referenceGridRun } from './methodBuilders.js';
import { collectPageErrors, cspViolations, screenshotPath, seedViewState, waitFor, useBrowser } from './harness.js';
import type { PaletteName } from '../../webview/theme/palettes.js';

/** The browser's XML parser, as the page callback uses it (the test tsconfig has no DOM library). */
interface ParsedElement { textContent: string | null; getAttribute(name: string): string | null }
interface PageParser {
  DOMParser: new () => { parseFromString(text: string, type: string): { querySelector(s: string): ParsedElement | null; querySelectorAll(s: string): Iterable<ParsedElement> } };
}

const session = useBrowser();
const grid = needleGridRun();


async function openSummary(theme: PaletteName = 'dark', run = grid): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1500, height: 950 }, acceptDownloads: true });
  const errors = collectPageErrors(page);
  await seedViewState(page, { runId: run.detail.listing.runId, view: 'summary' });
  await page.goto(session.server.setPage({ runs: [run], theme }));
  await page.locator('ri-heatmap').first().waitFor();
  return { page, errors };
}

const heatmap = (page: Page, suiteId: string) => page.locator(`ri-heatmap[data-suite="${suiteId}"]`);
/** Rows are depths (0 at the top), columns context lengths, both in the builders' order. */
const cell = (map: Locator, depthIndex: number, lengthIndex: number) => map.locator(`rect.cell[data-row="${depthIndex}"][data-col="${lengthIndex}"]`);

test('one heatmap per suite, side by side on the shared grid; cell colours follow the reference scale', async () => {
  const { page, errors } = await openSummary();
  const maps = page.locator('.heatmap-group ri-heatmap');
  assert.deepEqual(await maps.evaluateAll((els) => els.map((e) => e.getAttribute('data-suite'))), [...NEEDLE_SUITES]);
  assert.equal(await page.locator('.heatmap-group').count(), 1, 'the three templates share one grid');
  const boxes = await Promise.all([0, 1, 2].map((i) => maps.nth(i).boundingBox()));
  assert.ok(boxes.every((b) => b && Math.abs(b.y - boxes[0]!.y) < 2), 'side by side: the same top');
  assert.ok(boxes[0]!.x < boxes[1]!.x && boxes[1]!.x < boxes[2]!.x);

  const reference = heatmap(page, NEEDLE_SUITES[0]);
  assert.equal(await reference.locator('rect.cell').count(), 25);
  // Judge scale 1–10 over #F0496E → #EBB839 → #0CD79F, interpolated per channel (values computed by hand).
  const expected: [number, string][] = [[10, '#0cd79f'], [1, '#f0496e'], [4, '#ed934b'], [7, '#a1c25b']];
  for (const [depthIndex, [rating, colour]] of expected.entries()) {
    assert.equal(ratingOf(0, 0, depthIndex), rating);
    assert.equal(await cell(reference, depthIndex, 0).getAttribute('fill'), colour, `rating ${rating}`);
  }
  // The axis titles and depth 0 at the top.
  const text = await reference.locator('svg').evaluate((el) => [...el.querySelectorAll('text')].map((t) => t.textContent));
  assert.ok(text.includes('Token Limit') && text.includes('Depth Percent'));
  const firstRowY = Number(await cell(reference, 0, 0).getAttribute('y'));
  const lastRowY = Number(await cell(reference, 4, 0).getAttribute('y'));
  assert.ok(firstRowY < lastRowY, 'depth 0 is the top row');

  // No data: hatched; a judge error: hatched too, with its marker, and counted apart.
  const missing = cell(reference, 2, 4);
  assert.match((await missing.getAttribute('fill'))!, /^url\(#hm\d+-hatch\)$/);
  assert.equal(MISSING_CELL.depth, 50);
  const judgeError = cell(reference, 3, 2);
  assert.match((await judgeError.getAttribute('fill'))!, /hatch/);
  assert.equal(JUDGE_ERROR_CELL.depth, 75);
  assert.equal(await reference.locator('path.marker').count(), 2, 'one cell marker plus the legend\'s');
  assert.match(await reference.locator('.counts').innerText(), /23 of 25 cells scored · 2 without data \(hatched\) · 1 undetermined result/);
  // Every other template has a full grid.
  assert.equal(await heatmap(page, NEEDLE_SUITES[2]).locator('rect.cell.empty').count(), 0);
  // The backing tables fold away under their charts (no line chart of 5 depth series).
  assert.equal(await page.locator('ri-report-table details table[data-table^="needle-heatmap"]').count(), 3);
  assert.equal(await page.locator('ri-line-chart').count(), 0);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('hover and keyboard focus show score, n and the response; Enter opens the cell\'s case', async () => {
  const { page, errors } = await openSummary();
  const reference = heatmap(page, NEEDLE_SUITES[0]);
  await cell(reference, 1, 0).hover();
  const tip = reference.locator('.tip');
  await waitFor(async () => /does not say what to do in San Francisco/.test(await tip.innerText()), 'tooltip with the response');
  assert.match(await tip.innerText(), /Depth Percent 25 · Token Limit 1000/);
  assert.equal(await tip.locator('.score').innerText(), '1');
  assert.equal(await tip.locator('.n').innerText(), '1');

  // Keyboard: focus the first cell, arrows move, the tooltip follows with that cell's response.
  await cell(reference, 0, 0).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const focused = await page.evaluate(`(() => {
    const map = document.querySelector('rag-inspector-app').shadowRoot.querySelector('ri-run-summary').shadowRoot.querySelector('ri-heatmap');
    const el = map.shadowRoot.activeElement;
    return el ? el.getAttribute('data-row') + ',' + el.getAttribute('data-col') : null;
  })()`);
  assert.equal(focused, '2,1');
  await waitFor(async () => /Depth Percent 50 · Token Limit 2750/.test(await tip.innerText()), 'tooltip for the focused cell');
  await waitFor(async () => /San Francisco/.test(await tip.innerText()), 'its response');
  await page.keyboard.press('Enter');
  await page.locator('ri-case-view h2').filter({ hasText: `${NEEDLE_SUITES[0]}/L=2750/d=50` }).waitFor();
  assert.equal(await page.locator('[role="tab"][aria-selected="true"]').getAttribute('id'), 'tab-cases');
  assert.equal(await page.locator('ri-case-list .row.open').getAttribute('data-key'), `${NEEDLE_SUITES[0]}/L=2750/d=50\u0000${NEEDLE_MODEL}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Export SVG downloads a standalone, valid SVG with every cell and its colour; Export PNG a PNG', async () => {
  const { page, errors } = await openSummary('light');
  const reference = heatmap(page, NEEDLE_SUITES[0]);
  const [download] = await Promise.all([page.waitForEvent('download'), reference.locator('vscode-button.export-svg').click()]);
  assert.match(download.suggestedFilename(), /^heatmap-needle-reference-anthropic-claude-3-haiku\.svg$/);
  const file = readFileSync((await download.path())!, 'utf8');
  assert.match(file, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.ok(!file.includes('<!--'), 'no template markers');
  assert.ok(!file.includes('var(--'), 'theme colours are resolved');
  // Parse it as a browser would open the file, then read the cells back.
  const parsed = await page.evaluate((svg) => {
    const doc = new (globalThis as unknown as PageParser).DOMParser().parseFromString(svg, 'image/svg+xml');
    const cells = [...doc.querySelectorAll('rect.cell')].map((r) => `${r.getAttribute('data-row')},${r.getAttribute('data-col')}=${r.getAttribute('fill')}`);
    const hatch = doc.querySelector('pattern line');
    return { error: doc.querySelector('parsererror')?.textContent ?? null, cells, hatchStroke: hatch?.getAttribute('stroke') ?? null,
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent), textFill: doc.querySelector('text')?.getAttribute('fill') ?? null };
  }, file);
  assert.equal(parsed.error, null);
  assert.equal(parsed.cells.length, 25);
  assert.ok(parsed.cells.includes('0,0=#0cd79f') && parsed.cells.includes('1,0=#f0496e') && parsed.cells.includes('2,0=#ed934b'));
  assert.ok(parsed.cells.some((c) => /^2,4=url\(#hm\d+-hatch\)$/.test(c)), 'the empty cell keeps its hatch');
  assert.match(parsed.hatchStroke ?? '', /^rgb/, 'the hatch colour is written in');
  assert.match(parsed.textFill ?? '', /^rgb/);
  assert.ok(parsed.texts.includes('Token Limit') && parsed.texts.includes('Depth Percent'));
  assert.ok(parsed.texts.includes(`${NEEDLE_SUITES[0]} · ${NEEDLE_MODEL}`), 'the file names its suite and model');

  const [png] = await Promise.all([page.waitForEvent('download'), reference.locator('vscode-button.export-png').click()]);
  assert.match(png.suggestedFilename(), /\.png$/);
  const bytes = readFileSync((await png.path())!);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  assert.equal(bytes.readUInt32BE(16), 1100, 'width: the SVG at 2×');
  copyFileSync((await png.path())!, screenshotPath('heatmap-export-light'));
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the reference 35 × 35 grid: every cell drawn, axis labels thinned to stay legible, Enter on the last cell', async () => {
  const { page, errors } = await openSummary('light', referenceGridRun());
  const map = heatmap(page, NEEDLE_SUITES[1]);
  assert.equal(await map.locator('rect.cell').count(), 35 * 35);
  const labels = await map.locator('svg').evaluate((el) => [...el.querySelectorAll('text[transform^="rotate(-45"]')].map((t) => t.textContent));
  assert.ok(labels.length > 5 && labels.length < 35, `${labels.length} of 35 length labels`);
  assert.equal(labels[0], '1000');
  assert.equal(labels.at(-1), '16000');
  await cell(map, 34, 34).focus();
  await waitFor(async () => /Depth Percent 100 · Token Limit 16000/.test(await map.locator('.tip').innerText()), 'tooltip of the last cell');
  await page.locator('section[aria-labelledby="heatmaps"]').screenshot({ path: screenshotPath('heatmap-35x35-light') });
  await page.keyboard.press('Enter');
  await page.locator('ri-case-view h2').filter({ hasText: `${NEEDLE_SUITES[1]}/L=16000/d=100` }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

for (const theme of ['dark', 'light', 'highContrast'] as PaletteName[]) {
  test(`heatmaps in the VS Code ${theme} theme (screenshot)`, async () => {
    const { page, errors } = await openSummary(theme);
    const reference = heatmap(page, NEEDLE_SUITES[0]);
    await cell(reference, 3, 1).hover();
    await waitFor(async () => /San Francisco/.test(await reference.locator('.tip').innerText()), 'tooltip');
    await page.locator('section[aria-labelledby="heatmaps"]').screenshot({ path: screenshotPath(`heatmap-${theme}`) });
    assert.deepEqual(errors, []);
    await page.close();
  });
}
