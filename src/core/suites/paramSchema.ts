// A method's params declared once, as a zod schema built from the field kinds below: the validator (each problem a
// ParamError naming params.<key>, which the loader puts at its file:line:column, with a hint), the editor's JSON schema
// (descriptions and defaults) and the TypeScript type (ParamsOf) all follow from that one declaration.
// zod/mini, imported by name: the bundle keeps only the kinds used here (~20 KB minified), not zod's locales or its
// JSON Schema writer, which only the schema emitter loads (spec/methodParamsSchema.ts).
import {
  _default, array, boolean, enum as oneOf, globalRegistry, int, maximum, minLength, minimum, number, optional, prefault,
  refine, safeParse, strictObject, string, superRefine, union,
} from 'zod/mini';
import type { ZodMiniType, output } from 'zod/mini';
import { displayPath } from '../errors.js';
import type { PathSegment } from '../errors.js';
import { paramValueError, unknownParamError } from './paramError.js';
import type { ParamError } from './paramError.js';

/** The declared schema of a method's params (Suite.paramsSchema). */
export type ParamsSchema = ZodMiniType;
/** The params as the schema gives them back: every key with a static default filled in. */
export type ParamsOf<Schema extends ZodMiniType> = output<Schema>;

/**
 * What a field says when its value is wrong. `{key}` in a hint is replaced by the parameter's full name
 * (judge.rejection), so a hint reads like the line the user is to write.
 */
interface Problem {
  message: string;
  hint: string;
  /** Set on an unknown key: the keys its mapping knows, for "did you mean". */
  known?: readonly string[];
  problem?: string;
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** zod carries only a message from a field to its issue; the problem travels in it as JSON, read back by `problemOf`. */
const says = (problem: Problem): string => JSON.stringify(problem);
const saying = (message: (input: unknown) => string, hint: string) => ({ error: (issue: { input?: unknown }) => says({ message: message(issue.input), hint }) });

interface Field<T> {
  description: string;
  /** How to fix a bad value; `{key}` is the parameter's name. */
  hint?: string;
  /** The value when the key is left out; without it the key stays undefined (a default that depends on other keys). */
  default?: T;
}

/** A field's type: its value when it has a default, else its value or undefined. */
type Declared<T, F> = ZodMiniType<F extends { default: T } ? T : T | undefined>;

/** The field with its description for the editor, and its static default if any. */
function declared<T extends ZodMiniType>(schema: T, field: Field<unknown>): ZodMiniType {
  const withDefault = field.default === undefined ? optional(schema) : _default(schema, field.default as never);
  globalRegistry.add(withDefault, { description: field.description });
  return withDefault;
}

/** A required field (its kind says "missing" when left out). */
export function required<T extends ZodMiniType>(schema: T, description: string): T {
  globalRegistry.add(schema, { description });
  return schema;
}

export function flag<F extends Field<boolean>>(field: F): Declared<boolean, F> {
  const hint = field.hint ?? 'write {key}: true or {key}: false';
  return declared(boolean(saying((input) => `expected true or false, got ${show(input)}`, hint)), field) as Declared<boolean, F>;
}

interface Range { min: number; max?: number }

function wholeSchema({ min, max }: Range, hint: string) {
  const words = max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  const error = saying((input) => `expected ${words}, got ${show(input)}`, hint);
  return number(error).check(int(error), minimum(min, error), ...(max === undefined ? [] : [maximum(max, error)]));
}

/** A whole number (a count, a token length). */
export function whole<F extends Field<number> & Range & { hint: string }>(field: F): Declared<number, F> {
  return declared(wholeSchema(field, field.hint), field) as Declared<number, F>;
}

function decimalSchema({ min, max, unit }: Required<Range> & { unit?: string }, hint: string) {
  const words = min === 0 && (max === 1 || unit) ? `a ${unit ?? 'number'} between 0 and ${max}` : `a number from ${min} to ${max}`;
  const error = saying((input) => `expected ${words}, got ${show(input)}`, hint);
  return number(error).check(minimum(min, error), maximum(max, error));
}

/** A number in a closed range (a ratio, a temperature). */
export function decimal<F extends Field<number> & Required<Range> & { hint: string; unit?: string }>(field: F): Declared<number, F> {
  return declared(decimalSchema(field, field.hint), field) as Declared<number, F>;
}

interface ChoiceWords {
  hint?: string;
  /** "expected A, B or C, got …" rather than listing the values. */
  expected?: string;
  /** "unknown testbed "noise"" rather than "expected one of …, got "noise"". */
  noun?: string;
}

function choiceSchema<const T extends readonly [string, ...string[]]>(values: T, words: ChoiceWords, missingHint: string) {
  const hint = words.hint ?? `use one of ${values.join(', ')}`;
  return oneOf(values, {
    error: (issue: { input?: unknown }) => {
      if (issue.input === undefined) return says({ message: 'missing', hint: missingHint });
      if (words.noun) return says({ message: `unknown ${words.noun} ${show(issue.input)}`, hint });
      return says({ message: `expected ${words.expected ?? `one of ${values.join(', ')}`}, got ${show(issue.input)}`, hint });
    },
  });
}

/** One of a fixed list of words. */
export function choice<const T extends readonly [string, ...string[]], F extends Field<T[number]> & ChoiceWords = Field<T[number]>>(values: T, field: F): Declared<T[number], F> {
  return declared(choiceSchema(values, field, ''), field) as Declared<T[number], F>;
}

/** A choice the eval file must make: "missing" with `missing` as the hint when left out. */
export function requiredChoice<const T extends readonly [string, ...string[]]>(values: T, field: ChoiceWords & { description: string; missing: string }) {
  return required(choiceSchema(values, field, field.missing), field.description);
}

function textSchema(hint: string) {
  const error = saying((input) => (input === undefined ? 'missing' : `expected a non-empty string, got ${show(input)}`), hint);
  return string(error).check(refine((value: string) => value.trim() !== '', error));
}

/** A non-empty string. */
export function text<F extends Field<string>>(field: F): Declared<string, F> {
  return declared(textSchema(field.hint ?? 'quote it in YAML if it starts with a special character'), field) as Declared<string, F>;
}

/** Each value once: the first repeat is "<value> is listed twice", at the list's key. */
const distinct = (hint: string) => superRefine((values: unknown[], context) => {
  const seen = new Set<string>();
  for (const value of values) {
    const key = show(value);
    if (seen.has(key)) {
      context.issues.push({ code: 'custom', input: values, message: says({ message: `${typeof value === 'string' ? value : key} is listed twice`, hint }) });
      return;
    }
    seen.add(key);
  }
});

interface ListField<T> extends Field<T[]> {
  /** Said when the value is not a non-empty list. */
  example: string;
  /** How to fix a repeated value; without it repeats are allowed. */
  distinct?: string;
}

function listSchema<Item extends ZodMiniType>(item: Item, field: { example: string; distinct?: string; expected?: string }) {
  const error = saying((input) => `expected ${field.expected ?? 'a non-empty list'}, got ${show(input)}`, field.example);
  const list = array(item, error).check(minLength(1, error));
  return field.distinct === undefined ? list : list.check(distinct(field.distinct));
}

/** A non-empty list of `item`s. */
export function list<Item extends ZodMiniType, F extends ListField<output<Item>> = ListField<output<Item>>>(item: Item, field: F): Declared<output<Item>[], F> {
  return declared(listSchema(item, field), field) as Declared<output<Item>[], F>;
}

/** Items of a list: a whole number, a number in a range, a word of a list, a non-empty string. */
export const items = {
  whole: (range: Range, hint: string) => wholeSchema(range, hint),
  decimal: (range: Required<Range> & { unit?: string }, hint: string) => decimalSchema(range, hint),
  choice: <const T extends readonly [string, ...string[]]>(values: T, words: ChoiceWords = {}) => choiceSchema(values, words, ''),
  text: (hint: string) => textSchema(hint),
  list: <Item extends ZodMiniType>(item: Item, field: { example: string; distinct?: string }) => listSchema(item, field),
  either: <const Options extends readonly [ZodMiniType, ZodMiniType, ...ZodMiniType[]]>(options: Options, field: { expected: string; hint: string }) => union(options, saying((input) => `expected ${field.expected}, got ${show(input)}`, field.hint)),
};

/** A mapping of known keys; any other key is refused at the key, with "did you mean" (`problem`: "unknown parameter"). */
export function mapping<Shape extends Record<string, ZodMiniType>>(shape: Shape, field: { example: string; problem?: string; hint?: string }) {
  const known = Object.keys(shape);
  const hint = field.hint ?? `use ${known.join(', ')}`;
  return strictObject(shape, {
    error: (issue: { code?: string; input?: unknown }) => issue.code === 'unrecognized_keys'
      ? says({ message: '', hint, known, problem: field.problem ?? 'unknown parameter' })
      : says({ message: `expected a mapping, got ${show(issue.input)}`, hint: `e.g. ${field.example}` }),
  });
}

/** A mapping field (judge: { … }); its own keys carry their defaults, so leaving it out gives the defaults. */
export function section<Shape extends Record<string, ZodMiniType>>(shape: Shape, field: { description: string; example: string; problem?: string; hint?: string }) {
  const schema = mapping(shape, field);
  // prefault: an absent mapping is read as {} through the mapping itself, so its keys' defaults apply.
  const withDefault = prefault(schema, {} as never);
  globalRegistry.add(withDefault, { description: field.description });
  return withDefault as unknown as typeof schema;
}

/** One of several shapes (a list or a range mapping): a value of none of them is `message`. */
export function either<const Options extends readonly [ZodMiniType, ZodMiniType, ...ZodMiniType[]]>(options: Options, field: Field<never> & { expected: string; hint: string }) {
  return declared(items.either(options, field), field) as ZodMiniType<output<Options[number]> | undefined>;
}

/** One phrase or a list of them (a refusal wording): given back as a list. */
export function phrases<F extends Field<string[]> & { hint: string; noun: string }>(field: F): ZodMiniType<F extends { default: string[] } ? string | string[] : string | string[] | undefined> {
  const one = textSchema(field.hint);
  const expected = `a ${field.noun} or a non-empty list of ${field.noun}s`;
  const many = listSchema(one, { example: field.hint, expected });
  return declared(union([one, many], saying((input) => `expected ${expected}, got ${show(input)}`, field.hint)), field) as never;
}

/** A phrases value as a list. */
export const asList = (value: string | string[]): string[] => (typeof value === 'string' ? [value] : value);

/** The params of one method: its name for messages and how to fail on a rule across keys. */
export interface ParamsReader {
  /** `<method> params.<key>: <message>` at the key's value. */
  fail(key: string, message: string, hint: string): never;
}

export function paramsReader(file: string, method: string): ParamsReader {
  return { fail: (key, message, hint) => { throw paramValueError(file, method, key, message, hint); } };
}

/**
 * The eval file's params checked against `schema`: the values with their defaults, or a ParamError for the first
 * problem (an unknown key before a bad value, as a typo is the likelier cause). No params is an empty mapping.
 */
export function readParams<Schema extends ZodMiniType>(schema: Schema, raw: unknown, file: string, method: string): output<Schema> {
  const result = safeParse(schema, raw ?? {});
  if (result.success) return result.data;
  throw paramErrorOf(chosen(firstOf(result.error.issues as unknown as Issue[]), []), file, method);
}

/** An unknown key before a bad value: a typo is the likelier cause of both. */
const firstOf = (issues: Issue[]): Issue => issues.find((issue) => issue.code === 'unrecognized_keys') ?? issues[0]!;

interface Issue {
  code: string;
  path: PathSegment[];
  message: string;
  keys?: string[];
  errors?: Issue[][];
}

/** A union's own issue, or the issue of the one option whose shape the value has (a list with a bad item). */
function chosen(issue: Issue, prefix: PathSegment[]): Issue {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || !issue.errors) return { ...issue, path };
  // An option fits when the value has its shape: not of another type, nor another word than the option's own.
  const fitting = issue.errors.filter((option) => !option.some((inner) => (inner.code === 'invalid_type' || inner.code === 'invalid_value') && inner.path.length === 0));
  const [only] = fitting;
  return fitting.length === 1 && only && only.length > 0 ? chosen(firstOf(only), path) : { ...issue, path };
}

function paramErrorOf(issue: Issue, file: string, method: string): ParamError {
  const problem = problemOf(issue.message);
  const key = displayPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return unknownParamError(file, method, [...issue.path, issue.keys?.[0] ?? ''], problem.known ?? [], problem.problem ?? 'unknown parameter', problem.hint.replaceAll('{key}', key));
  }
  return paramValueError(file, method, key === '' ? '(root)' : key, problem.message, problem.hint.replaceAll('{key}', key));
}

function problemOf(message: string): Problem {
  try {
    const problem = JSON.parse(message) as Problem;
    if (typeof problem.message === 'string' && typeof problem.hint === 'string') return problem;
  } catch {
    // A kind declared without words of its own: zod's message, with the general way out.
  }
  return { message, hint: 'see the method\'s params in README, "Methods"' };
}
