// Writes media/eval.schema.json from schema.ts and each method's params: `node --import tsx src/core/spec/emitSchema.ts`.
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { editorSchemaJson } from './methodParamsSchema.js';

export const SCHEMA_FILE = path.resolve(__dirname, '../../../media/eval.schema.json');

export function emitSchema(target = SCHEMA_FILE): void {
  writeFileSync(target, editorSchemaJson());
}

if (require.main === module) {
  emitSchema();
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
}
