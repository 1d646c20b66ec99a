// Format 3 (shared key lists and strings, variables derived from the documents): every case and result reads back
// exactly as format 2 reads it — the real RGB files, every bundled example, needle cases — through every reader; the
// bundled RGB example's case lines stay under issue 20's 1.5 KB; a log cut mid-line and resumed keeps decoding.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { renderedCases } from '../../../src/core/engine/plan.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { caseKey } from '../../../src/core/model.js';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { RunLogIndex } from '../../../src/core/report/runLogIndex.js';
import { readCaseLines, readRunLog, RunLogWriter, scanRunLog } from '../../../src/core/run/runLog.js';
import type { CaseLine, NewRunHeader } from '../../../src/core/run/runLog.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { RGB_DATA } from '../testData.js';

const EXAMPLES = path.resolve(__dirname, '../../../examples');
const root = mkdtempSync(path.join(tmpdir(), 'rag-format3-'));
after(() => rmSync(root, { recursive: true, force: true }));

let logs = 0;
const header = (): NewRunHeader => ({
  runId: `run-${++logs}`,
  createdAt: '2026-11-25T00:00:00.000Z',
  tool: { name: 'rag-inspector', version: '0.0.0' },
  spec: { file: '/w/x.eval.yaml', hash: 'h', name: 'format 3' },
  inputs: [],
  models: ['extractive:bm25'],
  seed: 1,
});

/** A result with what real ones hold: a response, usage, scores with details and response spans, two timestamps. */
function resultOf(evalCase: EvalCase, i: number): CaseResult {
  const text = evalCase.documents[0]?.text.slice(0, 80) ?? evalCase.question;
  const started = Date.parse('2026-11-25T10:00:00.000Z') + i * 7;
  return {
    caseId: evalCase.id,
    modelKey: 'extractive:bm25',
    status: 'success',
    response: { text, usage: { inputTokens: 200 + i, outputTokens: 8 }, latencyMs: 1.5 + i / 3, cached: false, finishReason: 'stop', costUsd: 0 },
    scores: [{ metric: 'correct', value: i % 2, label: i % 2 ? 'correct' : 'incorrect', explanation: `Answer part 1 of 1 found in '${text.slice(0, 12)}'.`, details: { labels: [i % 2], responseSpans: [{ kind: 'answer', start: 0, end: 4, text: text.slice(0, 4), label: text.slice(0, 4) }] }, pass: i % 2 === 1 }],
    pass: i % 2 === 1,
    attempts: 1,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date(started + (i % 5)).toISOString(),
  };
}

/** A log of `format` (3: a new log; 2: a format-2 log as this version appends to one) holding `lines`. */
async function writeLog(format: 2 | 3, lines: readonly Omit<CaseLine, 'type'>[]): Promise<string> {
  const dir = path.join(root, 'logs');
  let writer: RunLogWriter;
  if (format === 3) {
    writer = await RunLogWriter.create(dir, header());
  } else {
    const first = await RunLogWriter.create(dir, header());
    first.close();
    const text = readFileSync(first.file, 'utf8').replace('"format":3', '"format":2');
    writeFileSync(first.file, text);
    writer = await RunLogWriter.reopen(first.file);
  }
  for (const line of lines) writer.appendCase(line);
  writer.close();
  return writer.file;
}

async function allReaders(file: string): Promise<CaseLine[]> {
  const whole = await readRunLog(file);
  assert.deepEqual(whole.problems, []);
  const streamed: CaseLine[] = [];
  for await (const line of readCaseLines(await scanRunLog(file))) streamed.push(line);
  assert.deepEqual(streamed, whole.cases, 'the streamed reader');
  const index = await RunLogIndex.build(file);
  const entries = await index.readEntries(index.entries.keys());
  assert.deepEqual([...entries.values()].map((e) => ({ type: 'case', case: e.evalCase, result: e.result })), whole.cases, 'the index');
  return whole.cases;
}

/** Written as format 3, read by every reader: what format 2 reads, which is the case and result as JSON holds them. */
async function assertRoundTrip(cases: readonly EvalCase[]): Promise<{ two: number; three: number }> {
  assert.ok(cases.length > 0);
  const lines = cases.map((evalCase, i) => ({ case: evalCase, result: resultOf(evalCase, i) }));
  const [two, three] = [await writeLog(2, lines), await writeLog(3, lines)];
  const read3 = await allReaders(three);
  assert.deepEqual(read3, await allReaders(two), 'format 3 reads as format 2');
  assert.deepEqual(read3, JSON.parse(JSON.stringify(lines.map((l) => ({ type: 'case', ...l })))) as CaseLine[]);
  return { two: readFileSync(two).length, three: readFileSync(three).length };
}

async function casesOf(evalFile: string): Promise<EvalCase[]> {
  const cases: EvalCase[] = [];
  for await (const evalCase of renderedCases(await loadEvalSpec(evalFile), new AbortController().signal)) cases.push(evalCase);
  return cases;
}

describe('run log format 3', () => {
  it('the real RGB files (test/data/rgb), rendered with the RGB prompts, read back as format 2 reads them', async () => {
    const dir = mkdtempSync(path.join(root, 'rgb-'));
    const suite = (id: string, file: string, testbed: string, language: string) => `  - { id: ${id}, method: rgb, dataset: ${JSON.stringify(path.join(RGB_DATA, file))}, params: { testbed: ${testbed}, language: ${language} } }`;
    const evalFile = path.join(dir, 'real.eval.yaml');
    writeFileSync(evalFile, ['version: 1', 'name: real RGB', 'models: [extractive:bm25]', 'seed: 2333', 'suites:',
      suite('en-fact', 'en_fact.json', 'counterfactual_robustness', 'en'),
      suite('zh-noise', 'zh_refine.sample60.json', 'noise_robustness', 'zh'),
      suite('zh-rejection', 'zh_fact.json', 'negative_rejection', 'zh'),
    ].join('\n'));
    const sizes = await assertRoundTrip(await casesOf(evalFile));
    assert.ok(sizes.three < sizes.two, `${sizes.three} < ${sizes.two}`);
  });

  // Every example with an eval file (examples/retrievers holds only retriever scripts).
  const examples = readdirSync(EXAMPLES).flatMap((example) => {
    const evalFile = readdirSync(path.join(EXAMPLES, example)).find((f) => f.endsWith('.eval.yaml'));
    return evalFile ? [{ example, evalFile }] : [];
  });
  assert.ok(examples.length >= 5, `the bundled examples: ${examples.map((e) => e.example).join(', ')}`);
  for (const { example, evalFile } of examples) {
    it(`every case of the bundled ${example} example reads back as format 2 reads it`, async () => {
      await assertRoundTrip(await casesOf(path.join(EXAMPLES, example, evalFile)));
    });
  }

  it('a needle case (its context as ranges of the haystack) reads back byte for byte', async () => {
    const cases = (await casesOf(path.join(EXAMPLES, 'needle', 'needle-example.eval.yaml'))).filter((c) => c.messages.some((m) => m.content.length > 10_000));
    assert.ok(cases.length > 0, 'long needle contexts');
    await assertRoundTrip(cases.slice(0, 6));
  });

  it('dataset values that look like format 3 markers read back as themselves', async () => {
    const [base] = await casesOf(path.join(EXAMPLES, 'rgb', 'rgb-example.eval.yaml'));
    const tricky: EvalCase = {
      ...base!,
      id: 'tricky',
      variables: { ...base!.variables, a: { '@3': [1, 2] }, b: { $v: 'source' }, c: [{ '@0': 1 }], d: base!.documents.map((d) => d.source), e: { $o: { $v: ['id'] } } },
      params: { ...base!.params, order: { $v: 'source' }, x: { $o: 1 }, y: { '@1': 1 }, z: base!.documents.map((d) => d.role) },
    };
    await assertRoundTrip([tricky, { ...tricky, id: 'tricky-2' }, { ...tricky, id: 'tricky-3' }]);
  });

  it('a variable or param named "__proto__" (a dataset\'s own key) reads back as a member', async () => {
    const [base] = await casesOf(path.join(EXAMPLES, 'rgb', 'rgb-example.eval.yaml'));
    // JSON.parse makes "__proto__" an own member, as a dataset row read from a file has it.
    const withProto = (object: Record<string, unknown>, value: unknown) => JSON.parse(JSON.stringify(object).replace(/^\{/, `{"__proto__":${JSON.stringify(value)},`)) as Record<string, unknown>;
    const odd: EvalCase = { ...base!, id: 'proto', variables: withProto(base!.variables, { polluted: true }), params: withProto(base!.params, 7) };
    assert.ok(Object.hasOwn(odd.variables, '__proto__') && Object.hasOwn(odd.params, '__proto__'));
    await assertRoundTrip([odd, { ...odd, id: 'proto-2' }]);
  });

  it('the bundled RGB example run offline: case lines under 1.5 KB on average (issue 20)', async () => {
    const dir = mkdtempSync(path.join(root, 'example-'));
    cpSync(path.join(EXAMPLES, 'rgb'), dir, { recursive: true });
    const outcome = await runEvaluation(path.join(dir, 'rgb-example.eval.yaml'), { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });
    assert.equal(outcome.status, 'success');
    const lines = readFileSync(outcome.logFile, 'utf8').split('\n').filter(Boolean);
    const caseLines = lines.filter((l) => l.startsWith('{"type":"case"'));
    assert.equal(caseLines.length, 260);
    const perCase = caseLines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0) / caseLines.length;
    assert.ok(perCase <= 1500, `${Math.round(perCase)} B per case line`);
    const log = await readRunLog(outcome.logFile);
    assert.deepEqual(log.problems, []);
    assert.equal(log.cases.length, 260);
  });

  it('killed mid-line (in a case line, or in a shared line before one) and resumed: every case reads back, no shared id defined twice', async () => {
    const cases = (await casesOf(path.join(EXAMPLES, 'rgb', 'rgb-example.eval.yaml'))).slice(0, 40);
    const lines = cases.map((evalCase, i) => ({ case: evalCase, result: resultOf(evalCase, i) }));
    for (const cutIn of ['{"type":"case"', '{"type":"shared"']) {
      const file = await writeLog(3, lines.slice(0, 30));
      const raw = readFileSync(file, 'utf8').split('\n');
      // The last line of that type with a case line before it: what a kill while writing it leaves.
      const at = raw.findLastIndex((l, i) => l.startsWith(cutIn) && raw.slice(2, i).some((before) => before.startsWith('{"type":"case"')));
      assert.ok(at > 0, `a ${cutIn} line after a case line`);
      truncateSync(file, Buffer.byteLength(raw.slice(0, at).join('\n')) + 1 + Math.floor(Buffer.byteLength(raw[at]!) / 2));
      const cut = await readRunLog(file);
      assert.equal(cut.problems.length, 1, JSON.stringify(cut.problems));
      const resumed = await RunLogWriter.reopen(file);
      for (const line of lines) if (!cut.finished.has(caseKey(line.case.id, line.result.modelKey))) resumed.appendCase(line);
      resumed.close();
      const read = await allReaders(file);
      assert.deepEqual(read.map((l) => l.case.id).sort(), cases.map((c) => c.id).sort());
      assert.deepEqual(read, JSON.parse(JSON.stringify(read.map((l) => lines.find((x) => x.case.id === l.case.id)).map((l) => ({ type: 'case', ...l! })))) as CaseLine[]);
      const ids = readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('{"type":"shared"')).map((l) => (JSON.parse(l) as { id: number }).id);
      assert.deepEqual(ids, [...new Set(ids)], `${cutIn}: each shared id defined once`);
    }
  });
});
