// Benchmark: building needle cells (a 10×10 grid to 128k tokens, one 1M-token context) against one tokenisation pass.
import { readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clearMergeCache } from 'gpt-tokenizer/encoding/o200k_base';
import { roundedLinspace } from '../src/core/suites/needle/grid.js';
import { buildCell } from '../src/core/suites/needle/insert.js';
import { DEFAULT_NEEDLE } from '../src/core/suites/needle/params.js';
import { indexText, indexTokens } from '../src/core/suites/needle/tokenIndex.js';
import { haystackTokenizerFor } from '../src/core/suites/needle/tokenizer.js';

const RUNS = 5;
const tokenizer = haystackTokenizerFor('openai:gpt-4o');
const folder = path.resolve(__dirname, '../examples/needle/haystack');
const pass = readdirSync(folder).filter((f) => f.endsWith('.txt')).sort().map((f) => readFileSync(path.join(folder, f), 'utf8')).join('');
const passTokens = tokenizer.encode(pass).length;

function timed<T>(work: () => T): { ms: number; value: T } {
  const started = performance.now();
  const value = work();
  return { ms: performance.now() - started, value };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The example haystack repeated until it holds `tokens` tokens, as the reference reads a short folder again. */
function textFor(tokens: number): string {
  return pass.repeat(Math.ceil(tokens / passTokens));
}

/** One tokenisation pass (the baseline), then the work cells add: the token index and every cell. */
function measure(tokensNeeded: number, lengths: number[], depths: number[]) {
  const text = textFor(tokensNeeded);
  const encodeMs: number[] = [];
  const indexMs: number[] = [];
  const cellsMs: number[] = [];
  const flattenMs: number[] = [];
  let contextChars = 0;
  for (let run = 0; run < RUNS; run++) {
    // gpt-tokenizer caches merges across calls: without a reset, a later run's baseline would be a cache replay.
    clearMergeCache();
    const encoded = timed(() => tokenizer.encode(text));
    const indexed = timed(() => indexTokens(encoded.value, tokenizer, 'sentence', text));
    const needle = indexText(DEFAULT_NEEDLE, tokenizer, 'sentence');
    const cells = timed(() => {
      const contexts: string[] = [];
      for (const contextLength of lengths) for (const depthPercent of depths) contexts.push(buildCell(indexed.value, { contextLength, depthPercent, buffer: 200, needles: [needle] }).context);
      return contexts;
    });
    // Rendering a prompt flattens the context into one string; timed apart, since the template engine does it.
    const flattened = timed(() => cells.value.reduce((chars, context) => chars + (context.indexOf('\u0000') === -1 ? context.length : 0), 0));
    encodeMs.push(encoded.ms);
    indexMs.push(indexed.ms);
    cellsMs.push(cells.ms);
    flattenMs.push(flattened.ms);
    contextChars = flattened.value;
  }
  const encode = median(encodeMs);
  const index = median(indexMs);
  const cells = median(cellsMs);
  const flatten = median(flattenMs);
  return {
    cells: lengths.length * depths.length,
    haystackTokens: tokenizer.encode(text).length,
    contextChars,
    encodeMs: Math.round(encode),
    indexMs: Math.round(index),
    // The first run also learns which tokens decode whole (once per encoding per process).
    indexFirstRunMs: Math.round(indexMs[0] as number),
    cellsMs: Math.round(cells),
    flattenMs: Math.round(flatten),
    addedToOnePass: Number(((index + cells) / encode).toFixed(3)),
    addedWithFlatten: Number(((index + cells + flatten) / encode).toFixed(3)),
  };
}

tokenizer.encode(pass); // warm the encoder's caches and the JIT before timing
const grid = measure(128_000, roundedLinspace(1000, 128_000, 10), roundedLinspace(0, 100, 10));
const million = measure(1_000_000, [1_000_000], [50]);
console.log(JSON.stringify({ bench: 'needleBuild', node: process.version, tokenizer: tokenizer.name, runs: RUNS, target: 'addedToOnePass < 0.2', load: os.loadavg().map((l) => Number(l.toFixed(1))), grid10x10to128k: grid, oneContext1M: million }));
