// .rag-inspector/verdicts.jsonl under concurrent writers and across reruns: nothing lost or interleaved, the newest
// verdict wins, a verdict survives a rerun with the same content and is stale once the response changed.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { CaseEntry, ChatMessage } from '../../../src/core/model.js';
import { requestHash, responseHash } from '../../../src/core/verdicts/model.js';
import type { VerdictLine } from '../../../src/core/verdicts/model.js';
import { runAgreement } from '../../../src/core/verdicts/runAgreement.js';
import { VerdictStore } from '../../../src/core/verdicts/store.js';

const messages = (q: string): ChatMessage[] => [{ role: 'system', content: 'Answer from the documents.' }, { role: 'user', content: q }];

function line(q: string, response: string, label: VerdictLine['label'], extra: Partial<VerdictLine> = {}): VerdictLine {
  return { type: 'verdict', request: requestHash(messages(q)), response: responseHash(response), modelKey: 'm:a', label, caseId: q, at: new Date(0).toISOString(), ...extra };
}

function entry(q: string, response: string, pass: boolean | undefined, metric = 'correct'): CaseEntry {
  return {
    evalCase: { id: q, suiteId: 's', method: 'rgb', row: { file: 'd', line: 1, index: 0 }, question: q, documents: [], expected: {}, params: {}, variables: {}, messages: messages(q) },
    result: {
      caseId: q, modelKey: 'm:a', status: 'success', attempts: 1, startedAt: '', finishedAt: '',
      response: { text: response, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, cached: false },
      scores: [pass === undefined ? { metric, value: null, judgeError: 'unreadable' } : { metric, value: pass ? 1 : 0, pass }],
    },
  };
}

function tempStore(t: { after: (f: () => void) => void }): VerdictStore {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-verdicts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return VerdictStore.inWorkspace(dir);
}

describe('verdict storage', () => {
  it('concurrent appends from two stores on one file (two windows) lose and interleave nothing', async (t) => {
    const a = tempStore(t);
    const b = new VerdictStore(a.file);
    const writes = Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).append([line(`q${i}`, `r${i}`, i % 3 ? 'correct' : 'wrong', { note: 'x'.repeat(i * 50) })]));
    await Promise.all(writes);
    const text = readFileSync(a.file, 'utf8');
    assert.equal(text.split('\n').filter(Boolean).length, 60);
    const lines = await a.lines();
    assert.deepEqual(lines.map((l) => l.caseId).sort(), Array.from({ length: 60 }, (_, i) => `q${i}`).sort());
  });

  it('the newest line wins; a comment keeps the label; a torn last line is skipped', async (t) => {
    const store = tempStore(t);
    await store.append([line('q', 'r', 'wrong'), line('q', 'r', 'correct'), line('q', 'r', null, { note: 'cites the wrong year' })]);
    appendFileSync(store.file, '{"type":"verdict","request":"ab');
    const verdict = (await store.latest()).lookup(requestHash(messages('q')), responseHash('r'), 'm:a');
    assert.deepEqual({ label: verdict?.label, note: verdict?.note, stale: verdict?.stale }, { label: 'correct', note: 'cites the wrong year', stale: false });
  });

  it('a rerun with the same request and response keeps the verdict; a changed response makes it stale; a per-metric verdict wins over the case\'s', async (t) => {
    const store = tempStore(t);
    await store.append([line('q', 'Paris.', 'correct'), line('q', 'Paris.', 'wrong', { metric: 'rej_star' })]);
    const index = await store.latest();
    assert.equal(index.lookup(requestHash(messages('q')), responseHash('Paris.'), 'm:a')?.label, 'correct');
    assert.equal(index.lookup(requestHash(messages('q')), responseHash('Paris.'), 'm:a', 'rej_star')?.label, 'wrong');
    assert.equal(index.lookup(requestHash(messages('q')), responseHash('Lyon.'), 'm:a')?.stale, true);
    assert.equal(index.lookup(requestHash(messages('q2')), responseHash('Paris.'), 'm:a'), undefined);
  });

  it('agreement counts fresh verdicts only: stale ones and undetermined judge scores apart; the dataset label fills in', async (t) => {
    const store = tempStore(t);
    await store.append([line('a', 'A', 'correct'), line('b', 'B', 'wrong'), line('c', 'C-old', 'correct'), line('d', 'D', 'correct')]);
    const labelled = entry('e', 'E', true);
    labelled.evalCase.humanLabel = false;
    const [agreement] = runAgreement([entry('a', 'A', true), entry('b', 'B', true), entry('c', 'C-new', false), entry('d', 'D', undefined), labelled], await store.latest());
    assert.deepEqual([agreement!.metric, agreement!.n, agreement!.stale, agreement!.undetermined], ['correct', 3, 1, 1]);
    assert.deepEqual(agreement!.matrix, { passCorrect: 1, passWrong: 2, failCorrect: 0, failWrong: 0 });
    assert.deepEqual(agreement!.disagreements, ['b\u0000m:a', 'e\u0000m:a']);
  });
});
