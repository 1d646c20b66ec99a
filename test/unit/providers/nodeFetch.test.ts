// The SDKs' fetch over node:http: what the SDKs read of a Response (status, headers, body as a stream) and how an
// abort, a refused connection and bodies it does not handle behave — against a real local server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeFetch } from '../../../src/core/providers/nodeFetch.js';

describe('nodeFetch', () => {
  let server: http.Server;
  let base = '';
  const seen: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

  before(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({ method: request.method, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (request.url === '/no-content') return void response.writeHead(204).end();
        if (request.url === '/two-cookies') return void response.writeHead(200, [['set-cookie', 'a=1'], ['set-cookie', 'b=2'], ['x-request-id', 'req-7']]).end('ok');
        if (request.url === '/cut-json') {
          // A JSON answer whose connection drops before its declared length.
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          response.write('{"choices":[');
          setTimeout(() => response.socket?.destroy(), 20);
          return;
        }
        if (request.url === '/slow-body') {
          // Headers at once, the body never finished: only an abort ends the read.
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write('data: first\n\n');
          return;
        }
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' }).end(JSON.stringify({ error: { message: 'slow down' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends the method, headers and body, and answers with status, headers and a readable body', async () => {
    const response = await nodeFetch(`${base}/limited`, { method: 'POST', headers: new Headers({ 'Content-Type': 'application/json', Authorization: 'Bearer sk-test' }), body: '{"a":1}' });
    assert.equal(response.status, 429);
    assert.equal(response.headers.get('retry-after'), '3');
    assert.deepEqual(await response.json(), { error: { message: 'slow down' } });
    const last = seen.at(-1)!;
    assert.deepEqual([last.method, last.headers['content-type'], last.headers.authorization, last.body], ['POST', 'application/json', 'Bearer sk-test', '{"a":1}']);
  });

  it('keeps repeated response headers, as fetch does', async () => {
    const response = await nodeFetch(`${base}/two-cookies`);
    assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.equal(response.headers.get('x-request-id'), 'req-7');
    assert.equal(await response.text(), 'ok');
  });

  it('reports a JSON answer cut short by a dropped connection as a failure, never as a shorter body', async () => {
    await assert.rejects(
      nodeFetch(`${base}/cut-json`).then((response) => response.text()),
      (error: unknown) => error instanceof Error,
    );
  });

  it('gives a body-less status a null body instead of throwing', async () => {
    const response = await nodeFetch(`${base}/no-content`, { method: 'DELETE' });
    assert.equal(response.status, 204);
    assert.equal(response.body, null);
  });

  it('ends a body being read when the signal aborts, with the signal\'s reason', async () => {
    const controller = new AbortController();
    const response = await nodeFetch(`${base}/slow-body`, { signal: controller.signal });
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /data: first/);
    const reason = new Error('stopped by the test');
    controller.abort(reason);
    await assert.rejects(reader.read(), (error: unknown) => error === reason);
  });

  it('refuses at once a signal already aborted, and names a refused connection by its code', async () => {
    const reason = new DOMException('cancelled', 'AbortError');
    await assert.rejects(nodeFetch(`${base}/limited`, { signal: AbortSignal.abort(reason) }), (error: unknown) => error === reason);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(nodeFetch(`http://127.0.0.1:${port}/`), (error: unknown) => (error as { code?: string }).code === 'ECONNREFUSED');
  });

  it('leaves a multipart body to the global fetch (the batch APIs\' uploads)', async () => {
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob(['{"custom_id":"1"}\n']), 'batch.jsonl');
    await nodeFetch(`${base}/limited`, { method: 'POST', body: form });
    const last = seen.at(-1)!;
    assert.match(String(last.headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.match(last.body, /name="file"; filename="batch.jsonl"[\s\S]*\{"custom_id":"1"\}/);
  });
});
