// Content-addressed on-disk cache of successful model responses, so an unchanged rerun makes no model calls.
import { hash, randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { scanLineBytes } from './jsonLines.js';
import { openRegularFile } from '../regularFile.js';
import type { ResponseRecord, Usage } from '../model.js';
import { ProviderError } from '../providers/contract.js';
import type { CompletionRequest } from '../providers/contract.js';
import { SingleFlight } from './singleFlight.js';

/** Part of every key, so a change to what a key covers or to the entry layout invalidates old entries. */
const CACHE_FORMAT = 2;

const KEY_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Query parameters that carry credentials in some endpoints (Azure `api-key`, Google `key`, SAS `sig`…).
 * Dropped with any user:password so two users of one endpoint share entries and no secret feeds the hash.
 */
const CREDENTIAL_PARAMS = new Set(['key', 'api-key', 'api_key', 'apikey', 'x-api-key', 'access_token', 'token', 'sig', 'signature']);

export interface CacheKeyInput {
  providerId: string;
  /** The provider's endpoint identity (a base URL or a name like "extractive"). */
  endpoint: string;
  request: CompletionRequest;
}

/**
 * JSON with object keys sorted at every level, so key order never changes a hash. Follows JSON.stringify
 * otherwise: undefined members are left out (an unset parameter hashes like an absent one), non-finite
 * numbers become null, toJSON is honoured.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalValue(value);
  return text ?? 'null';
}

function canonicalValue(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonicalValue((value as { toJSON(): unknown }).toJSON());
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError('a cache key cannot contain a bigint');
    case 'object':
      return Array.isArray(value) ? canonicalArray(value) : canonicalObject(value as Record<string, unknown>);
    default:
      return undefined; // undefined, functions and symbols, as JSON.stringify drops them
  }
}

function canonicalArray(items: unknown[]): string {
  return `[${items.map((item) => canonicalValue(item) ?? 'null').join(',')}]`;
}

function canonicalObject(object: Record<string, unknown>): string {
  const members: string[] = [];
  for (const name of Object.keys(object).sort()) {
    const text = canonicalValue(object[name]);
    if (text !== undefined) members.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** The endpoint with user:password and credential query parameters removed; a non-URL name is kept as it is. */
export function endpointIdentity(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return endpoint;
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) {
    if (CREDENTIAL_PARAMS.has(name.toLowerCase())) url.searchParams.delete(name);
  }
  return url.toString();
}

/** sha256 hex of everything that determines a response: provider, endpoint (no secrets), the full request. */
export function cacheKey(input: CacheKeyInput): string {
  const identity = { format: CACHE_FORMAT, providerId: input.providerId, endpoint: lastEndpointIdentity(input.endpoint), request: input.request };
  return hash('sha256', canonicalJson(identity), 'hex');
}

/** The last endpoint asked about and its identity: every call of a run asks for the same one, and parsing it is a URL parse. */
let lastEndpoint = { endpoint: '', identity: endpointIdentity('') };

function lastEndpointIdentity(endpoint: string): string {
  if (lastEndpoint.endpoint !== endpoint) lastEndpoint = { endpoint, identity: endpointIdentity(endpoint) };
  return lastEndpoint.identity;
}

interface CacheEntry {
  key: string;
  format: number;
  record: Omit<ResponseRecord, 'cached'>;
}

/** Where an entry's line is: its segment file and byte range. */
interface EntryLocation {
  file: string;
  offset: number;
  length: number;
}

/** Segments made by this process, for their names. */
let segmentsMade = 0;

/** Every line starts `{"key":"<64 hex>"`, so the index is built without parsing a single line. */
const LINE_PREFIX = Buffer.from('{"key":"');
const KEY_END = LINE_PREFIX.length + 64;

/**
 * Responses appended as JSON lines to segment files, `<dir>/segments/<ms since 1970>-<pid>-<n>-<random>.jsonl`,
 * one per cache object that writes (a run): no file is created, renamed or removed per entry, which is what made a
 * file per entry cost about a millisecond of CPU per first-time call. Only this object writes its segment, so two
 * processes sharing the folder (the extension and a CLI in CI) never interleave. An object reads the segments once, at
 * its first `get`, into an index of byte ranges; an entry another process appends later is a miss for it: a cache may
 * forget, it must never lie. Every hit is read back and checked (its key, format and shape); a line cut short by a crash has no newline and
 * is never indexed. Only successful responses can be stored: `set` takes a ResponseRecord and checks its shape at run
 * time too, so an error object cast to one is refused.
 */
export class ResponseCache {
  /**
   * Requests being answered now, by key: an identical request that arrives meanwhile (two cases whose prompts came
   * out byte-identical) joins that call instead of sending its own, and is answered as a cache hit. Shared by every
   * model client of the run, as the cache is.
   */
  readonly inFlight = new SingleFlight<{ record: ResponseRecord; attempts: number }>(
    (signal) => new ProviderError('cancelled', 'cancelled', { cause: signal.reason }),
  );
  private readonly segmentsDir: string;
  private segment: string;
  private segmentSize = 0;
  /** What this object wrote: found even when the index was read before the write. */
  private readonly written = new Map<string, EntryLocation>();
  private index: Promise<Map<string, EntryLocation>> | undefined;

  constructor(readonly dir: string) {
    this.segmentsDir = path.join(dir, 'segments');
    this.segment = newSegment(this.segmentsDir);
  }

  /** The stored response marked `cached: true`, or undefined. An entry that does not read back whole is a miss. */
  async get(key: string): Promise<ResponseRecord | undefined> {
    assertKey(key);
    const location = this.written.get(key) ?? (await this.readIndex()).get(key);
    if (!location) return undefined;
    const record = readEntry(location, key);
    if (!record) {
      this.written.delete(key);
      (await this.readIndex()).delete(key);
      return undefined;
    }
    return { ...record, cached: true };
  }

  /**
   * Stores a successful response: one line appended to this object's segment. Not fsynced: after a power loss the
   * line may be cut short or read back wrong, which `get` treats as a miss.
   */
  async set(key: string, record: ResponseRecord): Promise<void> {
    assertKey(key);
    assertSuccessRecord(record);
    const { cached: _cached, ...stored } = record;
    const entry: CacheEntry = { key, format: CACHE_FORMAT, record: stored };
    const line = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
    if (this.segmentSize === 0) mkdirSync(this.segmentsDir, { recursive: true });
    try {
      appendFileSync(this.segment, line);
    } catch (error) {
      // Part of the line may be in the file (a full disk), so this segment's offsets are no longer known: later
      // entries go to a new one.
      this.segment = newSegment(this.segmentsDir);
      this.segmentSize = 0;
      throw error;
    }
    this.written.set(key, { file: this.segment, offset: this.segmentSize, length: line.length - 1 });
    this.segmentSize += line.length;
  }

  private readIndex(): Promise<Map<string, EntryLocation>> {
    this.index ??= indexSegments(this.segmentsDir);
    return this.index;
  }
}

/** Named so that sorting by name is by age (the sequence orders two made in one millisecond): of two lines for one key, the newer is read. */
function newSegment(dir: string): string {
  const made = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${String(++segmentsMade).padStart(6, '0')}`;
  return path.join(dir, `${made}-${randomBytes(4).toString('hex')}.jsonl`);
}

function assertKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new TypeError(`not a cache key: ${JSON.stringify(key)}`);
}

/** Every complete line of every segment, by key (the newest line for a key wins); no line is parsed. */
async function indexSegments(dir: string): Promise<Map<string, EntryLocation>> {
  const index = new Map<string, EntryLocation>();
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
  } catch {
    return index; // no segments yet
  }
  for (const name of names) {
    const file = path.join(dir, name);
    await indexSegment(file, index).catch(() => undefined); // an unreadable segment only makes misses
  }
  return index;
}

async function indexSegment(file: string, index: Map<string, EntryLocation>): Promise<void> {
  const handle = await openRegularFile(file); // a named pipe here would block every run that uses the cache
  try {
    // A line cut short by a crash has no newline: the scan never yields it.
    for await (const line of scanLineBytes(handle, 0, (await handle.stat()).size)) {
      const key = lineKey(line.bytes);
      if (key) index.set(key, { file, offset: line.offset, length: line.length });
    }
  } finally {
    await handle.close();
  }
}

function lineKey(line: Buffer): string | undefined {
  if (line.length < KEY_END + 1 || line.compare(LINE_PREFIX, 0, LINE_PREFIX.length, 0, LINE_PREFIX.length) !== 0) return undefined;
  const key = line.toString('latin1', LINE_PREFIX.length, KEY_END);
  return KEY_PATTERN.test(key) && line[KEY_END] === 0x22 ? key : undefined;
}

/** The entry at `location`, if it reads back whole and is the one asked for. */
function readEntry(location: EntryLocation, key: string): Omit<ResponseRecord, 'cached'> | undefined {
  let text: string;
  try {
    const fd = openSync(location.file, 'r');
    try {
      const buffer = Buffer.alloc(location.length);
      const read = readSync(fd, buffer, 0, location.length, location.offset);
      text = buffer.toString('utf8', 0, read);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  return parseEntry(text, key);
}

function isUsage(value: unknown): value is Usage {
  const usage = value as Usage | null;
  return typeof usage === 'object' && usage !== null && Number.isFinite(usage.inputTokens) && Number.isFinite(usage.outputTokens);
}

function isRecordShape(value: unknown): value is Omit<ResponseRecord, 'cached'> {
  const record = value as ResponseRecord | null;
  return (
    typeof record === 'object' && record !== null && !(record instanceof Error) &&
    typeof record.text === 'string' && isUsage(record.usage) && Number.isFinite(record.latencyMs) &&
    (record.costUsd === undefined || Number.isFinite(record.costUsd)) &&
    (record.finishReason === undefined || typeof record.finishReason === 'string')
  );
}

function assertSuccessRecord(record: unknown): void {
  if (!isRecordShape(record)) throw new TypeError('only successful responses (text, usage, latencyMs) can be cached');
}

function parseEntry(text: string, key: string): Omit<ResponseRecord, 'cached'> | undefined {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(text) as CacheEntry;
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null || entry.key !== key || entry.format !== CACHE_FORMAT || !isRecordShape(entry.record)) return undefined;
  return entry.record;
}
