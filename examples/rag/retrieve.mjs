// The example's retriever: BM25 over corpus.jsonl, speaking the persistent command protocol (one JSON request per
// line on stdin: { id, question, k, params }; one answer per line on stdout: { id, items: [{ id, text, score }] }).
// It runs with plain `node` and no install, so it cannot import the project's BM25 (src/core/providers/bm25.ts is
// TypeScript inside the extension's bundle); this is the same Okapi BM25 (k1 = 1.2, b = 0.75), kept small.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const corpus = readFileSync(new URL('./corpus.jsonl', import.meta.url), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
const STOP = new Set(['the', 'a', 'an', 'of', 'is', 'to', 'in', 'on', 'and', 'what', 'which', 'who', 'how', 'why', 'when', 'does', 'do', 'are', 'was', 'by', 'it', 'its', 'at', 'from', 'take']);
const terms = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.filter((t) => !STOP.has(t)) ?? [];

const docs = corpus.map((doc) => terms(doc.text));
const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / docs.length;
const documentFrequency = new Map();
for (const d of docs) for (const t of new Set(d)) documentFrequency.set(t, (documentFrequency.get(t) ?? 0) + 1);
const idf = (t) => Math.log(1 + (docs.length - (documentFrequency.get(t) ?? 0) + 0.5) / ((documentFrequency.get(t) ?? 0) + 0.5));

function bm25(query, d, k1 = 1.2, b = 0.75) {
  let score = 0;
  for (const t of new Set(query)) {
    const tf = d.filter((x) => x === t).length;
    if (tf > 0) score += idf(t) * (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / avgLength));
  }
  return score;
}

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  const query = terms(request.question);
  const ranked = corpus.map((doc, i) => ({ id: doc.id, text: doc.text, score: bm25(query, docs[i]) }))
    .sort((x, y) => y.score - x.score) // stable: ties keep the corpus order
    .slice(0, request.k);
  process.stdout.write(`${JSON.stringify({ id: request.id, items: ranked })}\n`);
}
