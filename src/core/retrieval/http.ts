// The user's retrieval service over HTTP behind the Retriever contract: a POST of { question, k, params }, the answer a
// list of passages, { items: [...] }, or another shape mapped by JSON pointers (README, "Retriever contract").
import { performance } from 'node:perf_hooks';
import { isJsonPointer, resolvePointer } from '../jsonPointer.js';
import { redact } from '../redact.js';
import { RetrieverError } from './contract.js';
import type { HttpRetrieverSpec, RetrievalRequest, RetrievalResponse, RetrievedItem, Retriever } from './contract.js';
import { checkItems, itemsOfAnswer, parseAnswerJson, quoteReceived, quoteText } from './items.js';
import { wireRequest } from './wireRequest.js';

/** A query parameter whose name says it holds a credential: its value never reaches the identity or a message. */
const SECRET_PARAM = /key|token|secret|pass|auth|sig|credential/i;

/** A body beyond this is a runaway answer, not passages: it is not read to the end. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

type ResponseMapping = NonNullable<HttpRetrieverSpec['response']>;

/** A retriever POSTing each question to `spec.url`; header values are read from `options.env` at every call. */
export function createHttpRetriever(spec: HttpRetrieverSpec, options: { env: NodeJS.ProcessEnv }): Retriever {
  const identity = `http: ${displayUrl(spec.url)}`;
  const badPointer = Object.entries(spec.response ?? {}).find(([, pointer]) => !isJsonPointer(pointer));
  return {
    identity,
    kind: 'http',
    retrieve: (request, signal) => {
      if (badPointer) {
        const [field, pointer] = badPointer;
        return Promise.reject(new RetrieverError('start', `${identity} was not called: response.${field} "${pointer}" is not a JSON pointer; write it from the root with "/" before each key, e.g. "/${pointer.replace(/^[./]+/, '').split('.').join('/')}".`));
      }
      return retrieveOverHttp(spec, options.env, identity, request, signal);
    },
  };
}

/** The URL without user info and with the values of credential-like query parameters replaced. */
export function displayUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redact(url);
  }
  parsed.username = '';
  parsed.password = '';
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, 'REDACTED');
  }
  return redact(parsed.toString().replace(/=REDACTED(?=&|$)/g, '=[redacted]'));
}

/** The headers, values read from the environment now; a variable that is not set fails before anything is sent. */
function headersOf(named: HeaderSources, env: NodeJS.ProcessEnv, identity: string): { headers: Record<string, string>; secrets: string[] } {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  const secrets: string[] = [];
  const missing: string[] = [];
  for (const [name, source] of Object.entries(named)) {
    const value = env[source.env];
    if (value === undefined || value === '') {
      missing.push(`${source.env} (header ${name})`);
      continue;
    }
    headers[name] = `${source.prefix ?? ''}${value}`;
    secrets.push(value);
  }
  if (missing.length > 0) {
    throw new RetrieverError('start', `${identity} was not called: the environment variable${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set. Set ${missing.length === 1 ? 'it' : 'them'} where the run starts.`);
  }
  return { headers, secrets };
}

/** Header name → the environment variable holding its value. */
export type HeaderSources = Record<string, { env: string; prefix?: string }>;

/** What postJson needs: where, the headers' variables, the time limit, and the name messages use ("http: …"). */
export interface JsonPost {
  url: string;
  headers: HeaderSources;
  timeoutMs: number;
  identity: string;
}

/**
 * POSTs `body` as JSON and returns the parsed answer: every failure a RetrieverError in words (a variable not set,
 * the network, the time limit, an HTTP status with the body quoted and redacted, an answer that is not JSON). Shared
 * by the HTTP retriever and the index's reranker.
 */
export async function postJson(target: JsonPost, body: unknown, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<{ answer: unknown; latencyMs: number }> {
  if (signal.aborted) throw signal.reason;
  const { identity } = target;
  const { headers, secrets } = headersOf(target.headers, env, identity);
  const timeout = AbortSignal.timeout(target.timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  const startedAt = performance.now();
  let status: number;
  let text: string;
  try {
    const response = await fetch(target.url, { method: 'POST', headers, body: JSON.stringify(body), signal: both });
    status = response.status;
    text = await bodyText(response, identity);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof RetrieverError) throw error;
    if (timeout.aborted) throw new RetrieverError('timeout', `${identity} did not answer within ${target.timeoutMs} ms (its timeoutMs).`);
    throw new RetrieverError('network', `${identity} could not be reached: ${redact(networkCause(error), secrets)}. Is the service running at that address?`);
  }
  const latencyMs = performance.now() - startedAt;
  if (status < 200 || status > 299) {
    const snippet = text.trim() === '' ? 'an empty body' : quoteText(text, secrets);
    throw new RetrieverError('http-status', `${identity} answered HTTP ${status}: ${snippet}`, status);
  }
  return { answer: parseAnswerJson(text, `the answer of ${identity}`), latencyMs };
}

async function retrieveOverHttp(spec: HttpRetrieverSpec, env: NodeJS.ProcessEnv, identity: string, request: RetrievalRequest, signal: AbortSignal): Promise<RetrievalResponse> {
  const { answer, latencyMs } = await postJson({ url: spec.url, headers: spec.headers, timeoutMs: spec.timeoutMs, identity }, wireRequest(request, spec.params), env, signal);
  const where = `the answer of ${identity}`;
  const items = spec.response ? mappedItems(answer, spec.response, where) : itemsOfAnswer(answer, where);
  return { items, latencyMs, cached: false };
}

/** The body as text, read no further than MAX_BODY_BYTES. */
async function bodyText(response: Response, identity: string): Promise<string> {
  const tooLong = () => new RetrieverError('bad-shape', `${identity} answered more than ${MAX_BODY_BYTES / 1024 / 1024} MB; return the top k passages only.`);
  if (Number(response.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
    await response.body?.cancel();
    throw tooLong();
  }
  if (!response.body) return '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLong();
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** What failed under fetch's "fetch failed": the socket's own error (ECONNREFUSED, ENOTFOUND…) when there is one. */
function networkCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}

/** The items found by the `response:` pointers: the list, then each item's fields (by default /id, /text…). */
function mappedItems(answer: unknown, mapping: ResponseMapping, where: string): RetrievedItem[] {
  const list = resolvePointer(answer, mapping.items);
  if (!list.found) throw new RetrieverError('bad-shape', `${where}: response.items "${mapping.items}" finds nothing (no ${list.missing}) in ${quoteReceived(answer)}.`);
  if (!Array.isArray(list.value)) throw new RetrieverError('bad-shape', `${where}: response.items "${mapping.items}" finds ${quoteReceived(list.value)}, not a list.`);
  const fields = { id: mapping.id ?? '/id', text: mapping.text ?? '/text', score: mapping.score ?? '/score', metadata: mapping.metadata ?? '/metadata' };
  const raw = list.value.map((entry: unknown, index) => {
    const item: Record<string, unknown> = {};
    for (const [field, pointer] of Object.entries(fields)) {
      const found = resolvePointer(entry, pointer);
      if (found.found) item[field] = found.value;
      else if (field === 'id' || field === 'text') {
        throw new RetrieverError('bad-shape', `${where}: item ${index + 1}: response.${field} "${pointer}" finds nothing (no ${found.missing}) in ${quoteReceived(entry)}.`);
      }
    }
    return item;
  });
  return checkItems(raw, where);
}
