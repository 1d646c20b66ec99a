// The review of generated questions in Chromium under the panel's CSP, against a fake VS Code host that answers with
// core's own review code on a real questions file: y keeps, x drops, c comments (on the focused question or a
// multi-selection), j/k move, a source opens at its line, a bad line is named, text stays text; screenshots.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { GetQuestionReview, OpenDatasetRow, SetQuestionReview, isEnvelope } from '../../src/protocol.js';
import { applyReviewChange, readQuestionReview } from '../../src/core/corpus/questions/reviewData.js';
import { reviewFileFor } from '../../src/core/corpus/questions/review.js';
import { QUESTION_REVIEW_FORMAT } from '../../src/core/corpus/questions/reviewView.js';
import { collectPageErrors, cspViolations, screenshotPath, useBrowser, waitFor } from './harness.js';
import type { PaletteName } from '../../webview/theme/palettes.js';

const session = useBrowser();
const HOSTILE = '<img src=x onerror="window.__xss=1">Which <b>room</b> seats six?';

const folder = mkdtempSync(join(tmpdir(), 'review-view-'));
after(() => rmSync(folder, { recursive: true, force: true }));

function questionsFile(): string {
  const dir = mkdtempSync(join(folder, 'q-'));
  writeFileSync(join(dir, 'rooms.md'), '# Rooms\n\nStudy rooms\nEach study room seats six people.\n');
  const file = join(dir, 'questions.jsonl');
  const row = (id: string, kind: string, question: string, extra: object = {}) => JSON.stringify({ id, kind, question, reference: `answer to ${id}`, checks: { answerable: 'the judge found it in the chunk', duplicate: 'closest 0.41' }, ...extra });
  writeFileSync(file, [
    row('q1', 'single-hop', HOSTILE, { relevant_spans: [{ file: 'rooms.md', start: 9, end: 54 }] }),
    row('q2', 'multi-hop', 'How long are films lent and what does a late day cost?'),
    '{"id": "q-broken", "question": ',
    row('q3', 'unanswerable', 'Does the library lend bicycles?'),
    row('q4', 'single-hop', 'How many items can an adult borrow?'),
  ].join('\n') + '\n');
  writeFileSync(join(dir, 'questions.rejected.jsonl'), `${JSON.stringify({ status: 'rejected', key: 'k', kind: 'single-hop', chunk_ids: ['rooms.md#0-10'], seed: 1, reason: 'the question states its own answer', check: 'leak', retry: false, question: 'Is it <i>six</i>?' })}\n`);
  return file;
}

/** Answers the view's requests with core's review code on `file`, as the extension's panel does; records every message. */
async function openReview(file: string, theme: PaletteName = 'dark'): Promise<{ page: Page; received: unknown[]; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors = collectPageErrors(page);
  const received: unknown[] = [];
  const send = (message: unknown) => void page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, origin: string): void }).postMessage(m, '*'), message);
  await page.exposeBinding('__hostPost', async (_source, json: string) => {
    const message = JSON.parse(json) as unknown;
    received.push(message);
    if (!isEnvelope(message)) return;
    if (GetQuestionReview.is(message)) send(GetQuestionReview.respond(message.id, await readQuestionReview(file)));
    else if (SetQuestionReview.is(message)) send(SetQuestionReview.respond(message.id, await applyReviewChange(file, message.params.change)));
  });
  await page.exposeBinding('__hostState', () => undefined);
  await page.goto(session.server.setPage({ runs: [], vscode: true, theme, data: { format: QUESTION_REVIEW_FORMAT } }));
  await page.locator('ri-question-review li.question').first().waitFor();
  return { page, received, errors };
}

const sets = (received: unknown[]) => received.filter((m) => SetQuestionReview.is(m)).map((m) => (m as { params: { change: unknown } }).params.change);
const reviewLinesOf = (file: string) => readFileSync(reviewFileFor(file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; decision: string | null; comment?: string });

test('y keeps, j moves, x drops, c comments: each sends its change, the sidecar is written and the counts follow', async () => {
  const file = questionsFile();
  const { page, received, errors } = await openReview(file);
  const view = page.locator('ri-question-review');
  await waitFor(async () => (await view.locator('.counts').textContent())?.includes('4 unreviewed'), 'four unreviewed questions');
  await page.keyboard.press('y');
  await waitFor(async () => (await view.locator('.count-kept').textContent())?.startsWith('1 kept'), 'one kept');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await waitFor(async () => (await view.locator('.count-dropped').textContent())?.startsWith('1 dropped'), 'one dropped');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('c');
  await view.locator('input.comment').fill('check the opening hours page too');
  await view.locator('input.comment').press('Enter');
  await waitFor(async () => (await view.locator('li[data-id="q3"] .comment-text').count()) === 1, 'the comment shown');
  assert.deepEqual(sets(received), [
    { ids: ['q1'], decision: 'keep' },
    { ids: ['q2'], decision: 'drop' },
    { ids: ['q3'], decision: null, comment: 'check the opening hours page too' },
  ]);
  assert.deepEqual(reviewLinesOf(file).map((l) => [l.id, l.decision, l.comment]), [['q1', 'keep', undefined], ['q2', 'drop', undefined], ['q3', null, 'check the opening hours page too']]);
  assert.match(await view.locator('li[data-id="q2"] .state').textContent() ?? '', /dropped/);
  assert.deepEqual(errors, []);
  assert.deepEqual(await cspViolations(page), []);
  await page.screenshot({ path: screenshotPath('question-review-dark'), fullPage: true });
  await page.close();
});

test('a multi-selection (Ctrl-click, Shift-click) is dropped at once; the state filter shows the dropped ones', async () => {
  const file = questionsFile();
  const { page, received } = await openReview(file, 'light');
  const view = page.locator('ri-question-review');
  await view.locator('li[data-id="q2"] .q').click();
  await view.locator('li[data-id="q4"] .q').click({ modifiers: ['Shift'] });
  await view.locator('li[data-id="q1"] .q').click({ modifiers: ['Control'] });
  await page.keyboard.press('x');
  await waitFor(async () => (await view.locator('.count-dropped').textContent())?.startsWith('4 dropped'), 'four dropped');
  assert.deepEqual(sets(received), [{ ids: ['q2', 'q3', 'q4', 'q1'], decision: 'drop' }]);
  await view.locator('select.state-filter').selectOption('dropped');
  assert.equal(await view.locator('li.question').count(), 4);
  await view.locator('select.state-filter').selectOption('kept');
  assert.equal(await view.locator('li.question').count(), 0);
  await page.screenshot({ path: screenshotPath('question-review-light'), fullPage: true });
  await page.close();
});

test('a source chunk opens at its line; a bad line is named at file:line; text stays text; the rejected ones are listed', async () => {
  const file = questionsFile();
  const { page, received } = await openReview(file, 'highContrast');
  const view = page.locator('ri-question-review');
  const source = view.locator('li[data-id="q1"] button.source');
  assert.equal(await source.textContent(), 'rooms.md:3-4');
  await source.focus();
  await page.keyboard.press('Enter');
  await waitFor(() => received.some((m) => OpenDatasetRow.is(m)), 'the open command');
  const open = received.find((m) => OpenDatasetRow.is(m)) as { params: { file: string; line: number } };
  assert.deepEqual(open.params, { file: join(file, '..', 'rooms.md'), line: 3 });
  assert.match(await view.locator('.problems').textContent() ?? '', new RegExp(`questions\\.jsonl:3: `));
  assert.equal(await view.locator('li[data-id="q1"] .q').textContent(), HOSTILE);
  assert.equal(await view.locator('li[data-id="q1"] img').count(), 0);
  assert.equal(await page.evaluate('window.__xss'), undefined);
  assert.deepEqual(await view.locator('section.rejected td').allTextContents(), ['single-hop', 'Is it <i>six</i>?', 'leak', 'the question states its own answer']);
  await view.locator('select.kind-filter').selectOption('unanswerable');
  assert.deepEqual(await view.locator('li.question').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { id: string } }).dataset.id)), ['q3']);
  await page.screenshot({ path: screenshotPath('question-review-high-contrast'), fullPage: true });
  await page.close();
});
