// Editor documentation of the method parameters whose default depends on something else in the eval file (the
// needle's scoring on judge:, LLM-Eval's reply parser, stress's answerBearing: judge, which needs judge:), each
// written by its method (Suite.paramDocs). Each method still checks its own params at load (paramChecks.ts); these
// only describe, so they never reject a key.
import { knownMethods, suiteFor } from '../suites/registry.js';
import type { ParamDoc } from '../suites/contract.js';
import type { JsonSchema } from './schema.js';

function forMethod(method: string, docs: Readonly<Record<string, ParamDoc>>): JsonSchema {
  const properties = Object.fromEntries(Object.entries(docs).map(([key, { enum: values, ...doc }]): [string, JsonSchema] => [key, { ...(values ? { enum: [...values] } : {}), ...doc }]));
  return { if: { properties: { method: { const: method } }, required: ['method'] }, then: { properties: { params: { type: 'object', properties } } } };
}

export const methodParamDocs: JsonSchema[] = knownMethods().flatMap((method) => {
  const docs = suiteFor(method)?.paramDocs;
  return docs ? [forMethod(method, docs)] : [];
});
