// Shared by the retriever tests: a rejection that must be a RetrieverError of one kind whose message says given words.
import assert from 'node:assert/strict';
import { RetrieverError } from '../../../src/core/retrieval/contract.js';
import type { RetrieverErrorKind } from '../../../src/core/retrieval/contract.js';

export async function rejectsWith(promise: Promise<unknown>, kind: RetrieverErrorKind, ...words: (string | RegExp)[]): Promise<RetrieverError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof RetrieverError, `expected a RetrieverError (${kind}), got ${caught === undefined ? 'an answer' : String(caught)}`);
  assert.equal(caught.kind, kind, caught.message);
  for (const word of words) {
    if (typeof word === 'string') assert.ok(caught.message.includes(word), `"${word}" in: ${caught.message}`);
    else assert.match(caught.message, word);
  }
  return caught;
}

/** A signal never aborted, shared by many requests in flight at once (as a run's signal is). */
export const never = new AbortController().signal;
