// The run log's published JSON Schema: the file is what the readers' shape checks build, every line of every bundled
// example's log fits it, every case `rag-inspector log` prints fits its "sentCase", and a line the readers refuse
// for its shape the schema refuses too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Ajv from 'ajv';
import { LOG_SCHEMA_FILE, runLogLineSchema } from '../../../src/core/run/logLineSchema.js';
import { lineShapeProblem } from '../../../src/core/run/logLineShapes.js';
import { parseLogLines, readCaseLines, scanRunLog } from '../../../src/core/run/runLog.js';

const DATA = path.join(__dirname, '..', '..', 'data', 'runlogs');
const EXAMPLES = ['ifrag', 'needle', 'ragas', 'rgb', 'stress'];
const schema = runLogLineSchema();
const ajv = new Ajv({ allErrors: false, strict: true, validateFormats: false });
const line = ajv.compile(schema);
const sentCase = ajv.compile({ ...schema, anyOf: undefined, $ref: '#/definitions/sentCase' });

const exampleLines = (example: string) => gunzipSync(readFileSync(path.join(DATA, `${example}.jsonl.gz`))).toString('utf8').split('\n').filter(Boolean);

test('schemas/run-log-line.schema.json is the schema the readers\' checks build (run `node --import tsx src/core/run/logLineSchema.ts` after changing logLineShapes.ts)', () => {
  assert.deepEqual(JSON.parse(readFileSync(LOG_SCHEMA_FILE, 'utf8')), schema);
});

for (const example of EXAMPLES) {
  test(`${example}: every line of the log, and every case as log prints it, fits the schema`, async () => {
    const lines = exampleLines(example);
    for (const [i, text] of lines.entries()) assert.ok(line(JSON.parse(text)), `line ${i + 1}: ${ajv.errorsText(line.errors)}`);
    const dir = mkdtempSync(path.join(tmpdir(), 'rag-log-schema-'));
    try {
      const file = path.join(dir, 'run.jsonl');
      writeFileSync(file, `${lines.join('\n')}\n`);
      let cases = 0;
      for await (const { case: evalCase, result } of readCaseLines(await scanRunLog(file))) {
        cases++;
        assert.ok(sentCase(JSON.parse(JSON.stringify({ case: evalCase, result }))), ajv.errorsText(sentCase.errors));
      }
      assert.ok(cases > 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('a case line the readers refuse for its shape, the schema refuses too', () => {
  // Unpacked, as format 2 stores it: the shape the readers check.
  const stored = parseLogLines(exampleLines('rgb')).find((l) => l.type === 'case') as unknown as { case: object; result: Record<string, unknown> };
  assert.equal(lineShapeProblem('case', stored), undefined);
  assert.ok(line(stored), ajv.errorsText(line.errors));
  for (const damage of [{ scores: 'none' }, { status: 'maybe' }, { attempts: '1' }, { caseId: undefined }]) {
    const damaged = { ...stored, result: { ...stored.result, ...damage } };
    const value = JSON.parse(JSON.stringify(damaged)) as unknown;
    assert.notEqual(lineShapeProblem('case', value), undefined, JSON.stringify(damage));
    assert.equal(line(value), false, JSON.stringify(damage));
  }
});
