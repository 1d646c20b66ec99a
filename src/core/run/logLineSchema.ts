// The run log's lines as JSON Schema, built from the shape checks every reader applies (logLineShapes.ts), so the
// published schema (schemas/run-log-line.schema.json) and the readers cannot disagree. Written by
// `node --import tsx src/core/run/logLineSchema.ts`; a test fails when the file is not what this builds.
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { lineSchemas } from './logLineShapes.js';
import type { JsonSchema } from './logLineShapes.js';

export const LOG_SCHEMA_FILE = path.resolve(__dirname, '../../../schemas/run-log-line.schema.json');

/** A format-3 packed value: `{"@<id>": [values]}` against a shared line's key list (sharedValues.ts). */
const packed: JsonSchema = { type: 'object', minProperties: 1, maxProperties: 1, propertyNames: { pattern: '^@[0-9]+$' } };

export function runLogLineSchema(): JsonSchema {
  const shapes = lineSchemas();
  const typed = (type: string, shape: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
    allOf: [{ type: 'object', properties: { type: { const: type }, ...extra }, required: ['type'] }, shape],
  });
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'A line of a RAG Inspector run log (.rag-inspector/runs/<run-id>.jsonl)',
    description: 'One JSON value per line. Line 1 is the header; then text, shared, case, resume and batch lines in the order written, and a summary line when the run finished. Format 3 packs case lines against shared lines: read cases with `rag-inspector log`, which prints each as the "sentCase" definition says. Members not listed here may be present; readers ignore them.',
    anyOf: ['header', 'text', 'shared', 'case', 'resume', 'batch', 'summary'].map((type) => ({ $ref: `#/definitions/${type}` })),
    definitions: {
      header: typed('header', shapes.header, { format: { enum: [1, 2, 3] }, status: { const: 'started' } }),
      text: typed('text', shapes.text),
      shared: typed('shared', shapes.shared),
      case: {
        description: 'Formats 1 and 2: the case as stored (long texts may be {"$t": id} references to text lines, {"$d": i} to the case\'s documents, {"$p": [...]} pieces). Format 3: case and result packed against shared lines.',
        anyOf: [typed('case', shapes.case), typed('case', { type: 'object', properties: { case: packed, result: { anyOf: [packed, { type: 'object' }] } }, required: ['case', 'result'] })],
      },
      resume: typed('resume', shapes.resume),
      batch: typed('batch', shapes.batch),
      summary: typed('summary', shapes.summary),
      sentCase: { description: 'A line printed by `rag-inspector log`: the case as it was sent (every text whole) and its result.', ...shapes.sentCase },
    },
  };
}

export function emitLogSchema(target = LOG_SCHEMA_FILE): void {
  writeFileSync(target, `${JSON.stringify(runLogLineSchema(), null, 2)}\n`);
}

if (require.main === module) {
  emitLogSchema();
  console.log(`wrote ${path.relative(process.cwd(), LOG_SCHEMA_FILE)}`);
}
