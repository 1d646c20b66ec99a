// The HTTP retriever against a real local server: the POST body, headers from environment variables, the three
// answer shapes (list, { items }, mapped by JSON pointers), HTTP errors with their body, network failure, timeout,
// cancel, and a missing variable caught before any request.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { HttpRetrieverSpec } from '../../../src/core/retrieval/contract.js';
import { createHttpRetriever, displayUrl } from '../../../src/core/retrieval/http.js';
import { never, rejectsWith } from './retrievalAsserts.js';

interface Received {
  path: string;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

const received: Received[] = [];
let server: http.Server;
let base = '';

const answers: Record<string, (request: Received, response: http.ServerResponse) => void> = {
  '/list': (request, response) => json(response, 200, [{ id: 'a', text: 'alpha', score: 2, metadata: { body: request.body, auth: request.headers.authorization ?? null } }]),
  '/items': (_request, response) => json(response, 200, { items: [{ id: 1, text: 'one' }, { id: 2, text: 'two' }], took_ms: 3 }),
  '/mapped': (_request, response) => json(response, 200, { data: { hits: [{ doc: { key: 'k1', body: 'first' }, relevance: 0.9, extra: { url: 'https://x/1' } }, { doc: { key: 'k2', body: 'second' }, relevance: 0.4 }] } }),
  '/mapped-bad': (_request, response) => json(response, 200, { data: { hits: [{ doc: { body: 'no key' } }] } }),
  '/fail': (_request, response) => {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('index unavailable (token Bearer abcdefghijklmnop1234 rejected)');
  },
  '/html': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><body>Search</body></html>');
  },
  '/duplicate': (_request, response) => json(response, 200, [{ id: 'a', text: 'x' }, { id: 'a', text: 'y' }]),
  '/hang': () => undefined,
  '/huge': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) });
    response.write('[');
  },
};

function json(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

before(async () => {
  server = http.createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => { text += chunk; });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const entry: Received = { path: url.pathname, body: JSON.parse(text), headers: request.headers };
      received.push(entry);
      const answer = answers[url.pathname];
      if (answer) answer(entry, response);
      else json(response, 404, { error: 'no such path' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function spec(path: string, overrides: Partial<HttpRetrieverSpec> = {}): HttpRetrieverSpec {
  return { type: 'http', url: `${base}${path}`, headers: {}, timeoutMs: 20_000, ...overrides };
}

describe('HTTP retriever', () => {
  it('POSTs { question, k, params } as JSON with headers from the environment, and reads a list', async () => {
    const retriever = createHttpRetriever(spec('/list', { params: { index: 'docs' }, headers: { Authorization: { env: 'SEARCH_KEY', prefix: 'Bearer ' } } }), { env: { SEARCH_KEY: 'key-123456' } });
    const answer = await retriever.retrieve({ question: 'what?', k: 4 }, never);
    assert.deepEqual(answer.items[0]!.metadata, { body: { question: 'what?', k: 4, params: { index: 'docs' } }, auth: 'Bearer key-123456' });
    assert.equal(received.at(-1)!.headers['content-type'], 'application/json');
    assert.equal(answer.cached, false);
    assert.equal(retriever.identity, `http: ${base}/list`);
    assert.equal(retriever.kind, 'http');
  });

  it('reads { items } (number ids as strings)', async () => {
    const answer = await createHttpRetriever(spec('/items'), { env: {} }).retrieve({ question: 'q', k: 2 }, never);
    assert.deepEqual(answer.items, [{ id: '1', text: 'one' }, { id: '2', text: 'two' }]);
  });

  it('maps another shape with JSON pointers', async () => {
    const response = { items: '/data/hits', id: '/doc/key', text: '/doc/body', score: '/relevance', metadata: '/extra' };
    const answer = await createHttpRetriever(spec('/mapped', { response }), { env: {} }).retrieve({ question: 'q', k: 2 }, never);
    assert.deepEqual(answer.items, [{ id: 'k1', text: 'first', score: 0.9, metadata: { url: 'https://x/1' } }, { id: 'k2', text: 'second', score: 0.4 }]);
    await rejectsWith(createHttpRetriever(spec('/mapped', { response: { ...response, items: '/data/results' } }), { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'bad-shape', 'response.items "/data/results" finds nothing', 'no /data/results');
    await rejectsWith(createHttpRetriever(spec('/mapped', { response: { ...response, text: 'doc.body' } }), { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'start', 'response.text "doc.body" is not a JSON pointer', '"/doc/body"');
    await rejectsWith(createHttpRetriever(spec('/mapped-bad', { response }), { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'bad-shape', 'item 1', 'response.id "/doc/key" finds nothing', '"no key"');
  });

  it('a non-2xx answer is http-status with the status and the body, redacted', async () => {
    const error = await rejectsWith(createHttpRetriever(spec('/fail'), { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'http-status', 'HTTP 500', 'index unavailable', '[redacted]');
    assert.equal(error.status, 500);
    assert.ok(!error.message.includes('abcdefghijklmnop1234'));
  });

  it('a body that is not JSON, or a bad list, says so', async () => {
    await rejectsWith(createHttpRetriever(spec('/html'), { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'not-json', '<html><body>Search');
    await rejectsWith(createHttpRetriever(spec('/duplicate'), { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'duplicate-id', '"a"');
  });

  it('a body announced beyond 64 MB is not read', async () => {
    await rejectsWith(createHttpRetriever(spec('/huge'), { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'bad-shape', 'more than 64 MB', 'top k');
  });

  it('a header variable that is not set fails before any request, naming it', async () => {
    const count = received.length;
    const retriever = createHttpRetriever(spec('/list', { headers: { 'X-Api-Key': { env: 'SEARCH_KEY' } } }), { env: {} });
    await rejectsWith(retriever.retrieve({ question: 'q', k: 2 }, never), 'start', 'SEARCH_KEY', 'X-Api-Key', 'not set');
    assert.equal(received.length, count);
  });

  it('a server that cannot be reached is a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await rejectsWith(createHttpRetriever({ type: 'http', url: `http://127.0.0.1:${port}/search`, headers: {}, timeoutMs: 20_000 }, { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'network', 'ECONNREFUSED', 'could not be reached');
  });

  it('times out, and cancel rejects with the signal\'s reason', async () => {
    await rejectsWith(createHttpRetriever(spec('/hang', { timeoutMs: 300 }), { env: {} }).retrieve({ question: 'q', k: 2 }, never), 'timeout', 'within 300 ms');
    const controller = new AbortController();
    const waiting = createHttpRetriever(spec('/hang'), { env: {} }).retrieve({ question: 'q', k: 2 }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(waiting, { name: 'AbortError' });
  });

  it('identity keeps the URL but no credential in it', () => {
    assert.equal(displayUrl('https://user:pw@search.example/v1/retrieve?index=docs&api_key=abc123456&sig=zzz'), 'https://search.example/v1/retrieve?index=docs&api_key=[redacted]&sig=[redacted]');
  });
});
