// Turns ajv's schema violations into InputErrors at the offending YAML node, each with a hint on how to fix it.
import type { ErrorObject } from 'ajv';
import { displayPath, InputError } from '../errors.js';
import type { JsonSchema } from './schema.js';
import { closest } from '../suggest.js';
import type { YamlLocator } from './yamlPositions.js';
import { pointerSegments } from '../jsonPointer.js';
import type { PathSegment } from '../errors.js';

/** One InputError per distinct problem, in file order of ajv's report. */
export function schemaErrors(errors: readonly ErrorObject[], locator: YamlLocator): InputError[] {
  const seen = new Set<string>();
  const result: InputError[] = [];
  for (const error of chooseOneOfBranches(errors)) {
    const problem = describe(error, locator);
    const key = `${problem.position.line}:${problem.position.column}:${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(problem);
  }
  return result;
}

/**
 * ajv reports every failing branch of a oneOf (a model is a string or a mapping). Keep the errors of the
 * branch whose type matched the value, so a mapping with a typo gets "unknown key", not "must be string".
 * With no such branch, the oneOf error itself says what was expected.
 */
function chooseOneOfBranches(errors: readonly ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  for (const oneOf of errors.filter((error) => error.keyword === 'oneOf')) {
    const prefix = `${oneOf.schemaPath}/`;
    const branchErrors = errors.filter((error) => error.schemaPath.startsWith(prefix) && error.instancePath.startsWith(oneOf.instancePath));
    const branchOf = (error: ErrorObject) => error.schemaPath.slice(prefix.length).split('/')[0];
    const wrongType = new Set(branchErrors.filter((e) => e.keyword === 'type' && e.instancePath === oneOf.instancePath).map(branchOf));
    const branches = new Set(((oneOf.schema as JsonSchema[] | undefined) ?? []).map((_, index) => String(index)));
    const matching = [...branches].filter((branch) => !wrongType.has(branch));
    if (matching.length !== 1) {
      branchErrors.forEach((error) => dropped.add(error));
      continue;
    }
    dropped.add(oneOf);
    branchErrors.filter((error) => branchOf(error) !== matching[0]).forEach((error) => dropped.add(error));
  }
  return errors.filter((error) => !dropped.has(error));
}

function describe(error: ErrorObject, locator: YamlLocator): InputError {
  const segments = pointerSegments(error.instancePath);
  const where = displayPath(segments) || 'the eval file';
  const params = error.params as Record<string, unknown>;
  const parentSchema = error.parentSchema as JsonSchema | undefined;
  switch (error.keyword) {
    case 'additionalProperties':
      return unknownKey(locator, segments, String(params.additionalProperty), parentSchema);
    case 'required': {
      const key = String(params.missingProperty);
      const description = parentSchema?.properties?.[key]?.description;
      return new InputError(locator.valueAt(segments), `${where} is missing '${key}'`, description ? `add '${key}': ${lowerFirst(description)}` : `add '${key}'`);
    }
    case 'type':
      return new InputError(locator.valueAt(segments), `${where} has the wrong type`, `expected ${article(String(params.type))}, got ${jsonType(error.data)}`);
    case 'enum':
      return notAllowed(locator, segments, where, error.data, (params.allowedValues as string[]) ?? []);
    case 'const':
      return new InputError(locator.valueAt(segments), `${where} must be ${JSON.stringify(params.allowedValue)}`, `this version of RAG Inspector reads ${where} ${JSON.stringify(params.allowedValue)} files`);
    case 'pattern':
      return new InputError(locator.valueAt(segments), patternMessage(segments, where, error.data), patternHint(segments));
    case 'oneOf':
      return new InputError(locator.valueAt(segments), `${where} is not a model`, `write "provider:model" (e.g. openai:gpt-4o-mini) or a mapping with provider and model; got ${jsonType(error.data)}`);
    case 'minItems':
      return new InputError(locator.valueAt(segments), `${where} is empty`, `list at least ${String(params.limit)} entr${params.limit === 1 ? 'y' : 'ies'}`);
    case 'minProperties':
      return new InputError(locator.valueAt(segments), `${where} is empty`, 'give min, max or both, e.g. { min: 0.5 }');
    case 'minLength':
      return new InputError(locator.valueAt(segments), `${where} is empty`, 'give a value or remove the key');
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
      return new InputError(locator.valueAt(segments), `${where} is out of range`, `${String(params.comparison)} ${String(params.limit)} expected, got ${JSON.stringify(error.data)}`);
    default:
      return new InputError(locator.valueAt(segments), `${where} ${error.message ?? 'is invalid'}`);
  }
}

function unknownKey(locator: YamlLocator, segments: PathSegment[], key: string, parentSchema: JsonSchema | undefined): InputError {
  const allowed = Object.keys(parentSchema?.properties ?? {});
  const suggestion = closest(key, allowed);
  const hint = suggestion ? `did you mean '${suggestion}'?` : `allowed keys here: ${allowed.join(', ')}`;
  const where = displayPath(segments);
  return new InputError(locator.keyAt(segments, key), `unknown key '${key}'${where ? ` in ${where}` : ''}`, hint);
}

function notAllowed(locator: YamlLocator, segments: PathSegment[], where: string, value: unknown, allowed: string[]): InputError {
  return new InputError(locator.valueAt(segments), `${where} is not one of the allowed values`, oneOfHint(value, allowed));
}

/** "did you mean 'rgb'? use one of: rgb, needle, …": the hint for a value outside a fixed list. */
export function oneOfHint(value: unknown, allowed: readonly string[]): string {
  const suggestion = typeof value === 'string' ? closest(value, allowed) : undefined;
  return `${suggestion ? `did you mean '${suggestion}'? ` : ''}use one of: ${allowed.join(', ')}`;
}

/** Patterns other than the model shorthand, by the key they check: what is wrong, and how to write it. */
const PATTERNS: Record<string, { message: (where: string, value: string) => string; hint: string }> = {
  id: { message: (_where, value) => `suite id ${value} has characters that are not allowed`, hint: 'use letters, digits, "_", "." and "-" only, e.g. noise-en' },
  endpoint: { message: (where, value) => `${where} ${value} is not an http(s) URL`, hint: 'write the OTLP/HTTP traces URL, e.g. http://localhost:6006/v1/traces' },
  env: { message: (where, value) => `${where} ${value} is not an environment variable name`, hint: 'letters, digits and "_", not starting with a digit, e.g. PHOENIX_API_KEY' },
};

function patternMessage(segments: PathSegment[], where: string, value: unknown): string {
  const known = PATTERNS[String(segments.at(-1))];
  return known ? known.message(where, JSON.stringify(value)) : `${where} ${JSON.stringify(value)} is not "provider:model"`;
}

function patternHint(segments: PathSegment[]): string {
  return PATTERNS[String(segments.at(-1))]?.hint ?? 'write the provider, a colon and the model, e.g. openai:gpt-4o-mini or extractive:bm25';
}

function jsonType(value: unknown): string {
  if (value === null) return 'nothing (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number') return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

function article(type: string): string {
  const names: Record<string, string> = { object: 'a mapping', array: 'a list', integer: 'an integer (whole number)', number: 'a number', string: 'text', boolean: 'true or false' };
  return names[type] ?? type;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
