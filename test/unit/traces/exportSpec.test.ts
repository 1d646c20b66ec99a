// `export: { otlp: … }` in the eval file: loads with header values left as environment variable names, and mistakes
// (a key written in the file, an endpoint without a scheme) are reported at their line.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { InputErrors } from '../../../src/core/errors.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { tempDir } from '../data/tempFiles.js';
import { parseCommandLine, UsageError } from '../../../src/cli/args.js';

function evalFile(exportLines: string[]): string {
  const folder = tempDir();
  writeFileSync(path.join(folder, 'data.jsonl'), '{"question": "q", "retrieved_contexts": ["c"]}\n');
  const file = path.join(folder, 'export.eval.yaml');
  writeFileSync(file, ['version: 1', 'models: [extractive:bm25]', 'suites:', '  - id: r', '    method: ragas', '    dataset: data.jsonl', ...exportLines].join('\n'));
  return file;
}

async function problems(file: string): Promise<string[]> {
  try {
    await loadEvalSpec(file);
  } catch (error) {
    assert.ok(error instanceof InputErrors);
    return error.errors.map((e) => e.format());
  }
  return [];
}

test('export.otlp loads: endpoint, headers as environment variable names, batch size', async () => {
  const spec = await loadEvalSpec(evalFile(['export:', '  otlp:', '    endpoint: http://localhost:6006/v1/traces', '    headers:', '      authorization: { env: PHOENIX_API_KEY, prefix: "Bearer " }', '    batchSize: 20']));
  assert.deepEqual(spec.export, { otlp: { endpoint: 'http://localhost:6006/v1/traces', headers: { authorization: { env: 'PHOENIX_API_KEY', prefix: 'Bearer ' } }, batchSize: 20 } });
});

test('an eval file without export has none', async () => {
  assert.equal((await loadEvalSpec(evalFile([]))).export, undefined);
});

test('a header value written in the file, and an endpoint without http(s)://, are errors at their lines', async () => {
  const found = await problems(evalFile(['export:', '  otlp:', '    endpoint: localhost:4318', '    headers:', '      authorization: Bearer abcdef']));
  assert.equal(found.length, 2, found.join('\n'));
  assert.match(found[0]!, /export\.eval\.yaml:9:/);
  assert.match(found[0]!, /export\.otlp\.endpoint "localhost:4318" is not an http\(s\) URL/);
  assert.match(found[1]!, /export\.eval\.yaml:11:/);
  assert.match(found[1]!, /export\.otlp\.headers\.authorization has the wrong type — expected a mapping/);
});

test('a malformed endpoint (an empty or non-numeric port, no host) is an error at its line, in the eval file and as --export-otlp', async () => {
  for (const [endpoint, said] of [['http://127.0.0.1:/v1/traces', /empty port/], ['http://localhost:43x8/v1/traces', /port '43x8'/], ['http://:4318/v1/traces', /has no host/], ['http://localhost:99999', /port '99999'/]] as const) {
    const found = await problems(evalFile(['export:', '  otlp:', `    endpoint: ${endpoint}`]));
    assert.equal(found.length, 1, `${endpoint}: ${found.join('\n')}`);
    assert.match(found[0]!, /export\.eval\.yaml:9:\d+: export\.otlp\.endpoint /);
    assert.match(found[0]!, said);
    assert.throws(() => parseCommandLine(['report', 'x.jsonl', '--export-otlp', endpoint]), (error: Error) => error instanceof UsageError && said.test(error.message));
  }
  for (const endpoint of ['http://127.0.0.1:4318/v1/traces', 'https://user:pw@collector.example/v1/traces', 'http://[::1]:6006', 'http://localhost:6006']) {
    assert.deepEqual(await problems(evalFile(['export:', '  otlp:', `    endpoint: ${endpoint}`])), [], endpoint);
    assert.equal((parseCommandLine(['report', 'x.jsonl', '--export-otlp', endpoint]) as { exportOtlp?: string }).exportOtlp, endpoint);
  }
});
