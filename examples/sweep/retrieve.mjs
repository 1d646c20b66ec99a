// The sweep example's retriever: cuts docs/*.md into chunks of params.chunkSize words with params.overlap words shared
// by neighbours (defaults 64 and 0), ranks them by BM25 (k1 = 1.2, b = 0.75), and returns each chunk with where it
// sits in its file ({ file, startChar, endChar }), which is what relevant_spans are checked against. It speaks the
// persistent command protocol (a JSON request per line on stdin, an answer per line on stdout) with plain `node`.
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const folder = new URL('./docs/', import.meta.url);
const files = readdirSync(folder).filter((name) => name.endsWith('.md')).sort().map((name) => ({ name, text: readFileSync(new URL(name, folder), 'utf8') }));
const STOP = new Set(['the', 'a', 'an', 'of', 'is', 'to', 'in', 'on', 'and', 'what', 'which', 'who', 'how', 'why', 'when', 'does', 'do', 'are', 'was', 'by', 'it', 'its', 'at', 'from', 'take']);
const terms = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.filter((t) => !STOP.has(t)) ?? [];

/** Chunks of `size` words, each starting `size - overlap` words after the previous one, with their character range. */
function chunk(size, overlap) {
  const chunks = [];
  for (const { name, text } of files) {
    const words = [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    for (let first = 0; first < words.length; first += size - overlap) {
      const last = Math.min(words.length, first + size) - 1;
      const startChar = words[first].start;
      const endChar = words[last].end;
      chunks.push({ id: `${name}#${startChar}-${endChar}`, text: text.slice(startChar, endChar), metadata: { file: name, startChar, endChar } });
      if (last === words.length - 1) break;
    }
  }
  const docs = chunks.map((c) => terms(c.text));
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / docs.length;
  const df = new Map();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  return { chunks, docs, avgLength, df };
}

const indexes = new Map();
function indexFor(params) {
  const size = params.chunkSize ?? 64;
  const overlap = params.overlap ?? 0;
  if (!(Number.isInteger(size) && size > 0 && Number.isInteger(overlap) && overlap >= 0 && overlap < size)) throw new Error(`chunkSize ${size} with overlap ${overlap}: the overlap must be below the chunk size`);
  const key = `${size}/${overlap}`;
  if (!indexes.has(key)) indexes.set(key, chunk(size, overlap));
  return indexes.get(key);
}

function bm25(index, query, d, k1 = 1.2, b = 0.75) {
  const n = index.docs.length;
  let score = 0;
  for (const t of new Set(query)) {
    const tf = d.filter((x) => x === t).length;
    const df = index.df.get(t) ?? 0;
    if (tf > 0) score += Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / index.avgLength));
  }
  return score;
}

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  try {
    const index = indexFor(request.params ?? {});
    const query = terms(request.question);
    const items = index.chunks.map((c, i) => ({ ...c, score: bm25(index, query, index.docs[i]) }))
      .sort((x, y) => y.score - x.score) // stable: ties keep the files' order
      .slice(0, request.k);
    process.stdout.write(`${JSON.stringify({ id: request.id, items })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ id: request.id, error: error.message })}\n`);
  }
}
