// Reads an LLM-Eval judge reply as the reference does. MiuLab/LLM-Eval parses with langchain's PydanticOutputParser
// over a pydantic v1 model built per call: a greedy search for the first "{" to the last "}", Python's json.loads,
// then parse_obj — extra keys ignored, strings and booleans coerced by float() / int(), and int() truncating a
// non-integer on the 0–100 scale. Every coercion it made is recorded, so a reader sees what was tolerated.
import type { Dimension } from './params.js';
import type { ScaleConfig } from './schema.js';

export type ReferenceParse =
  | { ok: true; scores: Record<string, number>; tolerated: string[] }
  | { ok: false; error: string };

/** `re.search(r"\{.*\}", text.strip(), re.DOTALL)`: greedy, so from the first "{" to the last "}". */
export function greedyJsonCandidate(raw: string): { json: string; surrounded: boolean } | undefined {
  const text = raw.trim();
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end < start) return undefined;
  return { json: text.slice(start, end + 1), surrounded: start > 0 || end < text.length - 1 };
}

const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };
const MARK = '\u0000pyjson:';

/**
 * Python's json.loads: JSON plus the bare NaN, Infinity and -Infinity it accepts by default. Those tokens (outside
 * strings) become marked strings for JSON.parse and are turned back into numbers by the reviver.
 */
export function pythonJsonLoads(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const token = ['-Infinity', 'Infinity', 'NaN'].find((t) => text.startsWith(t, i));
    if (token) {
      out += JSON.stringify(MARK + token);
      i += token.length - 1;
      continue;
    }
    out += c;
  }
  return JSON.parse(out, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(MARK) ? NON_FINITE[value.slice(MARK.length)] : value));
}

const PY_WS = /^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/g;
const PY_INT = /^[+-]?\d(?:_?\d)*$/;
const PY_FLOAT = /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.(?:[eE][+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)$/i;

/** Python's float(str): surrounding whitespace, digit underscores, "inf", "nan"; anything else is a ValueError. */
export function pythonFloat(text: string): number | undefined {
  const s = text.replace(PY_WS, '');
  if (!PY_FLOAT.test(s)) return undefined;
  const lower = s.toLowerCase().replace(/^\+/, '');
  if (/^-?inf/.test(lower)) return lower.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (/^-?nan$/.test(lower)) return Number.NaN;
  return Number(s.replaceAll('_', ''));
}

/** Python's int(str): an integer literal only ("87.0" is a ValueError), whitespace and digit underscores allowed. */
export function pythonIntFromString(text: string): number | undefined {
  const s = text.replace(PY_WS, '');
  return PY_INT.test(s) ? Number(s.replaceAll('_', '')) : undefined;
}

type Coerced = { value: number; note?: string } | { error: string };

/** pydantic v1 float_validator: a float stays, anything else goes through float(). */
function toFloat(name: string, value: unknown): Coerced {
  if (typeof value === 'number') return { value };
  if (typeof value === 'boolean') return { value: value ? 1 : 0, note: `${name}: ${value} read as ${value ? 1 : 0}.0` };
  if (typeof value === 'string') {
    const parsed = pythonFloat(value);
    return parsed === undefined ? { error: `${name}: ${JSON.stringify(value)} is not a number` } : { value: parsed, note: `${name}: the string ${JSON.stringify(value)} read as ${parsed}` };
  }
  return { error: `${name}: ${value === null ? 'null' : JSON.stringify(value)} is not a number` };
}

/** pydantic v1 int_validator: an int stays, anything else goes through int() — which truncates a float toward zero. */
function toInt(name: string, value: unknown): Coerced {
  if (typeof value === 'boolean') return { value: value ? 1 : 0, note: `${name}: ${value} read as ${value ? 1 : 0}` };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { error: `${name}: ${value} cannot be an integer` };
    if (Number.isInteger(value)) return { value };
    const truncated = Math.trunc(value);
    return { value: truncated, note: `${name}: ${value} truncated to ${truncated} (the reference's int())` };
  }
  if (typeof value === 'string') {
    const parsed = pythonIntFromString(value);
    return parsed === undefined ? { error: `${name}: ${JSON.stringify(value)} is not an integer` } : { value: parsed, note: `${name}: the string ${JSON.stringify(value)} read as ${parsed}` };
  }
  return { error: `${name}: ${value === null ? 'null' : JSON.stringify(value)} is not an integer` };
}

/** The reference's parse of one reply; `ok: false` is what the reference logs as "Failed to run chain" (no score). */
export function parseReferenceReply(raw: string, dimensions: readonly Dimension[], scale: ScaleConfig): ReferenceParse {
  const candidate = greedyJsonCandidate(raw);
  if (!candidate) return { ok: false, error: 'no JSON object in the reply' };
  let object: unknown;
  try {
    object = pythonJsonLoads(candidate.json);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return { ok: false, error: 'the JSON is not an object' };
  const record = object as Record<string, unknown>;
  const tolerated: string[] = [];
  if (candidate.surrounded) tolerated.push('text around the JSON object ignored');
  const names = new Set(dimensions.map((d) => d.name));
  const extra = Object.keys(record).filter((k) => !names.has(k));
  if (extra.length > 0) tolerated.push(`extra keys ignored: ${extra.join(', ')}`);
  const scores: Record<string, number> = {};
  const errors: string[] = [];
  for (const { name } of dimensions) {
    if (!(name in record)) {
      errors.push(`${name}: field required`);
      continue;
    }
    const coerced = scale.type === 'integer' ? toInt(name, record[name]) : toFloat(name, record[name]);
    if ('error' in coerced) errors.push(coerced.error);
    else {
      scores[name] = coerced.value;
      if (coerced.note) tolerated.push(coerced.note);
    }
  }
  // parse_obj raises on any invalid field, so the reference keeps no score of a reply with one bad field.
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  return { ok: true, scores, tolerated };
}
