// The editor's schema of eval files (media/eval.schema.json): the eval-file schema with each method's params written
// from the method's own declaration (Suite.paramsSchema, through zod's JSON Schema writer), descriptions and defaults
// included. Only the emitter and its test load this: the validator checks params through the methods themselves
// (paramChecks.ts), so at run time zod's JSON Schema writer is never loaded.
import { toJSONSchema } from 'zod/mini';
import { knownMethods, suiteFor } from '../suites/registry.js';
import type { ParamDoc } from '../suites/contract.js';
import type { ParamsSchema } from '../suites/paramSchema.js';
import { evalSchema } from './schema.js';
import type { JsonSchema } from './schema.js';

/** zod's largest safe integer bound says nothing to a reader; the eval schema is draft-07 and names no $schema per part. */
function tidy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tidy);
  if (typeof schema !== 'object' || schema === null) return schema;
  const entries = Object.entries(schema).filter(([key, value]) => key !== '$schema' && !(Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER && (key === 'maximum' || key === 'minimum')));
  return Object.fromEntries(entries.map(([key, value]) => [key, tidy(value)]));
}

/** A method's params as JSON Schema, as the editor offers them (the values written, before defaults). */
export function paramsJsonSchema(schema: ParamsSchema): JsonSchema {
  return tidy(toJSONSchema(schema, { io: 'input', target: 'draft-7', unrepresentable: 'any' })) as JsonSchema;
}

/** A method without a declared schema: its documented keys only (Suite.paramDocs). */
function documented(docs: Readonly<Record<string, ParamDoc>>): JsonSchema {
  const properties = Object.fromEntries(Object.entries(docs).map(([key, { enum: values, ...doc }]): [string, JsonSchema] => [key, { ...(values ? { enum: [...values] } : {}), ...doc }]));
  return { type: 'object', properties };
}

function forMethod(method: string): JsonSchema[] {
  const suite = suiteFor(method);
  const params = suite?.paramsSchema ? paramsJsonSchema(suite.paramsSchema) : suite?.paramDocs ? documented(suite.paramDocs) : undefined;
  if (!params) return [];
  return [{ if: { properties: { method: { const: method } }, required: ['method'] }, then: { properties: { params: { ...params, description: `${method} parameters.` } } } }];
}

/** The eval-file schema the editor reads: each registered method's params under `if method is …`. */
export function editorSchema(): JsonSchema {
  const suite = evalSchema.definitions!.suite!;
  return { ...evalSchema, definitions: { ...evalSchema.definitions, suite: { ...suite, allOf: knownMethods().flatMap(forMethod) } } };
}

/** The schema file's exact text (media/eval.schema.json), so a test can tell when it drifts. */
export function editorSchemaJson(): string {
  return `${JSON.stringify(editorSchema(), null, 2)}\n`;
}
