// What the inspector reads of a case's retrieval and of a report's line and bar charts: a malformed record is named,
// never half-drawn; a cause is read only when it is one; charts come from their spec's table; the case list filters by cause.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CaseResult, Score } from '../../../src/core/model.js';
import type { SuiteReport } from '../../../src/core/suites/contract.js';
import { caseListItem } from '../../../src/core/report/caseItems.js';
import { causeFindingOf, placeInFile, readRetrieval, relevanceOf, visibleCandidates } from '../../../webview/state/retrieval.js';
import { reportChartsOf } from '../../../webview/state/reportCharts.js';
import { EMPTY_FILTERS, filterOptions, queryCases } from '../../../webview/state/caseQuery.js';
import { restoreViewState } from '../../../webview/state/viewState.js';

const candidates = (n: number) => Array.from({ length: n }, (_, i) => ({ rank: i + 1, id: `doc-${i}`, sent: i < 3, ...(i < 3 ? { documentId: `d${i}` } : {}) }));
const record = { retriever: 'command: node r.mjs', k: 3, candidates: candidates(5) };

it('reads a retrieval record; a case without one has none', () => {
  assert.deepEqual(readRetrieval({ k: 3 }), { kind: 'none' });
  assert.deepEqual(readRetrieval(undefined), { kind: 'none' });
  const reading = readRetrieval({ retrieval: { ...record, relevant: [{ id: 'doc-9', grade: 2 }], latencyMs: 7, cached: true } });
  assert.equal(reading.kind, 'record');
  if (reading.kind !== 'record') return;
  assert.equal(reading.record.candidates.length, 5);
  assert.deepEqual(reading.record.candidates[0], { rank: 1, id: 'doc-0', sent: true, documentId: 'd0' });
  assert.deepEqual(reading.record.relevant, [{ id: 'doc-9', grade: 2 }]);
  assert.equal(reading.record.cached, true);
});

it('names what is wrong with a malformed record instead of drawing part of it', () => {
  const invalid = (retrieval: unknown) => {
    const reading = readRetrieval({ retrieval });
    assert.equal(reading.kind, 'invalid');
    return reading.kind === 'invalid' ? reading.reason : '';
  };
  assert.match(invalid('doc-1,doc-2'), /not an object/);
  assert.match(invalid({ ...record, k: -1 }), /k is not a whole number/);
  assert.match(invalid({ ...record, candidates: 'none' }), /candidates is not a list/);
  assert.match(invalid({ ...record, candidates: [{ rank: 0, id: 'a', sent: true }] }), /candidates\[0\]: rank/);
  assert.match(invalid({ ...record, candidates: [{ rank: 1, id: 'a', sent: 'yes' }] }), /candidates\[0\]: sent/);
  assert.match(invalid({ ...record, candidates: [{ rank: 1, id: 'a', sent: true, labelSource: 'guess' }] }), /labelSource is not one of/);
  assert.match(invalid({ ...record, candidates: [{ rank: 1, id: 'a', sent: true, score: 'high' }] }), /score is not a number/);
  assert.match(invalid({ ...record, relevant: ['doc-1'] }), /relevant is not a list/);
});

it('keeps only usable source fields: a file with its lines, a URL; drops the rest', () => {
  const reading = readRetrieval({ retrieval: { ...record, candidates: [
    { rank: 1, id: 'a', sent: true, source: { file: '/c/a.md', startLine: 3, endLine: 9 } },
    { rank: 2, id: 'b', sent: true, source: { url: 'https://x.example/b', startLine: 0 } },
    { rank: 3, id: 'c', sent: true, source: { file: 42 } },
  ] } });
  assert.equal(reading.kind, 'record');
  if (reading.kind !== 'record') return;
  assert.deepEqual(reading.record.candidates.map((c) => c.source), [{ file: '/c/a.md', startLine: 3, endLine: 9 }, { url: 'https://x.example/b' }, undefined]);
});

it('a PDF\'s passage keeps its pages and is placed by them: p. 3, pp. 3–4; other files by their lines', () => {
  const reading = readRetrieval({ retrieval: { ...record, candidates: [
    { rank: 1, id: 'a', sent: true, source: { file: '/c/r.pdf', startLine: 12, endLine: 19, startPage: 3, endPage: 4 } },
    { rank: 2, id: 'b', sent: true, source: { file: '/c/r.pdf', startLine: 2, endLine: 2, startPage: 0, endPage: 'two' } },
  ] } });
  assert.equal(reading.kind, 'record');
  if (reading.kind !== 'record') return;
  const [pdf, bad] = reading.record.candidates.map((c) => c.source!);
  assert.deepEqual(pdf, { file: '/c/r.pdf', startLine: 12, endLine: 19, startPage: 3, endPage: 4 });
  assert.deepEqual(bad, { file: '/c/r.pdf', startLine: 2, endLine: 2 }, 'pages that are not page numbers are dropped');
  assert.equal(placeInFile(pdf!), ' pp. 3–4');
  assert.equal(placeInFile({ file: '/c/r.pdf', startLine: 4, endLine: 6, startPage: 3, endPage: 3 }), ' p. 3');
  assert.equal(placeInFile(bad!), ':2');
  assert.equal(placeInFile({ file: '/c/a.md', startLine: 3, endLine: 9 }), ':3–9');
  assert.equal(placeInFile({ file: '/c/a.md' }), '');
});

it('relevance: graded > 0 relevant, 0 not relevant, no label unknown', () => {
  assert.equal(relevanceOf({ rank: 1, id: 'a', sent: true, relevance: 2 }), 'relevant');
  assert.equal(relevanceOf({ rank: 1, id: 'a', sent: true, relevance: 0 }), 'not-relevant');
  assert.equal(relevanceOf({ rank: 1, id: 'a', sent: true }), 'unknown');
});

it('shows the top 20 candidates until asked for all', () => {
  const long = { ...record, candidates: candidates(25) };
  assert.equal(visibleCandidates(long, false).length, 20);
  assert.equal(visibleCandidates(long, true).length, 25);
  assert.equal(visibleCandidates(record, false).length, 5);
});

const causeScore = (label: string, details?: unknown): Score => ({ metric: 'cause', value: null, label, explanation: 'from the explanation', details });

it('reads a cause score only when its label is a cause; its words from details, else the explanation', () => {
  assert.deepEqual(causeFindingOf([causeScore('ranked-out', { cause: 'ranked-out', words: 'doc-17 at rank 8, cut-off 5', passageId: 'doc-17', rank: 8 })]),
    { cause: 'ranked-out', words: 'doc-17 at rank 8, cut-off 5', passageId: 'doc-17', rank: 8 });
  assert.deepEqual(causeFindingOf([causeScore('not-retrieved')]), { cause: 'not-retrieved', words: 'from the explanation' });
  assert.equal(causeFindingOf([causeScore('bad luck')]), undefined);
  assert.equal(causeFindingOf([{ metric: 'correct', value: 0, pass: false, label: 'ranked-out' }]), undefined);
});

const result = (scores: Score[]): CaseResult => ({ caseId: 'rag/1', modelKey: 'm', status: 'success', pass: false, scores, attempts: 1, startedAt: '', finishedAt: '' });
const evalCase = { id: 'rag/1', suiteId: 'rag', question: 'q', documents: [] };

it('a list item carries the cause its scores state, and the list filters by it', () => {
  const ranked = caseListItem(evalCase, result([{ metric: 'correct', value: 0, pass: false }, causeScore('ranked-out')]));
  const odd = caseListItem({ ...evalCase, id: 'rag/2' }, result([causeScore('gremlins')]));
  const none = caseListItem({ ...evalCase, id: 'rag/3' }, result([{ metric: 'correct', value: 1, pass: true }]));
  assert.equal(ranked.cause, 'ranked-out');
  assert.equal('cause' in odd, false, 'an unknown label is no cause');
  assert.equal('cause' in none, false);
  assert.deepEqual(filterOptions([ranked, odd, none]).causes, ['ranked-out']);
  assert.deepEqual(queryCases([ranked, odd, none], { ...EMPTY_FILTERS, cause: 'ranked-out' }, 'run').map((i) => i.caseId), ['rag/1']);
  assert.equal(queryCases([ranked, odd, none], EMPTY_FILTERS, 'run').length, 3);
});

it('the cause filter survives a panel reload; a state saved before it had one starts without', () => {
  const base = { v: 1, view: 'cases', sort: 'run' };
  assert.equal(restoreViewState({ ...base, filters: { ...EMPTY_FILTERS, cause: 'ranked-out' } }).filters.cause, 'ranked-out');
  assert.equal(restoreViewState({ ...base, filters: { failedOnly: true, suite: '', model: '', role: '', search: '' } }).filters.cause, '');
});

const report: SuiteReport = {
  suiteId: 'rag', method: 'any', metrics: [], notes: [],
  tables: [
    { id: 'm', title: 'Metrics', columns: ['1', 'k=5', 'all'], rows: [{ label: 'recall@k', cells: [{ value: 0.5, low: 0.2, high: 0.8, n: 4 }, { value: 0.75 }, { value: 1 }] }, { label: 'empty', cells: [{ value: null }, { value: null }, { value: null }] }] },
    { id: 's', title: 'Split', columns: ['model-a', 'model-b'], rows: [{ label: 'ranked-out', cells: [{ value: 0.5, low: 0.1, high: 0.9, n: 4 }, { value: 0.25 }] }, { label: 'Other', cells: [{ value: null }, { value: 2 }] }] },
  ],
  charts: [
    { kind: 'line', tableId: 'm', title: 'Metrics by k', xTitle: 'k', yTitle: 'value', min: 0, max: 1 },
    { kind: 'bar', tableId: 's', title: 'Split', xTitle: 'share', filter: { field: 'cause' } },
    { kind: 'bar', tableId: 's', title: 'Split b', xTitle: 'share', column: 1 },
    { kind: 'line', tableId: 'missing', title: 'Gone', xTitle: 'k', yTitle: 'v' },
    { kind: 'heatmap', tableId: 'm', title: 'H', xTitle: 'x', yTitle: 'y', colors: ['#000'], min: 0, max: 1 },
  ],
};

it('line and bar charts come from their spec\'s table; heatmaps and missing tables are not theirs', () => {
  const charts = reportChartsOf(report);
  assert.deepEqual(charts.map((c) => `${c.kind}:${c.spec.title}`), ['line:Metrics by k', 'bar:Split', 'bar:Split b']);
  const line = charts[0]!;
  assert.equal(line.kind, 'line');
  if (line.kind !== 'line') return;
  // Rows are series (a row without numbers is left out); numeric columns are x ("all" is not a k).
  assert.deepEqual(line.data, { xLabel: 'k', yLabel: 'value', bands: true, yMin: 0, yMax: 1, series: [
    { name: 'recall@k', points: [{ x: 1, y: 0.5, low: 0.2, high: 0.8 }, { x: 5, y: 0.75 }] },
  ] });
  const [, split, other] = charts;
  assert.ok(split?.kind === 'bar' && other?.kind === 'bar');
  // A cause row opens its cases; a label that is no cause does not; column 0 by default; shares on a 0–1 axis.
  assert.deepEqual(split.bars, [{ label: 'ranked-out', value: 0.5, low: 0.1, high: 0.9, n: 4, cause: 'ranked-out' }, { label: 'Other', value: null }]);
  assert.equal(split.column, 'model-a');
  assert.equal(split.max, 1);
  // Without a filter no bar opens cases; values above 1 set the axis.
  assert.deepEqual(other.bars.map((b) => b.cause), [undefined, undefined]);
  assert.equal(other.column, 'model-b');
  assert.equal(other.max, 2);
});
