// Content-addressed on-disk cache of successful model responses, so an unchanged rerun makes no model calls.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ResponseRecord, Usage } from '../model.js';
import type { CompletionRequest } from '../providers/contract.js';

/** Part of every key, so a change to what a key covers or to the entry layout invalidates old entries. */
const CACHE_FORMAT = 1;

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
  const identity = { format: CACHE_FORMAT, providerId: input.providerId, endpoint: endpointIdentity(input.endpoint), request: input.request };
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

interface CacheEntry {
  format: number;
  record: Omit<ResponseRecord, 'cached'>;
}

/**
 * Responses stored as `<dir>/<first two hex>/<key>.json`. Only successful responses can be stored: `set`
 * takes a ResponseRecord and checks its shape at run time too, so an error object cast to one is refused.
 */
export class ResponseCache {
  constructor(readonly dir: string) {}

  /** Where an entry lives (for diagnostics and tests). */
  pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new TypeError(`not a cache key: ${JSON.stringify(key)}`);
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The stored response marked `cached: true`, or undefined. A corrupt or unreadable entry is a miss and is removed. */
  async get(key: string): Promise<ResponseRecord | undefined> {
    const file = this.pathOf(key);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      await discard(file);
      return undefined;
    }
    const record = parseEntry(text);
    if (!record) {
      await discard(file);
      return undefined;
    }
    return { ...record, cached: true };
  }

  /**
   * Stores a successful response. Written to a temporary file and renamed into place: rename is atomic,
   * so a reader (or a crash) never sees half an entry. Not fsynced: after a power loss an entry may read as
   * empty, which `get` treats as corrupt, i.e. a miss — a cache may forget, it must never lie.
   */
  async set(key: string, record: ResponseRecord): Promise<void> {
    assertSuccessRecord(record);
    const file = this.pathOf(key);
    const { cached: _cached, ...stored } = record;
    const entry: CacheEntry = { format: CACHE_FORMAT, record: stored };
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(entry), { flag: 'wx' });
      await renameOrAcceptExisting(temporary, file);
    } finally {
      await rm(temporary, { force: true });
    }
  }
}

/**
 * On Windows a rename onto a file another process has open fails; the entry that is there answers the
 * same request (content addressing), so it is kept rather than failing the call that produced ours.
 */
async function renameOrAcceptExisting(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    const exists = await stat(to).then(() => true, () => false);
    if (!exists) throw error;
  }
}

async function discard(file: string): Promise<void> {
  await rm(file, { force: true }).catch(() => undefined);
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

function parseEntry(text: string): Omit<ResponseRecord, 'cached'> | undefined {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(text) as CacheEntry;
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null || entry.format !== CACHE_FORMAT || !isRecordShape(entry.record)) return undefined;
  return entry.record;
}
