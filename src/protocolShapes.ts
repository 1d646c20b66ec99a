// Typed JSON shapes for the params of webview → host messages: declared once with the descriptor, the params' type is
// inferred from them and the host checks every message against them on arrival, naming the field that is wrong.
// Small and dependency-free because src/protocol.ts is bundled into the webview too (no eval, as its CSP requires).

/** A value that does not fit; `field` is its path ("change.keys[0]") and the message names it as the user reads it. */
export class ShapeError extends Error {
  constructor(readonly field: string, expected: string) {
    super(`"${field}" must be ${expected}`);
    this.name = 'ShapeError';
  }
}

/** Checks a JSON value and returns it as T (only the declared members of objects), or throws a ShapeError. */
export interface Shape<T> {
  check(value: unknown, at: string): T;
  /** May be absent from the object holding it (set by `optional`). */
  readonly optional?: boolean;
  /** Never set: makes Shape<T> invariant, so a descriptor's declared params type must be exactly what its shape checks. */
  readonly type?: (value: T) => T;
}

export type Infer<S> = S extends Shape<infer T> ? T : never;

function shape<T>(check: (value: unknown, at: string) => T): Shape<T> {
  return { check };
}

/** A non-empty string: ids, keys and paths are never empty, so an empty one is a bad request. */
export const text: Shape<string> = shape((value, at) => {
  if (typeof value !== 'string' || value === '') throw new ShapeError(at, 'a non-empty string');
  return value;
});

/** A finite number. */
export const num: Shape<number> = shape((value, at) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ShapeError(at, 'a number');
  return value;
});

/** One of a few literal values (null included). */
export function oneOf<const L extends readonly (string | number | boolean | null)[]>(...allowed: L): Shape<L[number]> {
  return shape((value, at) => {
    if (!allowed.includes(value as L[number])) throw new ShapeError(at, `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    return value as L[number];
  });
}

/** A list of items; `min` items at least. */
export function list<T>(item: Shape<T>, { min = 0 }: { min?: number } = {}): Shape<T[]> {
  return shape((value, at) => {
    if (!Array.isArray(value)) throw new ShapeError(at, 'a list');
    if (value.length < min) throw new ShapeError(at, `a list of at least ${min} item${min === 1 ? '' : 's'}`);
    return value.map((one, i) => item.check(one, `${at}[${i}]`));
  });
}

/** A member of an object that may be absent; object() types it as `name?: T`. */
export interface OptionalShape<T> extends Shape<T | undefined> {
  readonly optional: true;
}

/** A member that may be absent (or undefined); present, it must fit `inner`. */
export function optional<T>(inner: Shape<T>): OptionalShape<T> {
  return { optional: true, check: (value, at) => (value === undefined ? undefined : inner.check(value, at)) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any member shape; its own type comes back through Infer
type Members = Record<string, Shape<any>>;
type OptionalKeys<M extends Members> = { [K in keyof M]: M[K] extends { optional: true } ? K : never }[keyof M];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOf<M extends Members> = Simplify<
  { [K in Exclude<keyof M, OptionalKeys<M>>]: Infer<M[K]> } & { [K in OptionalKeys<M>]?: Exclude<Infer<M[K]>, undefined> }
>;

/** An object with these members; members it does not declare are dropped, so a handler sees only what was checked. */
export function object<M extends Members>(members: M): Shape<ObjectOf<M>> {
  return shape((value, at) => {
    // Top-level params are named by their field alone ("runId"), nested ones by their path ("change.keys").
    const path = (name: string) => (at === '' ? name : `${at}.${name}`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      if (at !== '') throw new ShapeError(at, 'an object');
      value = {}; // no params at all: each required field is then named as missing
    }
    const given = value as Record<string, unknown>;
    const checked: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(members)) {
      const one = member.check(given[name], path(name));
      if (one !== undefined) checked[name] = one;
    }
    return checked as ObjectOf<M>;
  });
}

/** A rule across fields that a shape cannot say ("a note when there is no label"); `problem` names the field. */
export function where<T>(inner: Shape<T>, problem: (value: T) => { field: string; expected: string } | undefined): Shape<T> {
  return shape((value, at) => {
    const checked = inner.check(value, at);
    const wrong = problem(checked);
    if (wrong) throw new ShapeError(at === '' ? wrong.field : `${at}.${wrong.field}`, wrong.expected);
    return checked;
  });
}

/** No params. */
export const none = object({});
