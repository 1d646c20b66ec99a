// The one rule for a field a dataset may name in several ways (RAGAS's `user_input` or its older `question`): the
// first name present wins, and two names present with different values are refused at the row's line, by every method.
import { InputError } from '../errors.js';
import type { DatasetRow } from '../model.js';

/**
 * The value under the first of `names` present in the row (null counts as absent), or undefined. Throws InputError at
 * the row's file:line when another of the names holds a different value: a row is never silently read as one of them.
 */
export function aliasedField(row: DatasetRow, names: readonly string[]): { name: string; value: unknown } | undefined {
  const present = names.filter((name) => row.data[name] !== undefined && row.data[name] !== null);
  const [first, ...others] = present;
  if (first === undefined) return undefined;
  for (const other of others) {
    if (JSON.stringify(row.data[other]) !== JSON.stringify(row.data[first])) {
      throw new InputError({ file: row.ref.file, line: row.ref.line }, `row ${row.ref.index + 1}: ${other}: differs from ${first}`, `keep one of ${names.join(' / ')}`);
    }
  }
  return { name: first, value: row.data[first] };
}

/**
 * What a field holds. text: a non-empty string; string: any string; strings: a list of strings; passages: a non-empty
 * list of non-empty strings; alternatives: a string or a non-empty list of non-empty strings (any one suffices);
 * answerParts: RGB's answer form, a string or a non-empty list of parts, each a string or a list of alternatives;
 * passageGroups: a non-empty list of non-empty lists of strings (one per answer part); number: a finite number.
 */
export type FieldKind = 'text' | 'string' | 'strings' | 'passages' | 'alternatives' | 'answerParts' | 'passageGroups' | 'number';

interface KindValue {
  text: string;
  string: string;
  strings: string[];
  passages: string[];
  alternatives: string[];
  answerParts: string[][];
  passageGroups: string[][];
  number: number;
}

/** One field of a row: the names it may go by (the first present wins, disagreeing names are refused), its kind. */
export interface FieldSpec<Kind extends FieldKind = FieldKind> {
  names: readonly [string, ...string[]];
  kind: Kind;
  /** Absent is refused ("missing", with `missing` as the hint) rather than read as undefined. */
  required?: boolean;
  /** How to add the field when it is missing; the format's hint otherwise. */
  missing?: string;
  /** How to fix a value of the wrong shape; the format's hint otherwise. */
  hint?: string;
}

export type FieldsSpec = Readonly<Record<string, FieldSpec>>;

/** The row's values: each field's kind, undefined where an optional field is absent. */
export type FieldsOf<Spec extends FieldsSpec> = {
  [Key in keyof Spec]: KindValue[Spec[Key]['kind']] | (Spec[Key]['required'] extends true ? never : undefined);
};

/** How a method's messages name a field of its rows (`RGB row field "query"`) and what its rows look like. */
export interface RowFormat {
  field(name: string, row: DatasetRow): string;
  hint: string;
}

/**
 * A row read by a declarative field spec, every problem an InputError at the row's file:line naming the field (and
 * the item, `passages[2]`): the one reader of the methods' rows. `within` reads a mapping inside the row (IF-RAG's
 * counterfactual: { answer, passages }), its fields named `<within>.<name>`.
 */
export function readFields<Spec extends FieldsSpec>(row: DatasetRow, spec: Spec, format: RowFormat, within?: string): FieldsOf<Spec> {
  const data = within === undefined ? row.data : (row.data[within] as Record<string, unknown>);
  const source: DatasetRow = within === undefined ? row : { ...row, data };
  const values: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(spec)) {
    const found = aliasedField(source, field.names);
    const name = (within === undefined ? '' : `${within}.`) + (found?.name ?? field.names[0]);
    const fail = (at: string, message: string, hint = field.hint ?? format.hint): never => {
      throw new InputError({ file: row.ref.file, line: row.ref.line }, `${format.field(at, row)}: ${message}`, hint);
    };
    if (!found) {
      if (field.required) fail(name, missing(field.names, source), field.missing ?? format.hint);
      values[key] = undefined;
      continue;
    }
    values[key] = readKind(found.value, field.kind, name, fail);
  }
  return values as FieldsOf<Spec>;
}

type Fail = (at: string, message: string) => never;

/** "missing", and for a field of several names the names and the row's columns, so a misnamed column shows. */
function missing(names: readonly string[], row: DatasetRow): string {
  if (names.length === 1) return 'missing';
  return `missing: expected one of ${names.join(', ')} (columns present: ${Object.keys(row.data).join(', ') || 'none'})`;
}

const kindOf = (value: unknown): string => (Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value === 'object' ? 'a mapping' : typeof value);

function text(value: unknown, at: string, fail: Fail): string {
  if (typeof value !== 'string' || value.trim() === '') fail(at, typeof value === 'string' ? 'is empty' : `expected a non-empty string, got ${kindOf(value)}`);
  return value as string;
}

function alternatives(value: unknown, at: string, fail: Fail): string[] {
  if (typeof value === 'string') return [text(value, at, fail)];
  if (!Array.isArray(value) || value.length === 0) fail(at, 'expected a string or a non-empty list of alternative strings');
  return (value as unknown[]).map((item, i) => text(item, `${at}[${i}]`, fail));
}

function readKind(value: unknown, kind: FieldKind, at: string, fail: Fail): unknown {
  switch (kind) {
    case 'text':
      return text(value, at, fail);
    case 'string':
      if (typeof value !== 'string') fail(at, `expected a string, got ${kindOf(value)}`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) fail(at, `expected a number, got ${JSON.stringify(value)}`);
      return value;
    case 'strings':
      if (!Array.isArray(value)) fail(at, `expected a list of strings, got ${kindOf(value)}`);
      return (value as unknown[]).map((item, i) => (typeof item === 'string' ? item : fail(`${at}[${i}]`, `expected a string, got ${kindOf(item)}`)));
    case 'passages':
      if (!Array.isArray(value) || value.length === 0) fail(at, `expected a non-empty list of passages, got ${Array.isArray(value) ? 'an empty list' : kindOf(value)}`);
      return (value as unknown[]).map((item, i) => text(item, `${at}[${i}]`, fail));
    case 'alternatives':
      return alternatives(value, at, fail);
    case 'answerParts':
      if (typeof value === 'string') return [[text(value, at, fail)]];
      if (!Array.isArray(value) || value.length === 0) fail(at, 'expected a string or a non-empty list of answer parts');
      return (value as unknown[]).map((part, i) => alternatives(part, `${at}[${i}]`, fail));
    case 'passageGroups':
      if (!Array.isArray(value) || value.length === 0) fail(at, 'expected a non-empty list of passage lists');
      return (value as unknown[]).map((group, i) => {
        if (!Array.isArray(group)) fail(`${at}[${i}]`, `expected a list of passages, got ${kindOf(group)}`);
        // The reference takes group[0] unconditionally; an empty group would crash it.
        if ((group as unknown[]).length === 0) fail(`${at}[${i}]`, 'empty passage list');
        return (group as unknown[]).map((item, j) => (typeof item === 'string' ? item : fail(`${at}[${i}][${j}]`, `expected a string, got ${kindOf(item)}`)));
      });
  }
}
