// Each suite's `params` checked by its method at load, so a bad parameter is reported at its line, not just in the file.
import { InputError } from '../errors.js';
import { ParamError } from '../suites/paramError.js';
import { suiteFor } from '../suites/registry.js';
import { asRecord, suitesOf } from './checks.js';
import type { YamlLocator } from './yamlPositions.js';
import type { PathSegment } from '../errors.js';

type Raw = Record<string, unknown>;

/**
 * The method's parseParams stops at the first problem, so this is at most one error per suite. Suites whose
 * method is unknown, or whose params is not a mapping, are left to the schema's errors.
 */
export function paramProblems(data: Raw, file: string, locator: YamlLocator): InputError[] {
  const problems: InputError[] = [];
  for (const [index, suite] of suitesOf(data)) {
    const method = typeof suite.method === 'string' ? suiteFor(suite.method) : undefined;
    if (!method || (suite.params !== undefined && !asRecord(suite.params))) continue;
    try {
      // As the engine calls it (load.ts gives a suite without params an empty mapping).
      method.parseParams(suite.params ?? {}, { file, judge: data.judge !== undefined });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(positioned(error, ['suites', index, 'params'], locator));
    }
  }
  return problems;
}

/** The error at its parameter's key (unknown) or value; a parameter not written in the file is reported at `params`, or at the suite. */
function positioned(error: InputError, params: PathSegment[], locator: YamlLocator): InputError {
  if (!(error instanceof ParamError)) return new InputError(locator.valueAt(params), error.message, error.hint);
  const path = [...params, ...error.param];
  const at = error.part === 'key' && path.length > params.length ? locator.keyAt(path.slice(0, -1), String(path.at(-1))) : locator.valueAt(path);
  return new InputError(at, error.message, error.hint);
}
