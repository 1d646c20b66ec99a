// The method list is the registry's alone: the inspector's views, the eval file's schema and its editor docs follow it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { knownMethods, suiteFor } from '../../../src/core/suites/registry.js';
import { viewedMethods } from '../../../src/core/suites/views.js';
import { evalSchema } from '../../../src/core/spec/schema.js';
import { editorSchema } from '../../../src/core/spec/methodParamsSchema.js';

describe('the method registry', () => {
  it('the inspector knows a view for exactly the registered methods, in the same order', () => {
    assert.deepEqual(viewedMethods(), knownMethods());
  });

  it("the eval file's schema offers exactly the registered methods", () => {
    assert.deepEqual(evalSchema.definitions?.suite?.properties?.method?.enum, knownMethods());
    assert.match(evalSchema.definitions?.suite?.properties?.method?.description ?? '', /rgb \(RGB benchmark\), .* or rag \(/);
  });

  it("the editor describes each method's params under that method, from its declared schema", () => {
    const branches = editorSchema().definitions?.suite?.allOf ?? [];
    const documented = branches.map((entry) => entry.if?.properties?.method?.const);
    assert.deepEqual(documented, knownMethods().filter((m) => suiteFor(m)?.paramsSchema || suiteFor(m)?.paramDocs));
    const declared = knownMethods().filter((m) => suiteFor(m)?.paramsSchema);
    assert.ok(declared.includes('rgb'), 'RGB declares its params');
    for (const method of declared) {
      const params = branches.find((entry) => entry.if?.properties?.method?.const === method)?.then?.properties?.params;
      assert.equal(params?.additionalProperties, false, `${method}: the editor flags an unknown key`);
      assert.ok(Object.keys(params?.properties ?? {}).length > 0, `${method}: every key offered`);
    }
  });
});
