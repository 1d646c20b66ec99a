// A dataset imported from traces keeps what the retriever recorded of each passage: run as a RAGAS case and exported
// again, the passages go back with their own ids, scores and metadata (not d0, d1…), and a passage nothing labels
// has the role `unknown`, never `negative` (noise).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { importTraces } from '../../../src/core/traces/importTraces.js';
import { exportCasesToOtlp } from '../../../src/core/traces/otlpExport.js';
import { expandRagasRow } from '../../../src/core/suites/ragas/cases.js';
import { parseRagasParams } from '../../../src/core/suites/ragas/params.js';
import type { CaseEntry, CaseResult } from '../../../src/core/model.js';
import { startOtlpReceiver } from '../../fixtures/otlpReceiver.js';
import { tempDir } from '../data/tempFiles.js';
import { asRows } from './importedRow.js';

const kv = (key: string, value: string | number) => ({ key, value: typeof value === 'string' ? { stringValue: value } : { doubleValue: value } });

test('imported ids, scores and metadata survive a run and an export; unlabelled passages are unknown, not negative', async () => {
  const dir = tempDir();
  const trace = '0'.repeat(31) + '1';
  const span = (id: string, parent: string | undefined, attributes: object[]) => ({ traceId: trace, spanId: id.padStart(16, '0'), ...(parent ? { parentSpanId: parent.padStart(16, '0') } : {}), name: 's', startTimeUnixNano: '1714557600000000000', endTimeUnixNano: '1714557600005000000', attributes });
  const file = path.join(dir, 'traces.jsonl');
  writeFileSync(file, `${JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [
    span('1', undefined, [kv('openinference.span.kind', 'CHAIN'), kv('input.value', 'Capital of France?'), kv('output.value', 'Paris.')]),
    span('2', '1', [kv('openinference.span.kind', 'RETRIEVER'),
      kv('retrieval.documents.0.document.id', 'kb-17'), kv('retrieval.documents.0.document.content', 'Paris is the capital of France.'), kv('retrieval.documents.0.document.score', 0.91), kv('retrieval.documents.0.document.metadata', '{"source":"atlas.md"}'),
      kv('retrieval.documents.1.document.id', 'kb-42'), kv('retrieval.documents.1.document.content', 'France is in Europe.'), kv('retrieval.documents.1.document.score', 0.33)]),
  ] }] }] })}\n`);
  const imported = await importTraces(file, { where: [], seed: 1 });
  assert.equal(imported.rows.length, 1);

  const [evalCase] = expandRagasRow({ ref: { file: 'rows.jsonl', line: 1, index: 0 }, data: imported.rows[0]! }, parseRagasParams({ metrics: ['faithfulness'] }, { file: 'x.eval.yaml' } as never), { suiteId: 'r', seed: 1, models: ['openai:gpt-4o-mini'] });
  assert.deepEqual(evalCase!.documents.map((d) => d.role), ['unknown', 'unknown'], 'nothing labels them: unknown, not noise');
  assert.deepEqual(evalCase!.documents.map((d) => d.retrieved), [{ id: 'kb-17', score: 0.91, metadata: { source: 'atlas.md' } }, { id: 'kb-42', score: 0.33 }]);

  const result = { caseId: evalCase!.id, modelKey: 'openai:gpt-4o-mini', status: 'ok', scores: [], attempts: 1, response: { text: 'Paris.', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, cached: false } } as unknown as CaseResult;
  async function* entries(): AsyncIterable<CaseEntry> { yield { evalCase: evalCase!, result }; }
  const receiver = await startOtlpReceiver();
  try {
    await exportCasesToOtlp(entries(), { runId: 'run', name: 'trip' }, { endpoint: receiver.url, headers: {} });
    const again = path.join(dir, 'again.jsonl');
    writeFileSync(again, receiver.requests.map((r) => `${r.text}\n`).join(''));
    const [row] = asRows((await importTraces(again, { where: [], seed: 1 })).rows);
    assert.deepEqual(row!.passages.map((p) => [p.id, p.score, p.metadata.role, p.metadata.source]), [['kb-17', 0.91, 'unknown', 'atlas.md'], ['kb-42', 0.33, 'unknown', 'retrieved_contexts[1]']]);
  } finally {
    await receiver.close();
  }
});
