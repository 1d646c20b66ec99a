// The error a suite's parseParams throws: an InputError that also names the parameter, so the eval file loader can point at its line.
import { displayPath, InputError } from '../errors.js';
import { closest } from '../suggest.js';

/** A parameter's place under the suite's `params`: ["noiseRates", 0] for params.noiseRates[0]. */
export type ParamPath = Array<string | number>;

/**
 * parseParams sees only the parsed value, not the YAML it came from. It says which parameter is wrong and whether
 * the key itself (unknown) or its value is at fault; the loader turns that into the line and column.
 */
export class ParamError extends InputError {
  readonly param: ParamPath;
  readonly part: 'key' | 'value';

  constructor(file: string, param: ParamPath, part: 'key' | 'value', message: string, hint: string) {
    super({ file }, message, hint);
    this.param = param;
    this.part = part;
  }
}

/** "noiseRates[0]" → ["noiseRates", 0]; "judge.rejection" → ["judge", "rejection"]; "(root)" → []. */
export function paramPath(key: string): ParamPath {
  if (key === '' || key === '(root)') return [];
  return key.split('.').flatMap((part) => {
    const [name = '', ...indexes] = part.split('[');
    return [...(name === '' ? [] : [name]), ...indexes.map((index) => Number(index.replace(']', '')))];
  });
}

/** A value the method cannot use: `<method> params.<key>: <message>`, reported at the value. */
export function paramValueError(file: string, method: string, key: string, message: string, hint: string): ParamError {
  return new ParamError(file, paramPath(key), 'value', `${method} params${key === '(root)' ? '' : `.${key}`}: ${message}`, hint);
}

/**
 * A key the method does not know, reported at the key, with "did you mean …?" when a known one is close.
 * `problem` keeps each method's wording ("unknown parameter", "unknown judge pass"…).
 */
export function unknownParamError(file: string, method: string, path: ParamPath, known: readonly string[], problem: string, hint: string): ParamError {
  const key = String(path.at(-1));
  const suggestion = closest(key, known);
  return new ParamError(file, path, 'key', `${method} params.${displayPath(path)}: ${problem}`, `${suggestion ? `did you mean '${suggestion}'? ` : ''}${hint}`);
}
