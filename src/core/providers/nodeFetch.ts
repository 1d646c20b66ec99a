// The `fetch` the vendor SDKs are given: a request over node:http(s) answered with a standard Response. Measured on the
// fixture server (BENCHMARKS.md, "Close to the floor"), undici's fetch costs ~1.2 ms of CPU per chat call and this
// path ~0.6 ms — half of what a latency-bound run spends per case outside the engine. Bodies other than text or bytes
// (the batch APIs' multipart uploads, streamed bodies) and URLs other than http(s) go to the global fetch unchanged.
// A JSON answer is read whole here and handed over as bytes: the SDKs read it whole anyway, and a web stream made of a
// Node stream (Readable.toWeb) cost more CPU per call than the rest of this function; other bodies (SSE) stream.
import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';

/** Statuses whose Response may not have a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * No agent is passed: Node's global agents keep connections alive (Node ≥ 19), and a host that patches them (VS Code's
 * proxy support) still applies.
 */
export async function nodeFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body;
  const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  const secure = url?.startsWith('https:') === true;
  if (url === undefined || !plainBody || (!secure && !url.startsWith('http:'))) return fetch(input, init);

  const signal = init?.signal ?? undefined;
  signal?.throwIfAborted();
  const transport = secure ? https : http;
  return new Promise<Response>((resolve, reject) => {
    let answer: http.IncomingMessage | undefined;
    const request = transport.request(url, { method: init?.method ?? 'GET', headers: plainHeaders(init?.headers) }, (incoming) => {
      answer = incoming;
      const settle = (body: Buffer | undefined) => {
        try {
          resolve(responseOf(incoming, body));
        } catch (error) {
          incoming.destroy();
          reject(error);
        }
      };
      if (!isJson(incoming)) {
        settle(undefined);
        return;
      }
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => settle(Buffer.concat(chunks)));
      // A connection closed before the body's end: what fetch would report when the body is read.
      incoming.on('error', reject);
      incoming.on('close', () => {
        if (!incoming.complete) reject(new TypeError('terminated: the connection closed before the response body ended'));
      });
    });
    // An abort after the headers ends the body's stream with the same reason, so a reader of the body sees it.
    const onAbort = () => {
      answer?.destroy(signal?.reason);
      request.destroy(signal?.reason);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('close', () => signal?.removeEventListener('abort', onAbort));
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}

function isJson(incoming: http.IncomingMessage): boolean {
  return /^application\/json\b/i.test(incoming.headers['content-type'] ?? '') && !NULL_BODY_STATUSES.has(incoming.statusCode ?? 0);
}

/** `body`: the whole body when it was read already (JSON); else it streams from `incoming`. */
function responseOf(incoming: http.IncomingMessage, body: Buffer | undefined): Response {
  const status = incoming.statusCode ?? 0;
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const init = { status, statusText: incoming.statusMessage ?? '', headers };
  if (NULL_BODY_STATUSES.has(status)) {
    incoming.resume();
    return new Response(null, init);
  }
  return new Response(body ?? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), init);
}

/** Headers as node:http takes them; several values of one name are joined as fetch joins them. */
function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
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
