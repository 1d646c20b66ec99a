// The cause retrieval alone decides for a failed case, in the words the user reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RankedPassage, RetrievalRecord } from '../../../src/core/retrieval/contract.js';
import { retrievalCause } from '../../../src/core/retrieval/causes.js';

function record(k: number, passages: [string, number | undefined][], relevant?: RetrievalRecord['relevant']): RetrievalRecord {
  const candidates: RankedPassage[] = passages.map(([id, relevance], index) => ({
    rank: index + 1, id, sent: index < k, ...(index < k ? { documentId: `d${index}` } : {}), ...(relevance === undefined ? {} : { relevance }),
  }));
  return { retriever: 'command: retrieve', k, candidates, ...(relevant ? { relevant } : {}) };
}

test('not-retrieved names how many relevant ids the labels know', () => {
  const finding = retrievalCause(record(2, [['a', 0], ['b', 0], ['c', 0]], [{ id: 'x', grade: 1 }, { id: 'y', grade: 2 }]));
  assert.deepEqual(finding, { cause: 'not-retrieved', words: 'none of the 2 relevant passages among the 3 candidates' });
});

test('not-retrieved when the labels judge only the retrieved passages says so', () => {
  const finding = retrievalCause(record(1, [['a', 0]]));
  assert.deepEqual(finding, { cause: 'not-retrieved', words: 'no relevant passage among the 1 candidate (the labels judge only the retrieved passages)' });
});

test('nothing retrieved at all is not-retrieved too', () => {
  assert.equal(retrievalCause(record(3, [], [{ id: 'x', grade: 1 }])).cause, 'not-retrieved');
});

test('ranked-out gives the first relevant passage below the cut-off with its rank', () => {
  const finding = retrievalCause(record(2, [['a', 0], ['b', undefined], ['c', 1], ['d', 1]], [{ id: 'c', grade: 1 }, { id: 'd', grade: 1 }]));
  assert.deepEqual(finding, { cause: 'ranked-out', words: 'relevant passage c at rank 3, cut-off 2', passageId: 'c', rank: 3 });
});

test('a relevant passage that was sent leaves the cause to Explain, in words', () => {
  // The relevant list names b even though the candidate itself carries no grade.
  const finding = retrievalCause(record(3, [['a', 0], ['b', undefined], ['c', 1]], [{ id: 'b', grade: 1 }, { id: 'c', grade: 1 }]));
  assert.deepEqual(finding, {
    cause: 'undetermined',
    words: 'relevant passage b sent at rank 2: Explain decides whether the model ignored it, was distracted or misplaced it',
    passageId: 'b',
    rank: 2,
  });
});

test('no label at all, or labels that call nothing relevant: undetermined, never guessed', () => {
  assert.deepEqual(retrievalCause(record(2, [['a', undefined], ['b', undefined]])), { cause: 'undetermined', words: 'no relevance labels for this question' });
  assert.deepEqual(retrievalCause(record(1, [['a', 0]], [])), { cause: 'undetermined', words: 'the labels call no passage relevant for this question' });
});
