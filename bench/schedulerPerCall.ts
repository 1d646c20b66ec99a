// Benchmark: the scheduler's own CPU per call — calls that answer at once, 16 in flight, no rate limit, no retries — apart from any provider or network.
import { Scheduler } from '../src/core/run/scheduler.js';
import { machineLine, median, numberArg, table } from './lib/report.js';

/** Each call answers on the next turn of the event loop, as a provider would, so calls overlap and the queue is used. */
const answer = (): Promise<number> => new Promise((resolve) => setImmediate(() => resolve(1)));

async function runCalls(calls: number, concurrency: number): Promise<number> {
  const scheduler = new Scheduler({ concurrency, maxRetries: 4, timeoutMs: 60_000 });
  const signal = new AbortController().signal;
  const started = process.cpuUsage();
  await Promise.all(Array.from({ length: calls }, () => scheduler.schedule(answer, { signal, estimatedTokens: 500 })));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** The same calls without the scheduler: what the loop costs on its own. */
async function runBare(calls: number): Promise<number> {
  const started = process.cpuUsage();
  await Promise.all(Array.from({ length: calls }, () => answer()));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const calls = numberArg('calls', 100_000);
  const repeats = numberArg('repeats', 5);
  console.log(machineLine());
  console.log(`${calls} calls answering on the next event-loop turn, ${repeats} repeats after a warm-up, interleaved`);
  await runCalls(10_000, 16);
  await runBare(10_000);
  const rows: Record<string, number[]> = { 'scheduler, 16 in flight': [], 'scheduler, 1 in flight': [], 'calls alone': [] };
  for (let r = 0; r < repeats; r++) {
    global.gc?.();
    rows['scheduler, 16 in flight']!.push((await runCalls(calls, 16)) / calls);
    global.gc?.();
    rows['scheduler, 1 in flight']!.push((await runCalls(calls, 1)) / calls);
    global.gc?.();
    rows['calls alone']!.push((await runBare(calls)) / calls);
  }
  const alone = median(rows['calls alone']!);
  console.log(table(['config', 'CPU µs/call (median)', 'scheduler µs/call'], Object.entries(rows).map(([label, values]) => [
    label,
    (median(values) * 1000).toFixed(2),
    label === 'calls alone' ? '—' : ((median(values) - alone) * 1000).toFixed(2),
  ])));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
