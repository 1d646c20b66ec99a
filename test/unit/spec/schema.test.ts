// The eval schema: the emitted file matches the source, every property is described, suggestions behave.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SCHEMA_FILE } from '../../../src/core/spec/emitSchema.js';
import { VALIDATOR_FILE, validatorSource } from '../../../src/core/spec/emitValidator.js';
import { editorSchema, editorSchemaJson } from '../../../src/core/spec/methodParamsSchema.js';
import type { JsonSchema } from '../../../src/core/spec/schema.js';
import { closest, editDistance } from '../../../src/core/suggest.js';

test('media/eval.schema.json is the schema from schema.ts (run `node --import tsx src/core/spec/emitSchema.ts` after changing it)', () => {
  assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), editorSchemaJson());
});

test('the precompiled validator is the schema from schema.ts (run `node --import tsx src/core/spec/emitValidator.ts` after changing it)', () => {
  assert.equal(readFileSync(VALIDATOR_FILE, 'utf8'), validatorSource());
});

function undescribed(schema: JsonSchema, where: string): string[] {
  const missing: string[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (!property.description) missing.push(`${where}.${key}`);
    missing.push(...undescribed(property, `${where}.${key}`));
  }
  for (const [name, definition] of Object.entries(schema.definitions ?? {})) missing.push(...undescribed(definition, `#${name}`));
  for (const [index, branch] of (schema.oneOf ?? []).entries()) missing.push(...undescribed(branch, `${where}|${index}`));
  if (schema.items) missing.push(...undescribed(schema.items, `${where}[]`));
  for (const [index, branch] of (schema.allOf ?? []).entries()) missing.push(...undescribed(branch.then ?? branch, `${where}&${index}`));
  if (typeof schema.additionalProperties === 'object') missing.push(...undescribed(schema.additionalProperties, `${where}.*`));
  return missing;
}

test('every property in the schema has a description for the editor, each method\'s params included', () => {
  assert.deepEqual(undescribed(editorSchema(), ''), []);
});

test('closest suggests near misses and nothing for unrelated words', () => {
  const keys = ['concurrency', 'maxRetries', 'model', 'timeoutMs', 'rateLimit'];
  assert.equal(closest('concurency', keys), 'concurrency');
  assert.equal(closest('modle', keys), 'model');
  assert.equal(closest('MaxRetries', keys), 'maxRetries');
  assert.equal(closest('banana', keys), undefined);
  assert.equal(closest('x', ['y']), 'y');
  assert.equal(editDistance('ab', 'ba'), 1);
  assert.equal(editDistance('kitten', 'sitting'), 3);
});
