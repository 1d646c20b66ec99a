// A retriever for RAG Inspector (persistent mode): one JSON request per line on stdin, one answer per line on stdout.
import { createInterface } from 'node:readline';

const DOCS = {
  paris: 'Paris is the capital of France.',
  berlin: 'Berlin is the capital of Germany.',
  nile: 'The Nile is the longest river in Africa.',
};
const words = (text) => new Set(text.toLowerCase().split(/\W+/).filter(Boolean));

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  const asked = words(request.question);
  const scored = Object.entries(DOCS).map(([id, text]) => ({ id, text, score: [...words(text)].filter((w) => asked.has(w)).length }));
  const items = scored.sort((a, b) => b.score - a.score).slice(0, request.k);
  process.stdout.write(`${JSON.stringify({ id: request.id, items })}\n`);
}
