// Run Evaluation proposes the stress method first for a dataset with RAGAS's columns, and only then.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { firstRowOf, methodItems } from '../../../src/extension/methodProposal.js';

const dir = mkdtempSync(path.join(tmpdir(), 'proposal-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const METHODS = ['rgb', 'needle', 'ifrag', 'ragas', 'llm-eval', 'stress'];

describe('the method Run Evaluation proposes', () => {
  it('puts stress first, with why, for a RAGAS-style JSONL (its first readable row decides)', async () => {
    const file = path.join(dir, 'mine.jsonl');
    writeFileSync(file, 'not json\n{"user_input": "q", "retrieved_contexts": ["p"], "reference": "a"}\n');
    const items = methodItems(METHODS, await firstRowOf(file));
    assert.equal(items[0]!.label, 'stress');
    assert.match(items[0]!.description ?? '', /RAGAS columns/);
    assert.deepEqual(items.map((i) => i.label).sort(), [...METHODS].sort());
  });

  it('leaves the order alone for an RGB or IF-RAG file, and for a CSV with contexts under the old name proposes stress', async () => {
    assert.deepEqual(methodItems(METHODS, { query: 'q', positive: ['p'], negative: [], answer: 'a' }).map((i) => i.label), METHODS);
    assert.deepEqual(methodItems(METHODS, { question: 'q', passages: ['p'], answer: 'a' }).map((i) => i.label), METHODS);
    const csv = path.join(dir, 'old.csv');
    writeFileSync(csv, 'question,contexts,ground_truth\nq,"[""p""]",a\n');
    assert.equal(methodItems(METHODS, await firstRowOf(csv))[0]!.label, 'stress');
  });

  it('proposes nothing for a missing file', async () => {
    assert.equal(await firstRowOf(path.join(dir, 'missing.jsonl')), undefined);
  });
});
