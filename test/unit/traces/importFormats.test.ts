// Traces in from files: bad lines and traces reported at file:line while the good traces import, the Phoenix and
// Langfuse export shapes, pretty-printed documents, folders, and the filters (time, attribute, score, seeded sample).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { importTraces } from '../../../src/core/traces/importTraces.js';
import type { TraceFilters } from '../../../src/core/traces/filters.js';
import { runImportTraces } from '../../../src/cli/importTraces.js';
import { asRows } from './importedRow.js';

const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-import-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const NO_FILTERS: TraceFilters = { where: [], seed: 7 };

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

type Attr = string | number | boolean;
/** A span in OTLP JSON as the spec encodes it: hex ids, times as decimal strings of nanoseconds, int64 as strings. */
function otlpSpan(trace: number, span: number, parent: number | undefined, startMs: number, attributes: Record<string, Attr>) {
  return {
    traceId: trace.toString(16).padStart(32, '0'),
    spanId: span.toString(16).padStart(16, '0'),
    ...(parent === undefined ? {} : { parentSpanId: parent.toString(16).padStart(16, '0') }),
    name: String(attributes['openinference.span.kind'] ?? 'span').toLowerCase(),
    kind: 1,
    startTimeUnixNano: `${BigInt(startMs) * 1_000_000n}`,
    endTimeUnixNano: `${BigInt(startMs + 5) * 1_000_000n}`,
    attributes: Object.entries(attributes).map(([key, value]) => ({
      key,
      value: typeof value === 'string' ? { stringValue: value } : typeof value === 'boolean' ? { boolValue: value } : Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value },
    })),
  };
}

function request(spans: object[]): string {
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'app' }, spans }] }] });
}

/** A RAG trace: CHAIN root, RETRIEVER with two documents, LLM with messages and template. */
function ragTrace(trace: number, startMs: number, extra: { env?: string; feedback?: number; topScore?: number } = {}): object[] {
  const base = trace * 10;
  return [
    otlpSpan(trace, base + 1, undefined, startMs, {
      'openinference.span.kind': 'CHAIN', 'input.value': JSON.stringify({ query: `question ${trace}?` }), 'input.mime_type': 'application/json',
      'output.value': `answer ${trace}`, ...(extra.env ? { 'deployment.environment': extra.env } : {}),
      ...(extra.feedback === undefined ? {} : { 'evaluations.0.evaluation.name': 'user_feedback', 'evaluations.0.evaluation.score': extra.feedback }),
    }),
    otlpSpan(trace, base + 2, base + 1, startMs + 1, {
      'openinference.span.kind': 'RETRIEVER', 'input.value': `question ${trace}?`,
      'retrieval.documents.0.document.id': `d${trace}-a`, 'retrieval.documents.0.document.content': `passage A of ${trace}`, 'retrieval.documents.0.document.score': extra.topScore ?? 0.9,
      'retrieval.documents.0.document.metadata': '{"source":"kb.md"}',
      'retrieval.documents.1.document.id': `d${trace}-b`, 'retrieval.documents.1.document.content': `passage B of ${trace}`, 'retrieval.documents.1.document.score': 0.25,
    }),
    otlpSpan(trace, base + 3, base + 1, startMs + 2, {
      'openinference.span.kind': 'LLM', 'llm.model_name': 'gpt-4o-mini', 'llm.invocation_parameters': '{"temperature":0.2}',
      'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': `prompt for ${trace}`,
      'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.content': `answer ${trace}`,
      'llm.prompt_template.template': 'Q: {q}', 'llm.prompt_template.variables': `{"q":"question ${trace}?"}`, 'llm.token_count.prompt': 12,
    }),
  ];
}

const T0 = Date.parse('2026-11-01T10:00:00Z');

describe('OTLP JSON files', () => {
  test('bad lines, a trace without a retriever and a truncated last line are reported at file:line; the good traces import', async () => {
    const good = request(ragTrace(1, T0));
    const noRetriever = request([otlpSpan(2, 21, undefined, T0 + 10, { 'openinference.span.kind': 'LLM', 'input.value': 'hi', 'output.value': 'hello' })]);
    const otherGood = request(ragTrace(3, T0 + 20));
    const truncated = request(ragTrace(4, T0 + 30)).slice(0, 80);
    const file = write('mixed.jsonl', [good, 'this is not json', '', noRetriever, '{"hello": "world"}', otherGood, truncated].join('\n'));
    const outcome = await importTraces(file, NO_FILTERS);
    assert.deepEqual(outcome.rows.map((r) => r.trace_id), [(1).toString(16).padStart(32, '0'), (3).toString(16).padStart(32, '0')]);
    const problems = outcome.problems.map((p) => p.format());
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems.find((p) => p.includes('not JSON') && p.includes(':2:'))!, /mixed\.jsonl:2: not JSON/);
    assert.match(problems.find((p) => p.includes('no RETRIEVER'))!, /mixed\.jsonl:4: trace 0+2: no RETRIEVER span/);
    assert.match(problems.find((p) => p.includes('not a trace record'))!, /mixed\.jsonl:5: .*keys: hello/);
    assert.match(problems.find((p) => p.includes(':7:'))!, /mixed\.jsonl:7: not JSON.*cut short/);
  });

  test('a row holds the question (from JSON input), passages with ids, scores and metadata, response, template, model', async () => {
    const file = write('one.jsonl', `${request(ragTrace(5, T0))}\n`);
    const [row] = asRows((await importTraces(file, NO_FILTERS)).rows);
    assert.equal(row!.question, 'question 5?');
    assert.deepEqual(row!.retrieved_contexts, ['passage A of 5', 'passage B of 5']);
    assert.deepEqual(row!.passages[0], { id: 'd5-a', content: 'passage A of 5', score: 0.9, metadata: { source: 'kb.md' } });
    assert.equal(row!.response, 'answer 5');
    assert.equal(row!.template, 'Q: {q}');
    assert.deepEqual(row!.template_variables, { q: 'question 5?' });
    assert.equal(row!.model, 'gpt-4o-mini');
    assert.deepEqual(row!.model_parameters, { temperature: 0.2 });
    assert.equal(row!.started_at, new Date(T0).toISOString());
  });

  test('without a CHAIN span: the question comes from the retriever (its call arguments as a JSON list), not the LLM request', async () => {
    const file = write('no-chain.jsonl', `${request([
      otlpSpan(8, 81, undefined, T0, {
        'openinference.span.kind': 'LLM', 'input.value': '{"model":"m","messages":[{"role":"user","content":"Context… Question: why?"}]}',
        'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.contents.0.message_content.type': 'text',
        'llm.input_messages.0.message.contents.0.message_content.text': 'Context… Question: why?', 'output.value': 'Because.',
      }),
      otlpSpan(8, 82, 81, T0 + 1, { 'openinference.span.kind': 'RETRIEVER', 'input.value': '["why?"]', 'retrieval.documents.0.document.content': 'Because of this.' }),
    ])}\n`);
    // A retriever as the root: its output.value is the documents, not the answer.
    const retrieverRoot = write('retriever-root.jsonl', `${request([
      otlpSpan(10, 101, undefined, T0, { 'openinference.span.kind': 'RETRIEVER', 'input.value': 'how?', 'output.value': '[{"text":"docs"}]', 'retrieval.documents.0.document.content': 'docs' }),
      otlpSpan(10, 102, undefined, T0 + 1, { 'openinference.span.kind': 'LLM', 'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.content': 'Like so.' }),
    ])}\n`);
    const [fromRetriever] = asRows((await importTraces(retrieverRoot, NO_FILTERS)).rows);
    assert.equal(fromRetriever!.question, 'how?');
    assert.equal(fromRetriever!.response, 'Like so.');
    const [row] = asRows((await importTraces(file, NO_FILTERS)).rows);
    assert.equal(row!.question, 'why?');
    assert.equal(row!.response, 'Because.');
    assert.deepEqual(row!.messages, [{ role: 'user', content: 'Context… Question: why?' }]);
  });

  test('retrieval.documents sent whole, as an arrayValue of kvlistValues, reads like the flattened form', async () => {
    const kv = (key: string, value: object) => ({ key, value });
    const span = {
      ...otlpSpan(9, 91, undefined, T0, { 'openinference.span.kind': 'RETRIEVER', 'input.value': 'whole?' }),
    };
    span.attributes.push(kv('retrieval.documents', { arrayValue: { values: [
      { kvlistValue: { values: [kv('document.id', { stringValue: 'w1' }), kv('document.content', { stringValue: 'first' }), kv('document.score', { doubleValue: 0.5 })] } },
      { kvlistValue: { values: [kv('document.content', { stringValue: 'second' })] } },
    ] } }) as never);
    const file = write('whole-list.jsonl', `${request([span])}\n`);
    const [row] = asRows((await importTraces(file, NO_FILTERS)).rows);
    assert.deepEqual(row!.passages, [{ id: 'w1', content: 'first', score: 0.5 }, { content: 'second' }]);
  });

  test('one pretty-printed document: problems point at the line of the span', async () => {
    const spans = [...ragTrace(6, T0), otlpSpan(7, 71, undefined, T0, { 'openinference.span.kind': 'CHAIN', 'input.value': 'alone' })];
    (spans[1] as { traceId: string }).traceId = 'not-hex';
    const file = write('pretty.json', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, null, 2));
    const outcome = await importTraces(file, NO_FILTERS);
    const problems = outcome.problems.map((p) => p.format());
    assert.equal(outcome.rows.length, 0);
    const badId = problems.find((p) => p.includes('traceId is not 32 hex digits'));
    assert.ok(badId, problems.join('\n'));
    const line = Number(/pretty\.json:(\d+):/.exec(badId)![1]);
    assert.ok(line > 1, `the bad span's line, not the file's first: ${badId}`);
    assert.ok(problems.some((p) => /trace 0+6: no RETRIEVER/.test(p)), 'its trace lost its retriever');
  });
});

describe('Phoenix and Langfuse exports', () => {
  test('Phoenix REST spans ({ data: [...] }, nested attributes) and get_spans_dataframe records (dotted columns)', async () => {
    const rest = {
      data: [
        { name: 'query', context: { trace_id: 'aa11', span_id: 's1' }, span_kind: 'CHAIN', parent_id: null, start_time: '2026-11-01T10:00:00.000000+00:00', end_time: '2026-11-01T10:00:01+00:00', attributes: { input: { value: 'What is RAG?' }, output: { value: 'Retrieval-augmented generation.' } } },
        { name: 'retrieve', context: { trace_id: 'aa11', span_id: 's2' }, span_kind: 'RETRIEVER', parent_id: 's1', start_time: '2026-11-01T10:00:00.1+00:00', attributes: { retrieval: { documents: [{ document: { id: 'k1', content: 'RAG retrieves then generates.', score: 0.7 } }] } } },
      ],
      next_cursor: null,
    };
    const frame = [
      { name: 'chain', span_kind: 'CHAIN', parent_id: null, start_time: T0, 'context.trace_id': 'bb22', 'context.span_id': 't1', 'attributes.input.value': 'Who wrote it?' },
      { name: 'retriever', span_kind: 'RETRIEVER', parent_id: 't1', start_time: T0 + 1, 'context.trace_id': 'bb22', 'context.span_id': 't2', 'attributes.retrieval.documents': [{ 'document.content': 'Ann wrote it.', 'document.id': 'k9' }] },
      { name: 'llm', span_kind: 'LLM', parent_id: 't1', start_time: T0 + 2, 'context.trace_id': 'bb22', 'context.span_id': 't3', 'attributes.llm.output_messages': [{ 'message.role': 'assistant', 'message.content': 'Ann.' }], 'attributes.llm.model_name': 'm' },
    ];
    const restFile = write('phoenix/rest.json', JSON.stringify(rest, null, 2));
    write('phoenix/frame.jsonl', frame.map((r) => JSON.stringify(r)).join('\n'));
    const outcome = await importTraces(path.dirname(restFile), NO_FILTERS);
    assert.deepEqual(outcome.problems.map((p) => p.format()), []);
    assert.equal(outcome.files.length, 2);
    const byTrace = Object.fromEntries(asRows(outcome.rows).map((r) => [r.trace_id, r]));
    assert.equal(byTrace.aa11!.question, 'What is RAG?');
    assert.equal(byTrace.aa11!.response, 'Retrieval-augmented generation.');
    assert.deepEqual(byTrace.aa11!.passages, [{ id: 'k1', content: 'RAG retrieves then generates.', score: 0.7 }]);
    assert.equal(byTrace.bb22!.question, 'Who wrote it?');
    assert.deepEqual(byTrace.bb22!.retrieved_contexts, ['Ann wrote it.']);
    assert.equal(byTrace.bb22!.response, 'Ann.');
  });

  test('a Langfuse trace with its observations and scores: GENERATION is the LLM call, RETRIEVER output the passages', async () => {
    const trace = {
      id: 'lf-trace-1', name: 'rag', timestamp: '2026-11-01T10:00:00.000Z', input: { question: 'Capital of France?' }, output: 'Paris.',
      scores: [{ name: 'helpfulness', value: 0.2 }],
      observations: [
        { id: 'o1', traceId: 'lf-trace-1', type: 'RETRIEVER', name: 'search', startTime: '2026-11-01T10:00:00.100Z', input: 'Capital of France?', output: [{ pageContent: 'Paris is the capital of France.', metadata: { url: 'x' }, id: 'p1', score: 0.8 }, 'France is in Europe.'] },
        { id: 'o2', traceId: 'lf-trace-1', type: 'GENERATION', name: 'answer', startTime: '2026-11-01T10:00:00.200Z', model: 'gpt-4o', modelParameters: { temperature: 0 }, input: [{ role: 'user', content: 'Capital of France?' }], output: { role: 'assistant', content: 'Paris.' }, usage: { input: 10, output: 2 } },
      ],
    };
    const file = write('langfuse.json', JSON.stringify(trace));
    const outcome = await importTraces(file, { ...NO_FILTERS, scoreBelow: { name: 'helpfulness', threshold: 0.5 } });
    assert.deepEqual(outcome.problems.map((p) => p.format()), []);
    const [row] = asRows(outcome.rows);
    assert.equal(row!.question, 'Capital of France?');
    assert.equal(row!.response, 'Paris.');
    assert.deepEqual(row!.passages, [{ id: 'p1', content: 'Paris is the capital of France.', score: 0.8, metadata: { url: 'x' } }, { content: 'France is in Europe.' }]);
    assert.equal(row!.model, 'gpt-4o');
    assert.deepEqual(row!.trace_scores, { helpfulness: 0.2 });
  });
});

describe('filters', () => {
  const file = () => write('many.jsonl', [
    request(ragTrace(11, T0, { env: 'prod', feedback: 0.1, topScore: 0.3 })),
    request(ragTrace(12, T0 + 3_600_000, { env: 'staging', feedback: 0.9 })),
    request(ragTrace(13, T0 + 7_200_000, { env: 'prod', feedback: 0.4 })),
    request(ragTrace(14, T0 + 10_800_000, { env: 'prod' })),
  ].join('\n'));
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number.parseInt(String(r.trace_id), 16));

  test('time range [since, until) on the trace start', async () => {
    const rows = (await importTraces(file(), { ...NO_FILTERS, since: T0 + 3_600_000, until: T0 + 10_800_000 })).rows;
    assert.deepEqual(ids(rows), [12, 13]);
  });

  test('span attribute equals a value', async () => {
    assert.deepEqual(ids((await importTraces(file(), { ...NO_FILTERS, where: [{ key: 'deployment.environment', value: 'prod' }] })).rows), [11, 13, 14]);
    assert.deepEqual(ids((await importTraces(file(), { ...NO_FILTERS, where: [{ key: 'llm.model_name', value: 'gpt-4o-mini' }, { key: 'deployment.environment', value: 'staging' }] })).rows), [12]);
  });

  test('resource and scope attributes filter as span attributes do (standard OTLP puts the environment on the resource)', async () => {
    const onResource = (trace: number, env: string, scope: string) => JSON.stringify({ resourceSpans: [{
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'rag-app' } }, { key: 'deployment.environment', value: { stringValue: env } }] },
      scopeSpans: [{ scope: { name: scope, version: '1.2.0', attributes: [{ key: 'team', value: { stringValue: 'search' } }] }, spans: ragTrace(trace, T0 + trace * 1000) }],
    }] });
    const standard = write('resource.jsonl', [onResource(21, 'prod', 'openinference.instrumentation.openai'), onResource(22, 'staging', 'openinference.instrumentation.langchain'), onResource(23, 'prod', 'openinference.instrumentation.langchain')].join('\n'));
    const where = async (...conditions: [string, string][]) => ids((await importTraces(standard, { ...NO_FILTERS, where: conditions.map(([key, value]) => ({ key, value })) })).rows);
    assert.deepEqual(await where(['deployment.environment', 'prod']), [21, 23]);
    assert.deepEqual(await where(['service.name', 'rag-app'], ['otel.scope.name', 'openinference.instrumentation.langchain']), [22, 23]);
    assert.deepEqual(await where(['team', 'search'], ['deployment.environment', 'staging']), [22]);
    assert.deepEqual(await where(['service.name', 'other']), []);
  });

  test('a recorded score below a threshold; document.score stands for the best passage', async () => {
    assert.deepEqual(ids((await importTraces(file(), { ...NO_FILTERS, scoreBelow: { name: 'user_feedback', threshold: 0.5 } })).rows), [11, 13]);
    assert.deepEqual(ids((await importTraces(file(), { ...NO_FILTERS, scoreBelow: { name: 'document.score', threshold: 0.5 } })).rows), [11]);
  });

  test('a sample of n with a seed: the same seed gives the same rows, in trace order', async () => {
    const first = ids((await importTraces(file(), { ...NO_FILTERS, sample: 2, seed: 42 })).rows);
    const again = ids((await importTraces(file(), { ...NO_FILTERS, sample: 2, seed: 42 })).rows);
    assert.equal(first.length, 2);
    assert.deepEqual(again, first);
    assert.deepEqual([...first].sort((a, b) => a - b), first);
    const seeds = new Set<string>();
    for (let seed = 0; seed < 20; seed++) seeds.add(ids((await importTraces(file(), { ...NO_FILTERS, sample: 2, seed })).rows).join(','));
    assert.ok(seeds.size > 1, 'different seeds draw different samples');
  });
});

describe('import-traces command', () => {
  const io = () => {
    const out = { text: '', write(chunk: string) { out.text += chunk; return true; } };
    const err = { text: '', write(chunk: string) { err.text += chunk; return true; } };
    return { stdout: out as unknown as NodeJS.WritableStream & { text: string }, stderr: err as unknown as NodeJS.WritableStream & { text: string } };
  };

  test('writes the rows and exits 1 when some lines were skipped, naming them', async () => {
    const input = write('cli.jsonl', `${request(ragTrace(21, T0))}\nnot json\n`);
    const out = path.join(dir, 'cli-out.jsonl');
    const streams = io();
    assert.equal(await runImportTraces([input, '--out', out, '--where', 'llm.model_name=gpt-4o-mini'], streams), 1);
    assert.match(streams.stderr.text, /cli\.jsonl:2: not JSON/);
    assert.match(streams.stdout.text, /Wrote 1 row\(s\)/);
  });

  test('--out naming the trace file being imported (under any spelling, or in the imported folder) is refused before anything is written', async () => {
    const input = write('same.jsonl', `${request(ragTrace(22, T0))}\n`);
    const before = readFileSync(input, 'utf8');
    await assert.rejects(runImportTraces([input, '--out', input], io()), /--out .* is a trace file being imported/);
    await assert.rejects(runImportTraces([input, '--out', path.join(path.dirname(input), '.', 'x', '..', 'same.jsonl')], io()), /is a trace file being imported/);
    await assert.rejects(runImportTraces([path.dirname(input), '--out', input], io()), /is a trace file being imported/);
    assert.equal(readFileSync(input, 'utf8'), before, 'the traces are untouched');
  });

  test('usage mistakes name the flag', async () => {
    await assert.rejects(runImportTraces(['x.jsonl'], io()), /needs --out/);
    await assert.rejects(runImportTraces(['x.jsonl', '--out', 'o.jsonl', '--where', 'novalue'], io()), /--where novalue: write it as name=value/);
    await assert.rejects(runImportTraces(['x.jsonl', '--out', 'o.jsonl', '--since', 'yesterday'], io()), /--since yesterday: not a date/);
    await assert.rejects(runImportTraces(['x.jsonl', '--out', 'o.jsonl', '--sample', '0'], io()), /--sample must be a whole number of at least 1/);
    await assert.rejects(runImportTraces([path.join(dir, 'missing.jsonl'), '--out', 'o.jsonl'], io()), /no such file or folder/);
  });
});
