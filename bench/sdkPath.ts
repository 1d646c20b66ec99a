// Benchmark: the CPU one chat call costs on the OpenAI path, layer by layer, in this process — a bare node:http POST, the
// provider, the provider under the scheduler, the model client without and with the response cache — against the
// fixture server in its own process (so its CPU is not counted), 16 in flight, configurations interleaved.
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ChatMessage } from '../src/core/model.js';
import { OpenAIProvider } from '../src/core/providers/openai.js';
import { ResponseCache } from '../src/core/run/cache.js';
import { createModelClient } from '../src/core/run/modelClient.js';
import { Scheduler } from '../src/core/run/scheduler.js';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import { machineLine, median, numberArg, stringArg, table } from './lib/report.js';

const IN_FLIGHT = 16;
const KEY = 'sk-fixture-key-for-the-bench-0000';

/** A prompt the size of an RGB case's (~2.5 KB: an instruction, five passages, the question), different per call. */
function messagesOf(i: number): ChatMessage[] {
  const passage = (n: number) => `Passage ${n}: ${'The quick brown fox jumps over the lazy dog near the river bank. '.repeat(7)}`;
  return [
    { role: 'system', content: 'You are an accurate and reliable AI assistant that can answer questions with the help of external documents.' },
    { role: 'user', content: `Document:\n${[1, 2, 3, 4, 5].map(passage).join('\n')}\n\nQuestion: what happened in case ${i}?` },
  ];
}

/** `calls` calls, IN_FLIGHT at a time; CPU µs of this process per call. */
async function cpuPerCall(calls: number, call: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < calls) await call(next++);
  };
  global.gc?.();
  const started = process.cpuUsage();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

/** What the bare client of bench/floor.ts does: one POST over the global keep-alive agent, the body parsed. */
function barePost(url: string, body: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function main(): Promise<void> {
  const calls = numberArg('calls', 800);
  const repeats = numberArg('repeats', 5);
  const latencyMs = numberArg('latency', 100);
  const server = await startFixtureProcess({ latencyMs });
  const cacheRoot = mkdtempSync(path.join(tmpdir(), 'sdk-path-'));
  const provider = new OpenAIProvider({ apiKey: KEY, baseURL: server.openaiBaseUrl, id: 'openai-compatible' });
  const signal = new AbortController().signal;
  const newScheduler = () => new Scheduler({ concurrency: IN_FLIGHT, maxRetries: 0, timeoutMs: 120_000 });
  const client = (cache: ResponseCache | undefined) => createModelClient({ key: 'openai-compatible:fixture-model', provider, model: 'fixture-model', parameters: { temperature: 0 }, scheduler: newScheduler(), cache });
  let round = 0;
  const configs: [string, () => (i: number) => Promise<unknown>][] = [
    ['bare node:http POST', () => (i) => barePost(`${server.openaiBaseUrl}/chat/completions`, JSON.stringify({ model: 'fixture-model', messages: messagesOf(i), temperature: 0 }))],
    // A signal per call, as the scheduler gives each attempt one (a shared signal would pile up listeners).
    ['OpenAIProvider.complete', () => (i) => provider.complete({ model: 'fixture-model', messages: messagesOf(i), temperature: 0 }, { signal: new AbortController().signal })],
    ['+ scheduler', () => {
      const scheduler = newScheduler();
      return (i) => scheduler.schedule((attempt) => provider.complete({ model: 'fixture-model', messages: messagesOf(i), temperature: 0 }, { signal: attempt }), { signal, estimatedTokens: 700 });
    }],
    ['model client, no cache', () => {
      const modelClient = client(undefined);
      return (i) => modelClient.complete({ messages: messagesOf(i) }, signal);
    }],
    ['model client, cache on (first-time calls)', () => {
      // A fresh cache each round, and prompts never asked before in it: every call is sent and stored.
      const modelClient = client(new ResponseCache(path.join(cacheRoot, String(++round))));
      return (i) => modelClient.complete({ messages: messagesOf(i) }, signal);
    }],
  ];
  const only = stringArg('only');
  if (only) configs.splice(0, configs.length, ...configs.filter(([label]) => label.includes(only)));
  try {
    for (const [, make] of configs) await cpuPerCall(Math.min(calls, 200), make()); // warm-up: JIT, connections
    const results = new Map<string, number[]>(configs.map(([label]) => [label, []]));
    for (let r = 0; r < repeats; r++) {
      for (const [label, make] of configs) results.get(label)!.push(await cpuPerCall(calls, make()));
    }
    console.log(machineLine());
    console.log(`${calls} calls per configuration, ${IN_FLIGHT} in flight, ${latencyMs} ms per call, ${repeats} repeats interleaved after a warm-up; CPU of this process`);
    const bare = median(results.get('bare node:http POST') ?? [0]);
    console.log(table(['configuration', 'CPU µs/call (median)', 'min–max', 'beyond bare'], configs.map(([label]) => {
      const values = results.get(label)!;
      return [label, median(values).toFixed(0), `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`, (median(values) - bare).toFixed(0)];
    })));
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
