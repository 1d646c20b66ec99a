// Benchmark: indexing a folder with a long PDF (printed by Chromium from generated paragraphs) with BM25 — the first
// build (pdf.js reads every page), a rebuild with nothing changed (the PDF's text from the cache), and the same
// rebuild with the PDF text cache removed (what every rebuild would cost without it); wall time and this process's RSS.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildIndex } from '../src/core/corpus/build.js';
import type { IndexSpec } from '../src/core/retrieval/indexSpec.js';
import { machineLine, numberArg, table } from './lib/report.js';

const WORDS = ['harbour', 'lighthouse', 'keeper', 'granite', 'lantern', 'storm', 'reef', 'buoy', 'tide', 'ferry', 'island', 'quay', 'logbook', 'beacon', 'channel', 'pilot'];
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** An HTML page of `paragraphs` paragraphs of 80 words each, deterministic. */
function longPage(paragraphs: number): string {
  const body = Array.from({ length: paragraphs }, (_, p) => `<p>${Array.from({ length: 80 }, (_, w) => WORDS[(p * 7 + w * 5 + (w * w) % 11) % WORDS.length]).join(' ')}.</p>`);
  return `<!doctype html><html><head><meta charset="utf-8"><style>@page { size: A4; margin: 20mm } body { font: 11pt sans-serif }</style></head><body>${body.join('\n')}</body></html>`;
}

async function main(): Promise<void> {
  const paragraphs = numberArg('paragraphs', 1200);
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: the bench prints its PDF with Chromium (bash test/systemPackages.sh installs it; CHROMIUM=<path> names another)`);
  console.log(machineLine());
  const root = mkdtempSync(path.join(tmpdir(), 'bench-pdf-'));
  try {
    const folder = path.join(root, 'docs');
    mkdirSync(folder);
    writeFileSync(path.join(root, 'long.html'), longPage(paragraphs));
    execFileSync(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer', `--print-to-pdf=${path.join(folder, 'long.pdf')}`, path.join(root, 'long.html')], { stdio: 'ignore' });
    const spec: IndexSpec = { folder, include: [], exclude: [], chunking: { by: 'tokens', size: 256, overlap: 32 }, search: 'bm25', hybrid: { weight: 0.5, rrfK: 60 }, store: { type: 'embedded' } };
    const stateDir = path.join(root, '.rag-inspector');
    const rows: (string | number)[][] = [];
    const measure = async (label: string) => {
      const started = performance.now();
      const built = await buildIndex({ spec, stateDir, signal: new AbortController().signal });
      const ms = performance.now() - started;
      const pages = Math.max(...built.chunks.map((chunk) => chunk.endPage ?? 0));
      rows.push([label, pages, built.summary.chunks, `${built.summary.files.changed}/${built.summary.files.unchanged}`, Math.round(ms), Math.round(process.memoryUsage().rss / 1024 / 1024)]);
    };
    await measure('first build');
    await measure('nothing changed');
    rmSync(path.join(stateDir, 'cache', 'pdf-text'), { recursive: true, force: true });
    await measure('nothing changed, no PDF text cache');
    console.log(table(['build', 'pages', 'chunks', 'files changed/unchanged', 'wall ms', 'RSS MB'], rows));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
