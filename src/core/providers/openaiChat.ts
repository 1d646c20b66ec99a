// A chat completion that is not streamed, sent the way the OpenAI SDK sends it and read the way it reads the answer,
// without the SDK's per-call machinery: the request (URL and headers) is built by the SDK once per client, each call is
// one POST over node:http, and a failure becomes the SDK's own error, so errors.ts words it as before. Measured on the
// fixture server (BENCHMARKS.md, "The SDK path's CPU per case"): the SDK's request building, its log details (formatted
// even when logging is off), the web Headers and Response and a second AbortController and timer per call made a call
// cost 1.4 ms of CPU where a bare POST costs 0.5; now 0.6. Streamed answers, model lists and the batch API use the SDK.
import type { OpenAI } from 'openai';
import { NULL_BODY_STATUSES, nodeRequest, plainHeaders, webHeaders } from './nodeFetch.js';
import { jsonOrUndefined } from '../data/jsonError.js';
import { loadVendor } from '../vendor/load.js';

/** Where a chat completion goes and what it carries besides its body: what the SDK would send. */
export interface ChatEndpoint {
  url: string;
  headers: Record<string, string>;
}

/**
 * The URL and headers the SDK sends `POST /chat/completions` with (the key or none, the base URL's path and query, the
 * default headers, its own headers and the organization and project it read from the environment), asked of it once.
 * Nothing in them changes from call to call: the SDK's retries are off, so its retry count is always 0.
 */
export async function chatEndpointOf(client: OpenAI): Promise<ChatEndpoint> {
  const { url, req } = await client.buildRequest({ method: 'post', path: '/chat/completions', body: {} });
  return { url, headers: plainHeaders(req.headers) };
}

/**
 * POSTs `body` and answers what the SDK's `chat.completions.create` would: the parsed JSON of a JSON answer, the text of
 * any other, undefined for an empty JSON one; rejects with the SDK's APIError for a status outside 2xx and its
 * connection errors when no answer came. An aborted signal rejects (the caller maps it, as it does the SDK's).
 */
export async function postChatCompletion(endpoint: ChatEndpoint, body: unknown, signal: AbortSignal): Promise<unknown> {
  let answer;
  try {
    answer = await nodeRequest(endpoint.url, { method: 'POST', headers: endpoint.headers, body: JSON.stringify(body), signal }, (incoming) => !NULL_BODY_STATUSES.has(incoming.statusCode ?? 0));
  } catch (error) {
    throw signal.aborted ? error : connectionError(error);
  }
  const { incoming, body: bytes } = answer;
  const status = incoming.statusCode ?? 0;
  if (bytes === undefined) incoming.resume();
  const text = textOf(bytes);
  if (status < 200 || status > 299) {
    const json = jsonOrUndefined(text) as object | undefined;
    throw loadVendor('openai').APIError.generate(status, json, json ? undefined : text, webHeaders(incoming));
  }
  if (status === 204) return null;
  const mediaType = incoming.headers['content-type']?.split(';')[0]?.trim();
  if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
    if (incoming.headers['content-length'] === '0') return undefined;
    return JSON.parse(text);
  }
  return text;
}

/** UTF-8 as fetch's `text()` decodes it: a byte order mark at the start is dropped. */
function textOf(bytes: Buffer | undefined): string {
  const text = bytes ? bytes.toString('utf8') : '';
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** What the SDK throws when its fetch fails: a timeout when the failure says it timed out, else a connection error. */
function connectionError(failure: unknown): Error {
  const { APIConnectionError, APIConnectionTimeoutError } = loadVendor('openai');
  const cause = failure instanceof Error ? failure : new Error(String(failure));
  const timedOut = cause.name === 'AbortError' || /timed? ?out/i.test(String(cause) + ('cause' in cause ? String(cause.cause) : ''));
  return timedOut ? new APIConnectionTimeoutError() : new APIConnectionError({ cause });
}
