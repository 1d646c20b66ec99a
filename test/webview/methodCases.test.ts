// The method case views in Chromium: a 128k-token needle case (virtualised), RAGAS judges' findings linked to their
// spans, IF-RAG citation badges, LLM-Eval bars and distributions; RAGAS theme screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { IFRAG_MODEL, LONG_END_MARK, NEEDLE, NEEDLE_MODEL, RAGAS_CASE, RAGAS_MODEL, ifragRun, llmEvalRun, longNeedleRun, ragasRun } from './methodBuilders.js';
import type { FixtureRun } from './builders.js';
import { collectPageErrors, cspViolations, screenshotPath, seedViewState, waitFor, useBrowser } from './harness.js';
import type { PageGlobals } from './harness.js';
import type { PaletteName } from '../../webview/theme/palettes.js';

const session = useBrowser();


async function openCase(run: FixtureRun, caseId: string, model: string, theme: PaletteName = 'dark'): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = collectPageErrors(page);
  await seedViewState(page, { runId: run.detail.listing.runId, view: 'cases' });
  await page.goto(session.server.setPage({ runs: [run], theme }));
  await page.locator(`ri-case-list .row[data-case="${caseId}"][data-model="${model}"]`).click();
  await page.locator('ri-case-view h2').filter({ hasText: caseId }).waitFor();
  return { page, errors };
}

/** Whether an element's box lies inside a container's box (both in page coordinates). */
async function inside(element: Locator, container: Locator): Promise<boolean> {
  const [a, b] = [await element.boundingBox(), await container.boundingBox()];
  return !!a && !!b && a.y >= b.y - 1 && a.y + a.height <= b.y + b.height + 1;
}

/** The longest text node anywhere in the app, through every shadow root. */
function longestTextNode(page: Page): Promise<number> {
  return page.evaluate(`(() => {
    let longest = 0;
    const walk = (root) => {
      const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      while (it.nextNode()) longest = Math.max(longest, it.currentNode.data.length);
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(document.querySelector('rag-inspector-app').shadowRoot);
    return longest;
  })()`) as Promise<number>;
}

test('a 128k-token needle case opens at the needle, with placement facts, and scrolls through the whole context to its end', async () => {
  const run = longNeedleRun();
  const haystack = run.cases[0]!.evalCase.documents[0]!.text;
  assert.ok(haystack.length > 490_000, `the fixture haystack is ~500 KB (${haystack.length})`);
  const { page, errors } = await openCase(run, 'needle-128k/L=128000/d=50', NEEDLE_MODEL);
  const view = page.locator('ri-needle-view');

  // Around the needle first, beside the answer, in view without scrolling the page.
  const windowNeedle = view.locator('.window mark.needle');
  await windowNeedle.waitFor();
  assert.equal(await windowNeedle.evaluate((el) => el.textContent), NEEDLE);
  assert.ok(await windowNeedle.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= (globalThis as unknown as PageGlobals).innerHeight;
  }), 'the needle is in view when the case opens');
  assert.match(await view.locator('#needle-answer').innerText(), /eat a sandwich/);
  assert.equal(await view.locator('.requested-depth').innerText(), '50 %');
  const placed = run.cases[0]!.evalCase.params as { needleTokenIndex: number; actualDepthPercent: number };
  assert.ok(placed.actualDepthPercent < 50 && placed.actualDepthPercent > 49.9);
  const shift = Math.round((placed.actualDepthPercent - 50) * 1000) / 1000;
  assert.equal(await view.locator('.actual-depth').innerText(), `${Math.round(placed.actualDepthPercent * 1000) / 1000} % (${shift} points, backed up to a sentence end)`);
  const tokenIndex = placed.needleTokenIndex;
  assert.equal(await view.locator('.token-index').innerText(), tokenIndex.toLocaleString('en-US'));
  assert.match(await view.locator('.tokenizer').innerText(), /o200k_base \(anthropic:claude-3-haiku\) ≈ approximate/);
  assert.equal(await view.locator('.scoring').innerText(), 'judge_score (default: the eval file sets judge:)', 'which scoring applied, and why');

  // The whole context opens at the needle too, rendering only a few chunks of it.
  const viewer = view.locator('ri-long-text');
  const viewport = viewer.locator('.viewport');
  const needleInViewer = viewer.locator('mark.needle');
  await waitFor(async () => (await needleInViewer.count()) > 0 && inside(needleInViewer.first(), viewport), 'the viewer at the needle');
  const chunks = Number(await viewport.getAttribute('data-chunks'));
  assert.ok(chunks > 100, `${chunks} chunks`);
  assert.ok((await viewer.locator('.chunk').count()) < 20, 'only the chunks near the viewport are in the DOM');
  assert.ok(await longestTextNode(page) < 30_000, 'no text node holds more than a chunk (the prompt\'s 500 KB message is virtualised too)');

  // Keyboard: focus the viewer, End goes to the end of the text, which renders; Home back to the start.
  await viewport.focus();
  await page.keyboard.press('End');
  const end = viewer.locator(`.chunk[data-index="${chunks - 1}"]`);
  await waitFor(async () => (await end.count()) === 1
    && (await end.innerText()).includes(LONG_END_MARK) && inside(end, viewport), 'the last chunk rendered at the bottom');
  assert.ok((await viewer.locator('.chunk').count()) < 20);
  await page.keyboard.press('Home');
  await waitFor(async () => (await viewer.locator('.chunk[data-index="0"]').count()) === 1, 'back at the start');
  assert.match(await viewer.locator('.chunk[data-index="0"]').innerText(), /^§1\. /);

  // "Go to needle" comes back to it and flashes it.
  await view.locator('button.goto-needle').click();
  await viewer.locator('mark.needle.flash').waitFor();
  assert.ok(await inside(viewer.locator('mark.needle.flash').first(), viewport));
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('RAGAS: statement evidence flashes its span, unsupported statements are marked, claims link to the noise document, verdicts by rank on the cards', async () => {
  const { page, errors } = await openCase(ragasRun(), RAGAS_CASE, RAGAS_MODEL);
  const findings = page.locator('ri-ragas-findings');
  await findings.locator('section.faithfulness').waitFor();

  // Faithfulness: each statement with verdict and reason; the unsupported one has no evidence link.
  const statements = findings.locator('section.faithfulness li');
  assert.equal(await statements.count(), 3);
  assert.deepEqual(await statements.evaluateAll((els) => els.map((e) => e.className)), ['supported', 'supported', 'unsupported']);
  assert.match(await statements.nth(2).innerText(), /✗ not supported[\s\S]*repainted every seven years/);
  assert.equal(await statements.nth(2).locator('button.evidence-link').count(), 0);
  await statements.nth(0).locator('button.evidence-link').click();
  const flashed = page.locator('ri-document-card mark.flash');
  await flashed.first().waitFor();
  // The claim span inside it splits the highlight in two marks; together they are the quote.
  assert.equal((await flashed.evaluateAll((els) => els.map((e) => e.textContent))).join(''), 'the Eiffel Tower was completed in 1901');
  for (const ids of await flashed.evaluateAll((els) => els.map((e) => e.getAttribute('data-ids')))) assert.ok(ids!.split(' ').includes('faith-0'));
  assert.equal(await page.locator('ri-document-card[data-doc-id="d1"] mark.flash').count(), await flashed.count(), 'in the document the statement came from');
  await statements.nth(1).locator('button.evidence-link').click();
  await waitFor(async () => (await page.locator('ri-document-card[data-doc-id="d0"] mark.flash')
    .evaluateAll((els) => els.map((e) => e.textContent).join(''))) === 'It is 330 metres tall', 'the second statement\'s span');

  // Noise sensitivity: the wrong claim is traced to d1, marked as noise; the link flashes the span there.
  const claim = findings.locator('section.noise li[data-claim="0"]');
  assert.equal(await claim.getAttribute('class'), 'incorrect');
  const source = claim.locator('.source.noise[data-doc="d1"]');
  assert.match(await source.innerText(), /d1 · noise/);
  await source.locator('button').click();
  await waitFor(async () => {
    const flashes = await page.locator('ri-document-card[data-doc-id="d1"] mark.flash').evaluateAll((els) => els.map((e) => [e.getAttribute('data-ids'), e.textContent]));
    return flashes.length === 1 && flashes[0]![0]!.split(' ').includes('claim-0-0') && flashes[0]![1] === 'completed in 1901';
  }, 'the claim\'s source flashes');
  assert.match(await findings.locator('section.noise li[data-claim="1"] .source').innerText(), /d0 · relevant/);
  const d1Notes = page.locator('ri-document-card[data-doc-id="d1"] .note');
  assert.match(await d1Notes.filter({ hasText: 'judged noise' }).innerText(), /Source of 1 wrong claim/);

  // Context precision: per-document verdicts in rank order, in the list and on the cards.
  assert.deepEqual(await findings.locator('section.usefulness li').evaluateAll((els) => els.map((e) => e.textContent!.replace(/\s+/g, ' ').trim().slice(0, 16))),
    ['d0 ✓ useful Stat', 'd1 ✗ not useful ', 'd2 ✗ not useful ']);
  assert.match(await page.locator('ri-document-card[data-doc-id="d0"] .note[data-kind="usefulness"]').innerText(), /#1 ✓ useful \(context_precision\)/);
  assert.match(await page.locator('ri-document-card[data-doc-id="d2"] .note[data-kind="usefulness"]').innerText(), /#3 ✗ not useful/);
  // Context relevance: the extracted sentences are evidence spans in d0; the paraphrased one is flagged.
  const extracted = await page.locator('ri-document-card[data-doc-id="d0"] mark.evidence').evaluateAll((els) => els.map((e) => e.getAttribute('data-ids')));
  assert.ok(extracted.some((ids) => ids!.includes('extract-0')) && extracted.some((ids) => ids!.includes('extract-1')));
  assert.match(await findings.locator('section.relevance li').nth(2).innerText(), /not exact text of any document/);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('IF-RAG: citation badges on the cited cards; a wrong or missing citation is marked on the score and on the helpful document', async () => {
  const run = ifragRun();
  const cards = (page: Page, kind: string) => page.locator(`ri-document-card:has(.note[data-kind="${kind}"])`);
  const ids = (locator: Locator) => locator.evaluateAll((els) => els.map((e) => e.getAttribute('data-doc-id')));

  const right = await openCase(run, 'ifrag-b-right/q7/factual', IFRAG_MODEL);
  assert.deepEqual(await ids(cards(right.page, 'citation')), ['d2']);
  assert.match(await right.page.locator('ri-document-card[data-doc-id="d2"] .note[data-kind="citation"]').innerText(), /❝ cited as \[Document 3\]/);
  assert.equal(await right.page.locator('ri-document-card[data-doc-id="d2"] .note[data-kind="citation"]').getAttribute('class'), 'note pass');
  assert.equal(await right.page.locator('ri-score-list .note').count(), 0, 'no citation problem');
  assert.equal(await right.page.locator('#response-text mark.citation').innerText(), '[Document 3]');
  assert.deepEqual(await right.page.locator('ri-span-legend li mark').allInnerTexts(), ['answer', 'evidence', 'citation'], 'the legend explains the kinds shown, citations included');
  assert.deepEqual(right.errors, []);
  await right.page.close();

  const wrong = await openCase(run, 'ifrag-b-wrong/q7/factual', IFRAG_MODEL);
  assert.deepEqual(await ids(cards(wrong.page, 'citation')), ['d0', 'd4']);
  assert.equal(await wrong.page.locator('ri-document-card[data-doc-id="d0"] .note[data-kind="citation"]').getAttribute('class'), 'note fail');
  await wrong.page.locator('ri-case-view ri-span-legend').scrollIntoViewIfNeeded();
  await wrong.page.screenshot({ path: screenshotPath('ifrag-dark-wrong-citation') });
  assert.match(await wrong.page.locator('ri-score-list li[data-metric="correct"] .note[data-kind="citation-problem"]').innerText(), /✗ wrong citation[\s\S]*Cited \[Document 1\], \[Document 5\]; the answer needed \[Document 3\]/);
  assert.match(await wrong.page.locator('ri-document-card[data-doc-id="d2"] .note[data-kind="helpful"]').innerText(), /✗ helpful document, not cited \(\[Document 3\]\)/);
  assert.deepEqual(wrong.errors, []);
  await wrong.page.close();

  const missing = await openCase(run, 'ifrag-b-missing/q7/factual', IFRAG_MODEL);
  assert.equal(await cards(missing.page, 'citation').count(), 0);
  assert.match(await missing.page.locator('ri-score-list .note[data-kind="citation-problem"]').innerText(), /✗ missing citation/);
  assert.equal(await missing.page.locator('ri-document-card[data-doc-id="d2"] .note[data-kind="helpful"]').getAttribute('class'), 'note fail');
  assert.deepEqual(missing.errors, []);
  await missing.page.close();
});

test('LLM-Eval: a bar per dimension on the case; a histogram per dimension and model in the summary; agreement as a table', async () => {
  const run = llmEvalRun();
  const { page, errors } = await openCase(run, 'llm-eval/3', 'anthropic:claude-haiku');
  const bars = page.locator('ri-dimension-bars g[data-dimension]');
  assert.deepEqual(await bars.evaluateAll((els) => els.map((e) => e.getAttribute('data-dimension'))), ['content', 'grammar', 'relevance', 'appropriateness']);
  const scores = run.cases.find((c) => c.evalCase.id === 'llm-eval/3' && c.result.modelKey === 'anthropic:claude-haiku')!.result.scores;
  const content = scores[0]!.value as number;
  const track = Number(await bars.nth(0).locator('rect.track').getAttribute('width'));
  assert.equal(Number(await bars.nth(0).locator('rect.bar').getAttribute('width')).toFixed(2), ((content / 5) * track).toFixed(2), 'the bar is the score\'s share of the 0–5 track');
  assert.equal(await bars.nth(1).locator('rect.bar').count(), 0, 'the judge error draws no bar');
  assert.match((await bars.nth(1).textContent())!, /⚠ error/);

  await page.locator('ri-dimension-bars').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('llm-eval-dark-case') });
  await page.locator('[role="tab"]#tab-summary').click();
  const histograms = page.locator('ri-report-table ri-histogram');
  await histograms.first().waitFor();
  assert.equal(await histograms.count(), 4, 'one per dimension');
  const perModel = histograms.first().locator('figure');
  assert.equal(await perModel.count(), 2, 'one per model');
  const counts = await perModel.first().locator('rect.bar').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  assert.equal(counts.length, 5);
  assert.equal(counts.reduce((a, b) => a + b, 0), 12, 'every case of the model in some bin');
  const agreement = page.locator('ri-report-table table[data-table="llm-eval-human-agreement"]');
  assert.match(await agreement.innerText(), /content · Pearson r[\s\S]*content · Spearman ρ/);
  await histograms.first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('llm-eval-dark-summary') });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const theme of ['dark', 'light', 'highContrast'] as PaletteName[]) {
  test(`RAGAS case in the VS Code ${theme} theme (screenshot)`, async () => {
    const { page, errors } = await openCase(ragasRun(), RAGAS_CASE, RAGAS_MODEL, theme);
    const findings = page.locator('ri-ragas-findings');
    await findings.locator('section.faithfulness li').first().locator('button.evidence-link').click();
    await page.locator('ri-document-card mark.flash').first().waitFor();
    await findings.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`ragas-${theme}-findings`) });
    await page.locator('ri-case-view ri-span-legend').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`ragas-${theme}-documents`) });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('needle case screenshot (dark)', async () => {
  const { page, errors } = await openCase(longNeedleRun(), 'needle-128k/L=128000/d=50', NEEDLE_MODEL);
  await page.locator('ri-needle-view ri-long-text mark.needle').first().waitFor();
  await page.screenshot({ path: screenshotPath('needle-dark-case') });
  assert.deepEqual(errors, []);
  await page.close();
});
