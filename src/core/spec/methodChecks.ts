// Each suite's `method` checked against the registry as it is when the file is loaded, so a method registered at run
// time (registerSuite) is accepted like a bundled one; the compiled validator leaves the method list out.
import { InputError } from '../errors.js';
import { knownMethods, suiteFor } from '../suites/registry.js';
import { suitesOf } from './checks.js';
import { oneOfHint } from './schemaErrors.js';
import type { YamlLocator } from './yamlPositions.js';

type Raw = Record<string, unknown>;

/** One error per suite naming a method nobody registered, at its value; a method that is not text is the schema's. */
export function methodProblems(data: Raw, locator: YamlLocator): InputError[] {
  const problems: InputError[] = [];
  for (const [index, suite] of suitesOf(data)) {
    if (typeof suite.method !== 'string' || suiteFor(suite.method)) continue;
    const at = locator.valueAt(['suites', index, 'method']);
    problems.push(new InputError(at, `unknown method ${JSON.stringify(suite.method)}`, oneOfHint(suite.method, knownMethods())));
  }
  return problems;
}
