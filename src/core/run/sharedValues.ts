// Format 3 of the run log: what every case line of a run repeats is written once, as a shared line, and referred to
// by a short id. Two kinds: an object's key list (a "shape": the object is written as its values, in key order) and
// a string seen before (a question asked at several noise rates, a dataset path, a text id). Key names were a third
// of an RGB case line. Packing is lossless JSON to JSON (key order kept), so the case and result read back exactly;
// it knows nothing of cases, texts or documents.
//
// A packed object is `{"@<id>": [values]}`, a shared string `{"@<id>": 1}`: a one-member object whose key is `@`
// and digits. Any other object is left as it is (packing it would not save bytes), except one that itself looks
// like a reference, which is always packed, so a reference is never ambiguous.

/** A shared line: defined once, before the first line that refers to it; ids are unique within a log. */
export type SharedLine = { type: 'shared'; id: number; keys: string[] } | { type: 'shared'; id: number; text: string };

const REF_KEY = /^@\d+$/;
/** `{"@12":[` and `]}`: an object is packed when its keys (quoted, with colon and comma) cost more than this. */
const PACK_OVERHEAD = 9;
/** A string is shared from this length: a reference costs ~10 bytes. */
const SHARE_MIN = 12;
/** ... and once it was in this many earlier lines (see `seen`). */
const SHARE_AFTER = 1;
/** A string's line and count of lines seen in, as one number: `line * SEEN_LINES + lines` (lines ≤ SHARE_AFTER). */
const SEEN_LINES = 8;
const seenEntry = (line: number, lines: number): number => line * SEEN_LINES + lines;
/** Bounds of the packer's memory; what it forgets is written inline or defined again, never misread. */
const MAX_SHARED = 100_000;
const MAX_SEEN = 50_000;

/**
 * The shapes defined, as a tree of key lists: an object's keys are looked up one by one as they are read, so finding
 * the shape of every object of every line builds no string (it was a JSON text of the keys per object).
 */
interface ShapeNode {
  /** The shape's id, when the key list that ends here is defined; with its reference key `@<id>`, made once. */
  id?: number;
  refKey?: string;
  next?: Map<string, ShapeNode>;
}

/** Packs case lines for one log, remembering what it has defined. */
export class SharedPacker {
  private shapes: ShapeNode = {};
  /** Nodes of `shapes`: what bounds its memory (a dataset's own keys make key lists of their own). */
  private shapeNodes = 0;
  private readonly strings = new Map<string, number>();
  /**
   * Strings seen, with the last line they were in and in how many lines (one number, `seenEntry`: no object per
   * string): shared once seen in SHARE_AFTER earlier lines. A string that never comes back costs nothing, and one
   * repeated within its own line only is not worth a shared line. (Waiting for a second earlier line was measured:
   * fewer wasted definitions, more bytes overall.)
   */
  private seen = new Map<string, number>();
  /**
   * The generation before `seen`, dropped whole when `seen` fills: what has not come back for longest is forgotten
   * without deleting the oldest entry of one map each time (V8 walks a map's deleted slots from its start to find it,
   * which made that one line the run log writer's largest cost at 100,000 cases).
   */
  private older = new Map<string, number>();
  private lines = 0;
  private nextId = 0;

  /** Rebuilds what a log already defines (a resumed log), so ids stay unique and nothing is defined twice. */
  learn(line: SharedLine): void {
    if ('keys' in line) this.defineShape(line.keys, line.id);
    else this.strings.set(line.text, line.id);
    this.nextId = Math.max(this.nextId, line.id + 1);
  }

  /**
   * The members of one line packed (the line's own keys stay as they are, so its type is read as always), and the
   * shared lines to write before it (each defined here once).
   */
  pack<K extends string>(members: Record<K, unknown>): { packed: Record<K, unknown>; defined: SharedLine[] } {
    const defined: SharedLine[] = [];
    this.lines++;
    const packed = {} as Record<K, unknown>;
    for (const key of Object.keys(members) as K[]) packed[key] = this.packValue(members[key], defined);
    if (this.shapeNodes + this.strings.size > MAX_SHARED) {
      // Forget all at once (ids are never reused, so older lines still read); a long run redefines what it uses.
      this.shapes = {};
      this.shapeNodes = 0;
      this.strings.clear();
    }
    return { packed, defined };
  }

  /** Definitions whose lines could not be written (a failed write): defined again when next needed. */
  forget(defined: readonly SharedLine[]): void {
    for (const line of defined) {
      if ('keys' in line) {
        const node = this.shapeOf(line.keys);
        if (node.id === line.id) node.id = node.refKey = undefined;
      } else this.strings.delete(line.text);
    }
  }

  private packValue(value: unknown, defined: SharedLine[]): unknown {
    if (typeof value === 'string') return this.packString(value, defined);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      const out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) {
        const item = value[i] as unknown;
        out[i] = item === undefined || typeof item === 'function' ? null : this.packValue(item, defined);
      }
      return out;
    }
    // What JSON.stringify would write (a Date's string).
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return this.packValue((value as { toJSON(): unknown }).toJSON(), defined);
    const object = value as Record<string, unknown>;
    const keys: string[] = [];
    const values: unknown[] = [];
    let keyBytes = 0;
    let node = this.shapes;
    for (const key of Object.keys(object)) {
      const member = object[key];
      if (member === undefined || typeof member === 'function') continue;
      keys.push(key);
      values.push(this.packValue(member, defined));
      keyBytes += key.length + 4;
      node = this.child(node, key);
    }
    if (keyBytes <= PACK_OVERHEAD && !(keys.length === 1 && REF_KEY.test(keys[0]!))) {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) setMember(out, keys[i]!, values[i]);
      return out;
    }
    if (node.id === undefined) {
      const id = this.nextId++;
      this.defineShape(keys, id);
      defined.push({ type: 'shared', id, keys });
    }
    return { [node.refKey!]: values };
  }

  private child(node: ShapeNode, key: string): ShapeNode {
    node.next ??= new Map();
    let child = node.next.get(key);
    if (child === undefined) {
      child = {};
      node.next.set(key, child);
      this.shapeNodes++;
    }
    return child;
  }

  private shapeOf(keys: readonly string[]): ShapeNode {
    let node = this.shapes;
    for (const key of keys) node = this.child(node, key);
    return node;
  }

  private defineShape(keys: readonly string[], id: number): void {
    const node = this.shapeOf(keys);
    node.id = id;
    node.refKey = `@${id}`;
  }

  private packString(text: string, defined: SharedLine[]): unknown {
    if (text.length < SHARE_MIN) return text;
    let id = this.strings.get(text);
    if (id === undefined) {
      const current = this.seen.get(text);
      // Seen again in the older generation: it moves to the current one, so it is kept as long as it comes back.
      const older = current === undefined ? this.older.get(text) : undefined;
      if (older !== undefined) this.older.delete(text);
      const entry = current ?? older;
      let line = entry === undefined ? 0 : Math.floor(entry / SEEN_LINES);
      let lines = entry === undefined ? 0 : entry % SEEN_LINES;
      if (line !== this.lines) {
        line = this.lines;
        lines++;
      }
      if (lines <= SHARE_AFTER) {
        const next = seenEntry(line, lines);
        if (next === current) return text;
        this.seen.set(text, next);
        if (this.seen.size >= MAX_SEEN / 2) {
          this.older = this.seen;
          this.seen = new Map();
        }
        return text;
      }
      // Shared from now on: kept in neither generation (it was taken out of the older one above).
      if (current !== undefined) this.seen.delete(text);
      id = this.nextId++;
      this.strings.set(text, id);
      defined.push({ type: 'shared', id, text });
    }
    return { [`@${id}`]: 1 };
  }
}

/** Thrown when a line refers to a shared id the log does not define (a log cut or edited by hand). */
export class MissingSharedError extends Error {}

/**
 * What a log defines, for its readers: the first definition of an id is the one read. One writer never defines an
 * id twice; two processes appending to one log at once can (each numbers its own), and then a later line that uses
 * the id cannot say which value it meant: from the second definition on, the id is refused (MissingSharedError),
 * while the lines before it read as written.
 */
export class SharedTable {
  private readonly byId = new Map<number, string[] | string>();
  /** Ids defined again with a different value, and the line number of that definition (0 when not given). */
  private readonly redefinedAt = new Map<number, number>();

  /**
   * Notes a shared line read at line `at` (1-based; leave it out when lines are noted and unpacked in file order).
   * False when it is not a shared line; 'redefined' when its id was defined before with another value.
   */
  note(line: Partial<SharedLine>, at = 0): boolean | 'redefined' {
    if (typeof line.id !== 'number') return false;
    const definition = 'keys' in line ? line.keys : 'text' in line ? line.text : undefined;
    if (!(typeof definition === 'string' || (Array.isArray(definition) && definition.every((key) => typeof key === 'string')))) return false;
    const known = this.byId.get(line.id);
    if (known === undefined) {
      this.byId.set(line.id, definition);
      return true;
    }
    if (JSON.stringify(known) === JSON.stringify(definition)) return true;
    if (!this.redefinedAt.has(line.id)) this.redefinedAt.set(line.id, at);
    return 'redefined';
  }

  /**
   * The value as it was before packing, for a line at line `at` (see note). Works in place: `value` is a line just
   * parsed, owned by the caller (a copy of every object of every case line would double what a reader of a large log
   * allocates).
   */
  unpack(value: unknown, at?: number): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.unpack(value[i], at);
      return value;
    }
    const object = value as Record<string, unknown>;
    let only: string | undefined;
    let count = 0;
    for (const key in object) {
      only = key;
      if (++count > 1) break;
    }
    if (count === 1 && REF_KEY.test(only!)) return this.resolve(Number(only!.slice(1)), object[only!], at);
    for (const key in object) setMember(object, key, this.unpack(object[key], at));
    return object;
  }

  private resolve(id: number, member: unknown, at: number | undefined): unknown {
    const definition = this.byId.get(id);
    if (definition === undefined) throw new MissingSharedError(`shared value @${id} is not in the run log`);
    const redefined = this.redefinedAt.get(id);
    if (redefined !== undefined && (at === undefined || at > redefined)) throw new MissingSharedError(`shared value @${id} is defined twice with different values (two processes wrote this log at once)`);
    if (typeof definition === 'string') return definition;
    if (!Array.isArray(member) || member.length !== definition.length) throw new MissingSharedError(`shared shape @${id} does not fit its values`);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < definition.length; i++) setMember(out, definition[i]!, this.unpack(member[i], at));
    return out;
  }
}

/** `object[key] = value`, also for a dataset's own "__proto__" key (an assignment would set the prototype). */
export function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
