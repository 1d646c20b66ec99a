// A server that goes away mid-run and comes back: the run waits for it and its cases succeed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunEvent } from '../../../src/core/engine/events.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from './workspace.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});

/** A TCP relay in front of the fixture server that the test takes down (connections refused, open ones reset) and brings back on the same port. */
class Relay {
  private listener?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: number) {}

  async up(): Promise<void> {
    const listener = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => listener.listen(this.port, '127.0.0.1', resolve));
    this.port = (listener.address() as net.AddressInfo).port;
    this.listener = listener;
  }

  async down(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
  }
}

test('a server that goes down mid-run and comes back: the run says it waits, goes on, and no case errors', async (t) => {
  const relay = new Relay(Number(new URL(server.openaiBaseUrl).port));
  await relay.up();
  t.after(() => relay.down());
  const baseUrl = server.openaiBaseUrl.replace(/:\d+/, `:${relay.port}`);
  const rows = 12;
  const ws = createWorkspace({ rows: rgbRows(rows), evalYaml: () => fixtureEvalYaml(baseUrl).replace('maxRetries: 3', 'maxRetries: 1') });
  t.after(() => ws.cleanup());
  answerLandmarks(server, rows);
  server.setLatency(20);

  const events: RunEvent[] = [];
  let restarted: Promise<void> | undefined;
  const run = await runEvaluation(ws.evalFile, {
    signal: new AbortController().signal,
    credentials: envCredentials({}),
    noCache: true,
    onEvent: (event) => {
      events.push(event);
      // Down after the first case, for longer than maxRetries' backoff would wait; back on the same port.
      if (event.type === 'case-finished' && !restarted) {
        restarted = relay.down().then(() => new Promise((resolve) => setTimeout(resolve, 2_500))).then(() => relay.up());
      }
    },
  });
  await restarted;
  const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  assert.equal(run.totals.error, 0, `errors: ${JSON.stringify(warnings)}`);
  assert.equal(run.totals.success, rows);
  const waiting = warnings.filter((m) => m.includes('waiting for the server'));
  assert.equal(waiting.length, 1, 'said once');
  assert.match(waiting[0] ?? '', new RegExp(`waiting for the server at http://127\\.0\\.0\\.1:${relay.port}/v1 \\((connection refused|connection reset)\\) — retrying for up to 60 s`));
  assert.ok(warnings.some((m) => m.includes('answers again')), JSON.stringify(warnings));
});
