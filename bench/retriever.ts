// Benchmark: the persistent command retriever's own cost — 1,000 questions through a script that answers each after
// 5 ms, 8 in flight — as wall time and as CPU of this process per call (the script's CPU is its own, not counted).
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { forEachConcurrent } from '../src/core/pool.js';
import { createCommandRetriever } from '../src/core/retrieval/command.js';
import { machineLine, median, numberArg, table } from './lib/report.js';

const SCRIPT = path.join(__dirname, 'lib', 'delayedRetriever.mjs');

interface Measure {
  wallMs: number;
  cpuMsPerCall: number;
}

/** One fresh retriever (its start included, as in a run) answering `questions` questions `concurrency` at a time. */
async function measure(questions: number, concurrency: number, delayMs: number, k: number): Promise<Measure> {
  const retriever = createCommandRetriever({ type: 'command', command: [process.execPath, SCRIPT, String(delayMs)], cwd: __dirname, mode: 'persistent', timeoutMs: 60_000 }, { env: process.env });
  const signal = new AbortController().signal;
  let passages = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await forEachConcurrent(Array.from({ length: questions }, (_, n) => n), concurrency, signal, async (n) => {
    const answer = await retriever.retrieve({ question: `question ${n}: which passage says what about topic ${n % 97}?`, k }, signal);
    passages += answer.items.length;
  });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await retriever.close?.();
  if (passages !== questions * k) throw new Error(`expected ${questions * k} passages, got ${passages}`);
  return { wallMs, cpuMsPerCall: (used.user + used.system) / 1000 / questions };
}

async function main(): Promise<void> {
  const questions = numberArg('questions', 1000);
  const concurrency = numberArg('concurrency', 8);
  const delayMs = numberArg('delay', 5);
  const k = numberArg('k', 5);
  const repeats = numberArg('repeats', 3);
  console.log(machineLine());
  console.log(`${questions} questions, ${concurrency} in flight, the script answering each after ${delayMs} ms with ${k} passages of ~400 characters; median of ${repeats} repeats after a warm-up`);
  await measure(200, concurrency, delayMs, k);
  const runs: Measure[] = [];
  for (let r = 0; r < repeats; r++) {
    global.gc?.();
    runs.push(await measure(questions, concurrency, delayMs, k));
  }
  const floor = Math.ceil(questions / concurrency) * delayMs;
  console.log(table(['measure', 'median', 'target'], [
    ['wall time, ms (script start included)', median(runs.map((run) => run.wallMs)).toFixed(0), '< 1500'],
    [`  floor: ${questions}/${concurrency} × ${delayMs} ms`, floor, ''],
    ['our CPU per call, ms', median(runs.map((run) => run.cpuMsPerCall)).toFixed(3), '< 1'],
  ]));
  console.log(`repeats: wall ${runs.map((run) => run.wallMs.toFixed(0)).join(', ')} ms; CPU/call ${runs.map((run) => run.cpuMsPerCall.toFixed(3)).join(', ')} ms`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
