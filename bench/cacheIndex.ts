// Benchmark: what a run's first cache lookup costs as the cache grows — reading every segment into the index — for
// many small segments (many runs) and for few large ones.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ResponseRecord } from '../src/core/model.js';
import { cacheKey, ResponseCache } from '../src/core/run/cache.js';
import { machineLine, median, numberArg, table } from './lib/report.js';

const RESPONSE: ResponseRecord = { text: 'x'.repeat(2000), usage: { inputTokens: 500, outputTokens: 20 }, latencyMs: 1, cached: false };

const keyOf = (n: number): string => cacheKey({ providerId: 'openai', endpoint: 'https://api.example/v1', request: { model: 'm', messages: [{ role: 'user', content: `question ${n}` }] } });

/** Milliseconds from a new cache object's first `get` (index read + one hit) on a cache of `segments` × `perSegment` entries. */
async function firstLookupMs(segments: number, perSegment: number, repeats: number): Promise<number[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-cache-index-'));
  try {
    let n = 0;
    for (let s = 0; s < segments; s++) {
      const writer = new ResponseCache(dir);
      for (let i = 0; i < perSegment; i++) await writer.set(keyOf(n++), RESPONSE);
    }
    const times: number[] = [];
    for (let r = 0; r < repeats; r++) {
      const started = performance.now();
      const hit = await new ResponseCache(dir).get(keyOf(Math.floor(n / 2)));
      times.push(performance.now() - started);
      if (!hit) throw new Error('the entry written was not found');
    }
    return times;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const repeats = numberArg('repeats', 3);
  console.log(machineLine());
  console.log(`2 KB responses; each lookup by a new cache object (as each run makes one), ${repeats} repeats; the files are in the page cache after the first`);
  const rows: (string | number)[][] = [];
  for (const [segments, perSegment] of [[1000, 10], [10, 10_000], [1, 100_000]] as const) {
    const times = await firstLookupMs(segments, perSegment, repeats);
    rows.push([`${segments} segment(s) × ${perSegment} entries`, (segments * perSegment).toLocaleString('en'), median(times).toFixed(0), Math.max(...times).toFixed(0)]);
  }
  console.log(table(['cache', 'entries', 'first lookup ms (median)', 'max'], rows));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
