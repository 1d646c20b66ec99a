// Distractor pools read from disk: a corpus folder's paragraphs, a missing folder reported at the row, and a dataset
// pool read again when its file changes.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { DatasetRow } from '../../../src/core/model.js';
import { distractorPoolFor } from '../../../src/core/suites/stress/pool.js';
import { inRankOrder } from '../../../src/core/suites/stress/rank.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stress-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const row = (file: string): DatasetRow => ({ ref: { file, line: 3, index: 2 }, data: {} });

describe('distractor pools', () => {
  it('a corpus folder gives the non-blank paragraphs of its .txt and .md files, in file-name order', () => {
    const corpus = path.join(dir, 'corpus');
    mkdirSync(corpus);
    writeFileSync(path.join(corpus, 'b.md'), 'Owls hunt at night.\n');
    writeFileSync(path.join(corpus, 'a.txt'), 'Bees dance.\n\n  \n\nChess has 64 squares.\r\n\r\nGlaciers move.');
    writeFileSync(path.join(corpus, 'skip.json'), '{"not": "a passage"}');
    const pool = distractorPoolFor({ kind: 'corpus', folder: corpus }, row(path.join(dir, 'qa.jsonl')));
    assert.deepEqual(pool.items.map((d) => [d.source, d.text]), [
      ['corpus:a.txt#0', 'Bees dance.'], ['corpus:a.txt#1', 'Chess has 64 squares.'], ['corpus:a.txt#2', 'Glaciers move.'], ['corpus:b.md#0', 'Owls hunt at night.'],
    ]);
  });

  it('a corpus folder that cannot be read is reported at the row with the parameter to fix', () => {
    assert.throws(() => distractorPoolFor({ kind: 'corpus', folder: path.join(dir, 'nope') }, row('/x/qa.jsonl')), (e: unknown) => e instanceof InputError && e.position.line === 3 && /params.distractors.corpus/.test(e.hint ?? ''));
  });

  it('a dataset pool is read again when the file changes', () => {
    const file = path.join(dir, 'qa.jsonl');
    const line = (q: string, ctx: string[]) => JSON.stringify({ user_input: q, reference: 'x-answer', retrieved_contexts: ctx });
    writeFileSync(file, `${line('q1', ['x-answer here', 'first other'])}\n`);
    assert.deepEqual(distractorPoolFor({ kind: 'dataset' }, row(file)).items.map((d) => d.text), ['first other']);
    writeFileSync(file, `${line('q1', ['x-answer here', 'first other'])}\n${line('q2', ['x-answer too', 'second other, longer'])}\n`);
    assert.deepEqual(distractorPoolFor({ kind: 'dataset' }, row(file)).items.map((d) => d.text), ['first other', 'second other, longer']);
  });
});

describe('the rank order a row draws in', () => {
  const items = Array.from({ length: 200 }, (_, i) => ({ text: `passage ${i % 150}` })); // 50 texts twice
  const order = (list: { text: string }[], seed: number, batch?: number) => [...inRankOrder(list, seed, batch)].map((i) => (list[i] as { text: string }).text);

  it('gives every distinct text once, the same order however many passes it takes', () => {
    const once = order(items, 7, 1000);
    assert.equal(once.length, 150);
    assert.equal(new Set(once).size, 150);
    assert.deepEqual(order(items, 7, 1), once, 'passes of 1, 4, 16… items: the same sequence');
    assert.deepEqual(order(items, 7, 3), once);
  });

  it('depends on the texts, not their place in the pool: reversed, or with passages added, the others keep their order', () => {
    assert.deepEqual(order([...items].reverse(), 7), order(items, 7));
    const added = [...items, { text: 'a new passage' }, { text: 'another new one' }];
    assert.deepEqual(order(added, 7).filter((t) => !t.includes('new')), order(items, 7));
    assert.notDeepEqual(order(items, 8), order(items, 7), 'another seed, another order');
  });
});
