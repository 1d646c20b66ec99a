// Pure modules behind the method views, in Node: heatmap colours and grouping, text chunks, needle windows, the
// readers of judge details (tolerant of logs from other versions), the compare-row check, histograms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colourAt, groupHeatmaps, heatmapsOf, labelIndexes, modelOfTable } from '../../webview/state/heatmap.js';
import { chunkAt, chunkText, estimateHeight, prefixOffsets, spansInChunk, visibleChunks } from '../../webview/text/chunks.js';
import { clipLongStrings } from '../../webview/text/limits.js';
import { needleFacts, needleWindows } from '../../webview/state/needleCase.js';
import { ragasFindings, ragasMarks } from '../../webview/state/ragasFindings.js';
import { citationReading } from '../../webview/state/ifragCitations.js';
import { dimensionChart } from '../../webview/state/dimensions.js';
import { histogramFromTable } from '../../webview/state/histogram.js';
import { flippedOnly } from '../../webview/api/compareRuns.js';
import { NEEDLE_MODEL, NEEDLE_SUITES, haystackText, ifragRun, llmEvalRun, longNeedleRun, needleGridRun, ragasRun } from './methodBuilders.js';
import { rgbRun } from './builders.js';

const STOPS = ['#F0496E', '#EBB839', '#0CD79F'];

test('colourAt: the reference stops at min, middle and max, channels interpolated, clamped outside the range', () => {
  assert.equal(colourAt(1, 1, 10, STOPS), '#f0496e');
  assert.equal(colourAt(5.5, 1, 10, STOPS), '#ebb839');
  assert.equal(colourAt(10, 1, 10, STOPS), '#0cd79f');
  assert.equal(colourAt(3.25, 1, 10, STOPS), '#ee8154');
  assert.equal(colourAt(0.5, 0, 1, STOPS), '#ebb839');
  assert.equal(colourAt(-3, 0, 1, STOPS), '#f0496e');
  assert.equal(colourAt(7, 0, 1, STOPS), '#0cd79f');
  assert.equal(colourAt(0.3, 0, 1, ['#000', 'not a colour', '#fff']), '#4d4d4d', 'bad stops are skipped, short hex expanded');
});

test('heatmapsOf: a heatmap per chart with cells linked to their cases; same grids group together', () => {
  const run = needleGridRun();
  const maps = heatmapsOf(run.detail.reports, run.detail.cases, run.detail.listing.models);
  assert.deepEqual(maps.map((m) => m.suiteId), [...NEEDLE_SUITES]);
  assert.ok(maps.every((m) => m.modelKey === NEEDLE_MODEL));
  const reference = maps[0]!;
  assert.deepEqual([reference.noData, reference.undetermined], [2, 1]);
  assert.deepEqual(reference.cells[1]![0]!.keys, [`${NEEDLE_SUITES[0]}/L=1000/d=25\u0000${NEEDLE_MODEL}`]);
  assert.deepEqual(reference.cells[2]![4]!.keys, [], 'the missing cell has no case');
  assert.equal(groupHeatmaps(maps).length, 1);
  // Two models: each model's templates stay together in the shared grid.
  const mixed = [maps[0]!, { ...maps[0]!, id: 'b', modelKey: 'other:model' }, maps[1]!, { ...maps[1]!, id: 'd', modelKey: 'other:model' }];
  assert.deepEqual(groupHeatmaps(mixed)[0]!.maps.map((m) => `${m.suiteId}/${m.modelKey}`),
    [`${NEEDLE_SUITES[0]}/${NEEDLE_MODEL}`, `${NEEDLE_SUITES[1]}/${NEEDLE_MODEL}`, `${NEEDLE_SUITES[0]}/other:model`, `${NEEDLE_SUITES[1]}/other:model`]);
  const other = { ...maps[1]!, columns: ['1', '2'] };
  assert.equal(groupHeatmaps([maps[0]!, other]).length, 2, 'different axes are not side by side');
  // A chart whose table is missing is skipped, not drawn empty.
  const broken = [{ ...run.detail.reports[0]!, charts: [{ ...run.detail.reports[0]!.charts![0]!, tableId: 'gone' }] }];
  assert.deepEqual(heatmapsOf(broken, run.detail.cases), []);
});

test('modelOfTable and labelIndexes', () => {
  const models = ['openai:gpt-4o', 'openai:gpt-4o-mini', 'anthropic:claude-3-haiku'];
  assert.equal(modelOfTable('needle-heatmap:openai:gpt-4o-mini', models), 'openai:gpt-4o-mini');
  assert.equal(modelOfTable('needle-heatmap:openai:gpt-4o:judge', models), 'openai:gpt-4o');
  assert.equal(modelOfTable('needle-heatmap:other:model', models), undefined);
  assert.deepEqual(labelIndexes(5, 10), [0, 1, 2, 3, 4]);
  const thinned = labelIndexes(35, 10);
  assert.equal(thinned[0], 0);
  assert.equal(thinned.at(-1), 34);
  assert.ok(thinned.length <= 11);
  assert.deepEqual(labelIndexes(0, 5), []);
});

test('chunkText covers the text exactly, in chunks near the target that end at paragraph breaks when it can', () => {
  const text = haystackText(60_000);
  const chunks = chunkText(text, 2000);
  assert.equal(chunks[0]!.start, 0);
  assert.equal(chunks.at(-1)!.end, text.length);
  for (let i = 1; i < chunks.length; i++) assert.equal(chunks[i]!.start, chunks[i - 1]!.end, 'contiguous');
  assert.equal(chunks.map((c) => text.slice(c.start, c.end)).join(''), text);
  assert.ok(chunks.every((c) => c.end - c.start <= 3000));
  assert.ok(chunks.slice(0, -1).filter((c) => text[c.end - 1] === '\n').length >= chunks.length - 2, 'cut after newlines');
  // A 1 MB line with no newline and no space still cuts, at the target.
  const line = 'x'.repeat(10_001);
  assert.deepEqual(chunkText(line, 2000).map((c) => c.end - c.start), [2000, 2000, 2000, 2000, 2000, 1]);
  assert.deepEqual(chunkText(''), []);
  assert.equal(chunkAt(chunks, 0), 0);
  assert.equal(chunkAt(chunks, text.length - 1), chunks.length - 1);
  assert.equal(chunkAt(chunks, chunks[3]!.start), 3);
  assert.equal(chunkAt(chunks, chunks[3]!.start - 1), 2);
});

test('chunk layout: height estimates, offsets, the visible range, spans moved into a chunk', () => {
  assert.equal(estimateHeight('a'.repeat(250), 100, 20), 60);
  assert.equal(estimateHeight('one\n\ntwo\n', 100, 20), 60, 'three lines, the final newline starts none');
  assert.deepEqual(prefixOffsets([10, 20, 30]), [0, 10, 30, 60]);
  const offsets = prefixOffsets(new Array(100).fill(50));
  assert.deepEqual(visibleChunks(offsets, 1000, 200, 0), { first: 20, last: 24 });
  assert.deepEqual(visibleChunks(offsets, 0, 200, 100), { first: 0, last: 6 });
  assert.deepEqual(visibleChunks(prefixOffsets([]), 0, 100, 10), { first: 0, last: -1 });
  assert.deepEqual(spansInChunk([{ kind: 'needle', start: 90, end: 130, id: 'n' }, { kind: 'answer', start: 0, end: 5 }], { start: 100, end: 200 }),
    [{ kind: 'needle', start: -10, end: 30, id: 'n' }]);
});

test('needleFacts and needleWindows: placement read from the case, windows around each needle, merged when close', () => {
  const run = longNeedleRun();
  const facts = needleFacts(run.cases[0]!.evalCase);
  assert.equal(facts.requestedDepth, 50);
  assert.ok(facts.actualDepthPercent! < 50);
  assert.equal(facts.approximateTokenizer, true);
  assert.equal(facts.needles.length, 1);
  const text = run.cases[0]!.evalCase.documents[0]!.text;
  const [window] = needleWindows(text, facts.needles, 300);
  assert.ok(window!.start <= facts.needles[0]!.start - 260 && window!.end >= facts.needles[0]!.end + 260);
  const close = needleWindows('a '.repeat(2000), [{ label: 'n1', start: 1000, end: 1010 }, { label: 'n2', start: 1300, end: 1310 }, { label: 'n3', start: 3500, end: 3510 }], 200);
  assert.deepEqual(close.map((w) => w.needles.map((n) => n.label)), [['n1', 'n2'], ['n3']]);
  // A log without placement fields still reads.
  const bare = needleFacts({ ...run.cases[0]!.evalCase, params: {} });
  assert.deepEqual([bare.requestedDepth, bare.tokenIndex, bare.approximateTokenizer], [undefined, undefined, false]);
});

test('ragasFindings: statements, claims, verdicts by rank, extracted sentences; marks carry the ids the links use; odd details tolerated', () => {
  const { result } = ragasRun().cases[0]!;
  const f = ragasFindings(result.scores);
  assert.deepEqual(f.faithfulness!.rows.map((r) => r.supported), [true, true, false]);
  assert.equal(f.faithfulness!.rows[0]!.evidence!.markId, 'faith-0');
  assert.equal(f.noise!.claims[0]!.sources[0]!.evidence!.markId, 'claim-0-0');
  assert.equal(f.noise!.roles.get('d1')!.relevant, false);
  assert.deepEqual(f.usefulness[0]!.rows.map((r) => `${r.rank}:${r.documentId}:${r.useful}`), ['1:d0:true', '2:d1:false', '3:d2:false']);
  assert.equal(f.relevance!.rows.filter((r) => r.evidence).length, 2);
  const marks = ragasMarks(f);
  assert.deepEqual(marks.get('d1')!.map((m) => m.id), ['faith-0', 'claim-0-0']);
  const odd = ragasFindings([
    { metric: 'faithfulness', value: null, details: { statements: [null, { statement: 5, verdict: 'yes', evidence: { documentId: 'd0', start: 9, end: 3 } }] } },
    { metric: 'context_precision', value: 0, details: 'not an object' },
    { metric: 'noise_sensitivity_relevant', value: null, judgeError: 'bad json', details: { raw: '…' } },
  ]);
  assert.deepEqual(odd.faithfulness!.rows, [{ statement: '', supported: false, reason: '' }]);
  assert.deepEqual([odd.usefulness, odd.noise], [[], undefined]);
});

test('citationReading from the real IF-RAG scorer: cited, helpful, the problem', () => {
  const [right, wrong, missing] = ifragRun().cases;
  assert.deepEqual(citationReading(right!)!.cited, [{ documentId: 'd2', label: '[Document 3]', helpful: true }]);
  assert.equal(citationReading(right!)!.problem, undefined);
  const w = citationReading(wrong!)!;
  assert.equal(w.problem, 'wrong-citation');
  assert.deepEqual(w.cited.map((c) => c.documentId), ['d0', 'd4']);
  assert.deepEqual(w.helpful, [{ documentId: 'd2', label: '[Document 3]' }]);
  assert.equal(citationReading(missing!)!.problem, 'missing-citation');
  assert.equal(citationReading(rgbRun({ runId: 'r', name: 'r', createdAt: '' }).cases[0]!), undefined, 'not IF-RAG');
});

test('dimensionChart and histogramFromTable for LLM-Eval', () => {
  const run = llmEvalRun();
  const chart = dimensionChart(run.cases[0]!.result.scores)!;
  assert.deepEqual([chart.min, chart.max, chart.bars.length], [0, 5, 4]);
  assert.deepEqual(dimensionChart([{ metric: 'x', value: 80 }])!.max, 100, 'no scale named: inferred from the values');
  const histogramTable = run.detail.reports[0]!.tables.find((t) => t.id === 'llm-eval-distribution-grammar')!;
  const histogram = histogramFromTable(histogramTable)!;
  assert.equal(histogram.bins.length, 5);
  // Series in the report's fixed model order (sorted): anthropic:claude-haiku (one undetermined), then openai:gpt-4o-mini.
  assert.deepEqual(histogram.series.map((s) => [s.name, s.counts.reduce((a, b) => a + b, 0), s.undetermined]), [['anthropic:claude-haiku', 11, 1], ['openai:gpt-4o-mini', 12, 0]]);
  assert.equal(histogramFromTable(run.detail.reports[0]!.tables.find((t) => t.id === 'llm-eval-means')!), undefined, 'means are not a histogram');
});

test('flippedOnly keeps each flipped case once and drops unchanged or malformed rows', () => {
  const before = rgbRun({ runId: 'a', name: 'a', createdAt: '' }).detail.cases;
  const after = rgbRun({ runId: 'b', name: 'b', createdAt: '', variant: 'after' }).detail.cases;
  const all = after.map((item) => ({ caseId: item.caseId, before: before.find((b) => b.key === item.key)!, after: item, beforeText: 'x', afterText: 'y' }));
  const kept = flippedOnly([...all, all.find((r) => r.before.pass !== r.after.pass), { caseId: 'broken', before: null }, 'nonsense']);
  assert.ok(kept.length > 0 && kept.length < all.length);
  assert.equal(new Set(kept.map((r) => r.after.key)).size, kept.length);
  assert.ok(kept.every((r) => (r.before.status === 'error') !== (r.after.status === 'error') || r.before.pass !== r.after.pass));
  assert.deepEqual(flippedOnly(undefined), []);
});

test('clipLongStrings keeps JSON small: long strings cut, structure kept', () => {
  const clipped = clipLongStrings({ variables: { context: 'x'.repeat(500_000), question: 'q' }, list: ['y'.repeat(3000)] }) as { variables: { context: string; question: string }; list: string[] };
  assert.equal(clipped.variables.question, 'q');
  assert.ok(clipped.variables.context.length < 300);
  assert.match(clipped.variables.context, /500,000 characters/);
  assert.ok(clipped.list[0]!.length < 300);
});
