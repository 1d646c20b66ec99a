// The shape of every line type of a run log, checked before any reader uses a line: a log edited by hand, cut, or
// written by two processes at once can hold valid JSON of the wrong shape, and a reader that trusted it would crash
// (a string where a list is expected, a timestamp that is not one) and lose every other case. One check per line
// type; each says what is wrong in a few words ("result.scores is not a list"), so the reader can skip the line
// and report it at its number. Only what the readers and report writers rely on is checked; a method's own details
// (expected answers, score details) stay as they are.

import { RUN_STATUSES } from '../model.js';

/** The JSON Schema a check stands for: the run log's published schema is built from the checks (logLineSchema.ts). */
export type JsonSchema = Record<string, unknown>;

/**
 * What is wrong with a value at `at` (a dotted path), or undefined when it fits; `schema` says the same as JSON Schema.
 * `at` undefined: only whether it fits matters (what a failure says is not read), so no path is built on the way.
 */
type Check = ((value: unknown, at: string | undefined) => string | undefined) & { schema: JsonSchema };

function check(test: (value: unknown, at: string | undefined) => string | undefined, schema: JsonSchema): Check {
  return Object.assign(test, { schema });
}

const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A run id is a file name, never a path: letters, digits, '.', '_' and '-', not starting with '.' and without '..'.
 * Every path built from a run id read from a file (the log, its reports, its explanation) relies on this.
 */
export function isRunId(value: unknown): value is string {
  return typeof value === 'string' && RUN_ID_PATTERN.test(value) && !value.includes('..');
}

const string = check((value, at) => (typeof value === 'string' ? undefined : `${at} is not a string`), { type: 'string' });
const boolean = check((value, at) => (typeof value === 'boolean' ? undefined : `${at} is not true or false`), { type: 'boolean' });
const number = check((value, at) => (typeof value === 'number' && Number.isFinite(value) ? undefined : `${at} is not a number`), { type: 'number' });
/** An ISO time as the writer stores it: shown as a date, so `new Date(value)` must be a valid one. */
const date = check((value, at) => (typeof value === 'string' && Number.isFinite(Date.parse(value)) ? undefined : `${at} is not a date`), { type: 'string', format: 'date-time' });

function nullable(inner: Check): Check {
  return check((value, at) => (value === null ? undefined : inner(value, at)), { anyOf: [inner.schema, { type: 'null' }] });
}

function oneOf(...allowed: readonly (string | number)[]): Check {
  return check((value, at) => (allowed.includes(value as string | number) ? undefined : `${at} is not one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`), { enum: [...allowed] });
}

function either(...checks: Check[]): Check {
  return check((value, at) => {
    let first: string | undefined;
    for (const one of checks) {
      const problem = one(value, at);
      if (problem === undefined) return undefined;
      first ??= problem;
    }
    return first;
  }, { anyOf: checks.map((one) => one.schema) });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const record = check((value, at) => (isObject(value) ? undefined : `${at} is not an object`), { type: 'object' });

function listOf(item: Check): Check {
  return check((value, at) => {
    if (!Array.isArray(value)) return `${at} is not a list`;
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i], at === undefined ? undefined : `${at}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }, { type: 'array', items: item.schema });
}

/** An object with these members (a `?` after the name: may be absent); other members are allowed. */
function object(members: Record<string, Check>): Check {
  const entries = Object.entries(members).map(([name, member]) => ({ name: name.replace(/\?$/, ''), optional: name.endsWith('?'), check: member }));
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(entries.map(({ name, check: member }) => [name, member.schema])),
    required: entries.filter((entry) => !entry.optional).map((entry) => entry.name),
  };
  return check((value, at) => {
    if (!isObject(value)) return `${at || 'the line'} is not an object`;
    for (const { name, optional, check: member } of entries) {
      const found = value[name];
      const path = at === undefined ? undefined : at ? `${at}.${name}` : name;
      if (found === undefined) {
        if (optional) continue;
        return `${path} is missing`;
      }
      const problem = member(found, path);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }, schema);
}

// Stored texts (caseText.ts): inline, a text reference {$t, s?, e?}, a document reference {$d, s?, e?}, or pieces {$p}.
const textRef = object({ $t: string, 's?': number, 'e?': number });
const docRef = object({ $d: number, 's?': number, 'e?': number });
const piece = either(string, textRef, docRef);
const storedText = either(string, textRef, docRef, object({ $p: listOf(piece) }));

const rowRef = object({ file: string, line: number, index: number });
/** A case whose texts are `text`: as stored (references allowed), or as sent (every text whole). */
function caseOf(text: Check): Check {
  return object({
    id: string,
    suiteId: string,
    method: string,
    'testbed?': string,
    row: rowRef,
    question: string,
    documents: listOf(object({ id: string, role: string, text, spans: listOf(record), 'source?': string })),
    'params?': record,
    'seed?': number,
    'variables?': record,
    messages: listOf(object({ role: string, content: text })),
    'template?': string,
    'givenResponse?': string,
    'humanLabel?': boolean,
    'retrievalError?': object({ kind: string, message: string }),
  });
}
const storedCase = caseOf(storedText);

const usage = record;
const caseResult = object({
  caseId: string,
  modelKey: string,
  status: oneOf('success', 'error'),
  'response?': object({ text: string, 'given?': boolean, usage, latencyMs: number, cached: boolean, 'costUsd?': number, 'finishReason?': string }),
  scores: listOf(object({ metric: string, value: nullable(number), 'pass?': boolean, 'label?': string, 'explanation?': string, 'evidence?': listOf(record), 'judgeError?': string })),
  'pass?': boolean,
  'error?': object({ stage: oneOf('render', 'retrieval', 'model', 'score'), kind: string, message: string, 'status?': number }),
  attempts: number,
  'judgeUsage?': record,
  // Any string: the engine's own results are ISO times, and a finishedAt stored as a delta is checked when unpacked.
  startedAt: string,
  finishedAt: string,
});

const totals = object({
  cases: number, success: number, error: number, passed: number, failed: number, modelCalls: number, cacheHits: number,
  judgeCalls: number, inputTokens: number, outputTokens: number, 'costUsd?': number,
});

const suiteReport = object({ suiteId: string, method: string, tables: listOf(record), metrics: listOf(record), notes: listOf(string), 'scoring?': string, 'charts?': listOf(record) });
const threshold = object({ suiteId: string, modelKey: string, metric: string, value: nullable(number), 'n?': number, 'undetermined?': number, 'min?': number, 'max?': number, passed: boolean });
const inputProblem = object({ file: string, 'line?': number, 'column?': number, message: string, 'hint?': string, 'suiteId?': string });
// Every status a run can end with (model.ts): a list of its own here would refuse the next one added.
const runStatus = oneOf(...RUN_STATUSES);

const checks = {
  // The format is checked apart (a newer format gets its own message); the run id must be a file name (isRunId).
  header: object({
    runId: check((value, at) => (isRunId(value) ? undefined : `${at} ${JSON.stringify(value)} is not a run id (letters, digits, '.', '_' and '-' only)`), { type: 'string', pattern: RUN_ID_PATTERN.source }),
    createdAt: date,
    'tool?': object({ name: string, version: string }),
    spec: object({ file: string, 'hash?': string, name: string }),
    'inputs?': listOf(object({ kind: string, file: string, hash: string })),
    models: listOf(string),
    'judge?': string,
    'embeddings?': string,
    'seed?': number,
  }),
  /** A case line as stored, after unpacking (packedCase.ts): its texts may still be references. */
  case: object({ case: storedCase, result: caseResult }),
  text: object({ id: string, text: string }),
  shared: either(object({ id: number, keys: listOf(string) }), object({ id: number, text: string })),
  resume: object({ at: string }),
  batch: object({ modelKey: string, batchId: string, 'inputFileId?': string, submittedAt: string, requests: listOf(string) }),
  summary: object({ status: runStatus, finishedAt: string, totals, reports: listOf(suiteReport), thresholds: listOf(threshold), problems: listOf(inputProblem) }),
} satisfies Record<string, Check>;

export type LogLineType = keyof typeof checks;

export function isLogLineType(type: unknown): type is LogLineType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(checks, type);
}

/**
 * Each line type's shape as JSON Schema (the members its readers rely on; others are allowed), and `case` as
 * `rag-inspector log` prints it: the case as sent, every text whole. Built from the very checks above.
 */
export function lineSchemas(): Record<LogLineType, JsonSchema> & { sentCase: JsonSchema } {
  return { ...(Object.fromEntries(Object.entries(checks).map(([type, one]) => [type, one.schema])) as Record<LogLineType, JsonSchema>), sentCase: object({ case: caseOf(string), result: caseResult }).schema };
}

/** What is wrong with a line of this type ("result.scores is not a list"), or undefined when it has the shape readers rely on. */
export function lineShapeProblem(type: LogLineType, value: unknown): string | undefined {
  // Checked without building paths first (most lines fit), and again to say what is wrong with one that does not.
  return checks[type](value, undefined) === undefined ? undefined : checks[type](value, '');
}
