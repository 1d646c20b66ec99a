// Benchmark: building an index of ~10,000 chunks (dense, embeddings from the fixture server in its own process, the
// embedded LanceDB store) — the first build, a rebuild with nothing changed, and a rebuild after one file changed —
// with wall time and this process's peak RSS.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildIndex } from '../src/core/corpus/build.js';
import { openStore } from '../src/core/corpus/stores/open.js';
import { createEmbeddingProvider } from '../src/core/providers/registry.js';
import type { IndexSpec } from '../src/core/retrieval/indexSpec.js';
import { createEmbeddingClient } from '../src/core/run/embeddingClient.js';
import { Scheduler } from '../src/core/run/scheduler.js';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import { machineLine, numberArg, table } from './lib/report.js';

const WORDS = ['library', 'kettle', 'harbor', 'membership', 'borrow', 'study', 'room', 'laser', 'printer', 'hours', 'weekend', 'holiday', 'return', 'fine', 'card', 'children', 'visitor', 'workshop', 'filament', 'laptop'];

/** A page of `sections` headed sections, each a paragraph of about 65 words, deterministic for (file, seed). */
function page(file: number, sections: number, seed: number): string {
  const lines = [`# Page ${file}`];
  for (let s = 0; s < sections; s++) {
    lines.push('', `## Section ${s}`, '');
    const words = Array.from({ length: 60 }, (_, w) => WORDS[(file * 31 + s * 7 + w * 3 + seed) % WORDS.length]);
    // Each section's own words first, so no two chunks share a text (the embedding cache would serve them once).
    lines.push(`Page ${file} section ${s} revision ${seed}: ${words.join(' ')}.`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const files = numberArg('files', 500);
  const sections = numberArg('sections', 20);
  console.log(machineLine());
  const root = mkdtempSync(path.join(tmpdir(), 'bench-corpus-'));
  const folder = path.join(root, 'docs');
  mkdirSync(folder);
  for (let f = 0; f < files; f++) writeFileSync(path.join(folder, `page-${f}.md`), page(f, sections, 0));
  const server = await startFixtureProcess({});
  try {
    const spec: IndexSpec = {
      folder, include: [], exclude: [], chunking: { by: 'heading', size: 96, overlap: 16 }, search: 'dense',
      embeddings: { provider: 'openai-compatible', model: 'fixture-embedding', baseUrl: server.openaiBaseUrl, parameters: {} },
      hybrid: { weight: 0.5, rrfK: 60 }, store: { type: 'embedded' },
    };
    const provider = await createEmbeddingProvider(spec.embeddings!, { apiKey: () => Promise.resolve(undefined) });
    const stateDir = path.join(root, '.rag-inspector');
    const rows: (string | number)[][] = [];
    const measure = async (label: string) => {
      const client = createEmbeddingClient({ key: 'openai-compatible:fixture-embedding', provider, model: 'fixture-embedding', scheduler: new Scheduler({ concurrency: 8, maxRetries: 0, timeoutMs: 60_000 }), cacheDir: path.join(stateDir, 'cache', 'embeddings') });
      const started = performance.now();
      const built = await buildIndex({ spec, stateDir, embeddings: client, openStore: (dir) => openStore(spec.store, dir, {}), signal: new AbortController().signal });
      const ms = performance.now() - started;
      await built.store?.close();
      const { files: f, chunks, embedded } = built.summary;
      rows.push([label, chunks, `${f.changed}/${f.unchanged}`, embedded.texts, Math.round(ms), Math.round(process.memoryUsage().rss / 1024 / 1024)]);
    };
    await measure('first build');
    await measure('nothing changed');
    writeFileSync(path.join(folder, 'page-7.md'), page(7, sections, 5));
    await measure('one file changed');
    console.log(table(['build', 'chunks', 'files changed/unchanged', 'texts embedded', 'wall ms', 'RSS MB'], rows));
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
