// What the stores reached over HTTP (Qdrant, Elasticsearch, OpenSearch) share: the API key read from its variable,
// the store's address without credentials, and a failed call turned into a StoreError naming the setting to fix.
import { createHash } from 'node:crypto';
import { unlessAborted } from './rows.js';
import { StoreError } from './storeError.js';

/** The key `apiKeyEnv` names, or undefined when none is configured; a named variable that is not set stops here. */
export function apiKeyFrom(apiKeyEnv: string | undefined, env: NodeJS.ProcessEnv, what: string): string | undefined {
  if (apiKeyEnv === undefined) return undefined;
  const key = env[apiKeyEnv];
  if (!key) throw new StoreError('index.store.apiKeyEnv', `the environment variable ${apiKeyEnv} is not set`, `set it to the ${what}, or remove apiKeyEnv if the store needs none`);
  return key;
}

/** The URL with any user:password removed, for identities and messages. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** An HTTP status carried by a client's error, whichever client threw it. */
function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown; meta?: { statusCode?: unknown } } | undefined;
  const status = e?.status ?? e?.statusCode ?? e?.meta?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const own = error.message || error.name;
  // Qdrant's client keeps the server's reason in data.status.error; Elasticsearch's in meta.body.error.reason.
  const reason = (error as { data?: { status?: { error?: unknown } } }).data?.status?.error;
  if (typeof reason === 'string') return `${own}: ${reason}`;
  const body = (error as { meta?: { body?: unknown } }).meta?.body;
  const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body);
  if (text !== '' && !own.includes(text.slice(0, 40))) return `${own}: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message && !own.includes(cause.message) ? `${own}: ${cause.message}` : own;
}

/**
 * A failed call, in words: unreachable (no status) names the url setting, 401/403 the key, 404 what was looked for;
 * anything else keeps the store's own message.
 */
export function remoteError(error: unknown, store: { name: string; url: string; apiKeyEnv?: string; missing: string; missingHint: string }): Error {
  if (error instanceof StoreError) return error;
  const status = statusOf(error);
  const where = `${store.name} at ${displayUrl(store.url)}`;
  if (status === undefined) return new StoreError('index.store.url', `cannot reach ${where} (${messageOf(error)})`, 'check that the server is running and that url is its address');
  if (status === 401 || status === 403) {
    return new StoreError('index.store.apiKeyEnv', `${where} refused the request (HTTP ${status})`, store.apiKeyEnv ? `check the key in ${store.apiKeyEnv}` : 'it needs a key: set apiKeyEnv to the name of the environment variable holding it');
  }
  if (status === 404) return new StoreError('index.store', `${where} has no ${store.missing} (HTTP 404)`, store.missingHint);
  return new Error(`${where} answered HTTP ${status}: ${messageOf(error)}`);
}

/** A UUID derived from a chunk id: Qdrant accepts only integers and UUIDs as point ids, and the same chunk keeps its id. */
export function uuidOf(id: string): string {
  const hex = createHash('sha256').update(id).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** One call to the store: a cancel stops waiting (its reason thrown as is), any other failure becomes `failed(error)`. */
export async function callRemote<T>(signal: AbortSignal, request: () => Promise<T>, failed: (error: unknown) => Error): Promise<T> {
  try {
    return await unlessAborted(signal, request());
  } catch (error) {
    if (signal.aborted) throw error;
    throw failed(error);
  }
}
