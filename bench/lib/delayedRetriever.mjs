// A persistent retriever for the retriever bench: answers each request after argv[2] ms (5 by default) with k
// passages of about 400 characters, so the measured side parses and checks answers of a realistic size.
import { createInterface } from 'node:readline';

const delayMs = Number(process.argv[2] ?? 5);
const text = (n) => `Passage ${n}: ${'a retrieved sentence about the question, as a chunk of a real corpus would read. '.repeat(5)}`;
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  setTimeout(() => {
    const items = Array.from({ length: request.k }, (_, n) => ({ id: `doc-${n}`, text: text(n), score: 1 / (n + 1), metadata: { file: 'corpus.md', startLine: n * 10 + 1 } }));
    process.stdout.write(`${JSON.stringify({ id: request.id, items })}\n`);
  }, delayMs);
}
