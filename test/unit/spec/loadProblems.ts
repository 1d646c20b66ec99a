// What loading an eval file that must be refused says: every problem formatted as the CLI prints it (file:line: …).
import assert from 'node:assert/strict';
import { InputErrors } from '../../../src/core/errors.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';

export async function loadProblems(file: string, options: Parameters<typeof loadEvalSpec>[1] = {}): Promise<string[]> {
  try {
    await loadEvalSpec(file, options);
  } catch (error) {
    assert.ok(error instanceof InputErrors, String(error));
    return error.errors.map((e) => e.format());
  }
  assert.fail('expected the eval file to be refused');
}
