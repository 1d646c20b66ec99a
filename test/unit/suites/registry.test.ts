// The method list is the registry's alone: the inspector's views, the eval file's schema and its editor docs follow it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { knownMethods, suiteFor } from '../../../src/core/suites/registry.js';
import { viewedMethods } from '../../../src/core/suites/views.js';
import { evalSchema } from '../../../src/core/spec/schema.js';
import { methodParamDocs } from '../../../src/core/spec/methodParamsSchema.js';

describe('the method registry', () => {
  it('the inspector knows a view for exactly the registered methods, in the same order', () => {
    assert.deepEqual(viewedMethods(), knownMethods());
  });

  it("the eval file's schema offers exactly the registered methods", () => {
    assert.deepEqual(evalSchema.definitions?.suite?.properties?.method?.enum, knownMethods());
    assert.match(evalSchema.definitions?.suite?.properties?.method?.description ?? '', /rgb \(RGB benchmark\), .* or rag \(/);
  });

  it("the editor documents each method's paramDocs under that method", () => {
    const documented = methodParamDocs.map((entry) => entry.if?.properties?.method?.const);
    assert.deepEqual(documented, knownMethods().filter((m) => suiteFor(m)?.paramDocs));
    assert.ok(documented.length >= 3, 'needle, stress and LLM-Eval document their judge-dependent defaults');
  });
});
