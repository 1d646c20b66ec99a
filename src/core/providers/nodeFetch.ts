// The `fetch` the vendor SDKs are given: a request over node:http(s) answered with a standard Response. Measured on the
// fixture server (BENCHMARKS.md, "Close to the floor"), undici's fetch costs ~1.2 ms of CPU per chat call and this
// path ~0.6 ms — half of what a latency-bound run spends per case outside the engine. Bodies other than text or bytes
// (the batch APIs' multipart uploads, streamed bodies) and URLs other than http(s) go to the global fetch unchanged.
// A JSON answer is read whole here and handed over as bytes: the SDKs read it whole anyway, and a web stream made of a
// Node stream (Readable.toWeb) cost more CPU per call than the rest of this function; other bodies (SSE) stream.
// `nodeRequest` is the request itself, also used without a Response by the OpenAI chat call (openaiChat.ts).
import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';

/** Statuses whose Response may not have a body (the Response constructor refuses one). */
export const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * No agent is passed: Node's global agents keep connections alive (Node ≥ 19), and a host that patches them (VS Code's
 * proxy support) still applies.
 */
export async function nodeFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body;
  if (url === undefined || !isPlainBody(body) || !isHttpUrl(url)) return fetch(input, init);
  const { incoming, body: read } = await nodeRequest(url, { method: init?.method ?? 'GET', headers: plainHeaders(init?.headers), body: body ?? undefined, signal: init?.signal ?? undefined }, isJson);
  try {
    return responseOf(incoming, read);
  } catch (error) {
    incoming.destroy();
    throw error;
  }
}

export interface NodeRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

/** The answer's status line and headers, and its whole body when it was read (else it streams from `incoming`). */
export interface NodeAnswer {
  incoming: http.IncomingMessage;
  body: Buffer | undefined;
}

const isHttpUrl = (url: string): boolean => url.startsWith('https:') || url.startsWith('http:');

const isPlainBody = (body: RequestInit['body']): body is string | Uint8Array | null | undefined =>
  body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;

/**
 * One request over node:http(s). Resolves when the headers arrive — after the whole body when `readWhole` says so for
 * this answer (a connection closed before the body's end then rejects, as fetch does when such a body is read). An
 * abort rejects with the signal's reason and ends a body still streaming with it, so a reader of the body sees it.
 */
export function nodeRequest(url: string, init: NodeRequestInit, readWhole: (incoming: http.IncomingMessage) => boolean): Promise<NodeAnswer> {
  const { signal } = init;
  signal?.throwIfAborted();
  const transport = url.startsWith('https:') ? https : http;
  return new Promise<NodeAnswer>((resolve, reject) => {
    let answer: http.IncomingMessage | undefined;
    const request = transport.request(url, { method: init.method, headers: init.headers }, (incoming) => {
      answer = incoming;
      if (!readWhole(incoming)) {
        resolve({ incoming, body: undefined });
        return;
      }
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ incoming, body: Buffer.concat(chunks) }));
      incoming.on('error', reject);
      incoming.on('close', () => {
        if (!incoming.complete) reject(new TypeError('terminated: the connection closed before the response body ended'));
      });
    });
    const onAbort = () => {
      answer?.destroy(signal?.reason);
      request.destroy(signal?.reason);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('close', () => signal?.removeEventListener('abort', onAbort));
    request.on('error', reject);
    request.end(init.body);
  });
}

function isJson(incoming: http.IncomingMessage): boolean {
  return /^application\/json\b/i.test(incoming.headers['content-type'] ?? '') && !NULL_BODY_STATUSES.has(incoming.statusCode ?? 0);
}

/** `body`: the whole body when it was read already (JSON); else it streams from `incoming`. */
function responseOf(incoming: http.IncomingMessage, body: Buffer | undefined): Response {
  const status = incoming.statusCode ?? 0;
  const init = { status, statusText: incoming.statusMessage ?? '', headers: webHeaders(incoming) };
  if (NULL_BODY_STATUSES.has(status)) {
    incoming.resume();
    return new Response(null, init);
  }
  return new Response(body ?? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), init);
}

/** The answer's headers as web Headers; a repeated header stays repeated, as fetch keeps it. */
export function webHeaders(incoming: http.IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/** Headers as node:http takes them; several values of one name are joined as fetch joins them. */
export function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  const plain: Record<string, string> = {};
  if (!headers) return plain;
  const entries = headers instanceof Headers ? headers.entries() : Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined || value === null) continue;
    const key = name.toLowerCase();
    plain[key] = key in plain ? `${plain[key]}, ${value}` : String(value);
  }
  return plain;
}
