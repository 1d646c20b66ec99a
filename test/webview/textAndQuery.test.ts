// Pure modules of the webview, in Node: the word diff, highlight segmentation, list queries, chart detection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffWords, sideParts, tokenize } from '../../webview/text/diff.js';
import { expectedStrings, findMatches, segmentText } from '../../webview/text/segments.js';
import { EMPTY_FILTERS, filterOptions, nextFailure, queryCases, visibleRange } from '../../webview/state/caseQuery.js';
import { chartFromTable, parseAxisLabel } from '../../webview/state/chartSeries.js';
import { restoreViewState } from '../../webview/state/viewState.js';
import { bigRun, rgbRun } from './builders.js';

const join = (parts: { text: string }[]) => parts.map((p) => p.text).join('');

test('diffWords: equal texts, a changed word, insertions and deletions; each side rebuilds its text', () => {
  assert.deepEqual(diffWords('same text', 'same text').parts, [{ op: 'equal', text: 'same text' }]);
  const { parts } = diffWords('The answer is Paris.', 'The answer is Lyon!');
  assert.deepEqual(parts, [
    { op: 'equal', text: 'The answer is ' }, { op: 'delete', text: 'Paris.' }, { op: 'insert', text: 'Lyon!' },
  ]);
  for (const [a, b] of [['', 'new words here'], ['old words', ''], ['a b c d e', 'a x c e f'], ['Jan 2, 2022', 'January 2 2022'], ['שלום עולם', 'שלום לכם']]) {
    const diff = diffWords(a!, b!);
    assert.equal(join(sideParts(diff.parts, 'before')), a);
    assert.equal(join(sideParts(diff.parts, 'after')), b);
  }
  assert.deepEqual(diffWords('a b c d e', 'a x c e f').parts.filter((p) => p.op !== 'equal').map((p) => `${p.op}:${p.text}`),
    ['delete:b', 'insert:x', 'delete:d ', 'insert: f']);
  // Changes separated only by a space read as one replacement.
  assert.deepEqual(diffWords('Based on it, the answer is Sydney.', 'The answer is Canberra, says d0.').parts, [
    { op: 'delete', text: 'Based on it, the' }, { op: 'insert', text: 'The' }, { op: 'equal', text: ' answer is ' },
    { op: 'delete', text: 'Sydney' }, { op: 'insert', text: 'Canberra, says d0' }, { op: 'equal', text: '.' },
  ]);
});

test('diffWords: keeps the common prefix and suffix exact past the cell budget and says it approximated', () => {
  const a = `start ${'alpha '.repeat(3000)}end`;
  const b = `start ${'beta '.repeat(3000)}end`;
  const diff = diffWords(a, b, 1_000_000);
  assert.equal(diff.approximate, true);
  assert.equal(diff.parts[0]!.text, 'start ');
  assert.equal(diff.parts.at(-1)!.text, ' end');
  assert.equal(join(sideParts(diff.parts, 'after')), b);
  assert.deepEqual(tokenize('Hi, you!'), ['Hi', ',', ' ', 'you', '!']);
});

test('segmentText: overlapping and nested spans, clamping, merging', () => {
  const text = 'The needle: eat a sandwich today.';
  const segments = segmentText(text, [
    { kind: 'needle', start: 12, end: 26 },
    { kind: 'answer', start: 18, end: 26, label: 'sandwich' },
    { kind: 'evidence', start: 4, end: 999, id: 'ev-0-0' },
    { kind: 'answer', start: 5, end: 5 },
  ]);
  assert.equal(segments.map((s) => s.text).join(''), text);
  assert.deepEqual(segments.map((s) => [s.text, s.kinds.join('+')]), [
    ['The ', ''], ['needle: ', 'evidence'], ['eat a ', 'needle+evidence'], ['sandwich', 'answer+needle+evidence'], [' today.', 'evidence'],
  ]);
  assert.deepEqual(segments[3]!.labels, ['sandwich']);
  assert.deepEqual(segmentText('', []), []);
  assert.deepEqual(segmentText('abc', [{ kind: 'answer', start: Number.NaN, end: 2 }])[0], { text: 'ab', start: 0, end: 2, kinds: ['answer'], labels: [], ids: [] });
});

test('findMatches / expectedStrings: answers found case-insensitively in a response', () => {
  const spans = findMatches('It was ANNIE Ernaux, not Haruki Murakami. Annie Ernaux!', [
    { text: 'Annie Ernaux', kind: 'answer' }, { text: 'Haruki Murakami', kind: 'counterfactual' }, { text: '  ', kind: 'answer' },
  ]);
  assert.deepEqual(spans.map((s) => `${s.kind}@${s.start}`), ['answer@7', 'answer@42', 'counterfactual@25']);
  assert.deepEqual(expectedStrings([['Jan 2', '2 January'], 'x', 3, { no: 1 }]), ['Jan 2', '2 January', 'x', '3']);
});

test('queryCases: failed only, suite › testbed, model, role, search (AND), sorts, next failure', () => {
  const { detail } = rgbRun({ runId: 'r', name: 'r', createdAt: '' });
  const items = detail.cases;
  const failed = queryCases(items, { ...EMPTY_FILTERS, failedOnly: true }, 'run');
  assert.ok(failed.length > 0 && failed.every((i) => i.status === 'error' || i.pass === false));
  assert.equal(queryCases(items, { ...EMPTY_FILTERS, model: 'anthropic:claude-haiku' }, 'run').length, 15);
  assert.equal(queryCases(items, { ...EMPTY_FILTERS, suite: 'rgb-noise\u0000noise_robustness' }, 'run').length, 30);
  assert.equal(queryCases(items, { ...EMPTY_FILTERS, suite: 'rgb-noise\u0000other' }, 'run').length, 0);
  assert.equal(queryCases(items, { ...EMPTY_FILTERS, role: 'counterfactual' }, 'run').length, 30);
  assert.equal(queryCases(items, { ...EMPTY_FILTERS, search: 'AUSTRALIA capital' }, 'run').length, 6);
  const byStatus = queryCases(items, EMPTY_FILTERS, 'status');
  assert.equal(byStatus[0]!.status, 'error');
  const byScore = queryCases(items, EMPTY_FILTERS, 'score-desc');
  assert.equal(byScore[0]!.score, 1);
  assert.equal(byScore.at(-1)!.score ?? null, null, 'unscored cases last');
  const options = filterOptions(items);
  assert.deepEqual(options.models, ['anthropic:claude-haiku', 'openai:gpt-4o-mini']);
  assert.deepEqual(options.suites.map((s) => s.label), ['rgb-noise', 'rgb-noise › noise_robustness']);
  const first = nextFailure(items, -1, 1);
  assert.ok(first >= 0 && items[first]!.pass === false);
  assert.equal(nextFailure(items, first, -1) !== first, true);
  assert.equal(nextFailure(items.filter((i) => i.pass), 0, 1), -1);
});

test('queryCases on 100,000 rows finds every match in score order; visibleRange renders only the viewport', () => {
  // Its speed is measured, not asserted: bench/webviewList.ts (search over 100,000 rows in Chromium).
  const items = bigRun(100_000, { runId: 'b', withDetails: 0 }).detail.cases;
  const found = queryCases(items, { ...EMPTY_FILTERS, search: 'australia' }, 'score-asc');
  const matching = items.filter((item) => item.question.toLowerCase().includes('australia'));
  assert.ok(matching.length > 0);
  assert.deepEqual(new Set(found.map((item) => item.key)), new Set(matching.map((item) => item.key)));
  const scores = found.map((item) => item.score as number);
  assert.ok(scores.every((score, i) => i === 0 || scores[i - 1]! <= score), 'ascending by score');
  assert.ok(scores[0]! < scores.at(-1)!, 'both passes and failures among the matches');
  assert.deepEqual(visibleRange(44 * 1000, 440, 44, 100_000, 4), { first: 996, last: 1014 });
  assert.deepEqual(visibleRange(0, 440, 44, 0), { first: 0, last: -1 });
});

test('chartFromTable: rows of noise ratios × model columns, and no chart from model-like labels', () => {
  const chart = chartFromTable({
    id: 't', title: 't', columns: ['gpt-4o', 'claude-3'],
    rows: [{ label: '0', cells: [{ value: 0.9, low: 0.8, high: 0.95 }, { value: 0.8 }] }, { label: '0.4', cells: [{ value: 0.7 }, { value: null }] }, { label: '0.8', cells: [{ value: 0.5 }, { value: 0.4 }] }],
  });
  assert.deepEqual(chart?.series.map((s) => [s.name, s.points.map((p) => `${p.x}:${p.y}`).join(' ')]), [['gpt-4o', '0:0.9 0.4:0.7 0.8:0.5'], ['claude-3', '0:0.8 0.8:0.4']]);
  assert.equal(chart?.series[0]!.points[0]!.low, 0.8);
  assert.equal(chartFromTable({ id: 't', title: 't', columns: ['gpt-4o', 'claude-3'], rows: [{ label: 'Rej', cells: [{ value: 1 }, { value: 0 }] }] }), undefined);
  assert.deepEqual(parseAxisLabel('noise=0.4'), { word: 'noise', value: 0.4 });
  assert.deepEqual(parseAxisLabel('8k'), { value: 8000 });
  assert.deepEqual(parseAxisLabel('40%'), { value: 0.4 });
  assert.deepEqual(parseAxisLabel('5 (last)'), { value: 5 }, 'a note in parentheses (the stress method\'s positions)');
  assert.equal(parseAxisLabel('gpt-4o'), undefined);
  assert.equal(parseAxisLabel('gpt-4 (preview)'), undefined);
});

test('restoreViewState accepts only its own version and sanitises fields', () => {
  assert.equal(restoreViewState({ v: 0, view: 'cases' }).view, 'summary');
  const state = restoreViewState({ v: 1, view: 'cases', runId: 'r', caseKey: 'k', sort: 'bogus', filters: { failedOnly: 'yes', search: 'x' } });
  assert.deepEqual(state, { v: 1, view: 'cases', runId: 'r', caseKey: 'k', sort: 'run', filters: { failedOnly: false, suite: '', model: '', role: '', cause: '', search: 'x' } });
});
