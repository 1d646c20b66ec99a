// The packer's memory of strings seen once: a string that comes back within tens of thousands of others is shared,
// and what it remembers stays bounded however many strings never come back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SharedPacker } from '../../../src/core/run/sharedValues.js';

const unique = (i: number) => `a passage never repeated, number ${i}`;

test('a string that comes back after 40,000 others is shared; one line of its own defines it once', () => {
  const packer = new SharedPacker();
  const again = 'Where is landmark number 7, again?';
  packer.pack({ text: again });
  for (let i = 0; i < 40_000; i++) packer.pack({ text: unique(i) });
  const { packed, defined } = packer.pack({ text: again });
  assert.deepEqual(defined, [{ type: 'shared', id: 0, text: again }]);
  assert.deepEqual(packed, { text: { '@0': 1 } });
});

test('strings that never come back are forgotten: the memory stays bounded, and a string seen long ago is written inline', () => {
  const packer = new SharedPacker();
  const early = 'Seen once at the very start of the run.';
  packer.pack({ text: early });
  for (let i = 0; i < 200_000; i++) packer.pack({ text: unique(i) });
  const seen = packer as unknown as { seen: Map<string, unknown>; older: Map<string, unknown> };
  assert.ok(seen.seen.size + seen.older.size <= 50_000, `remembers ${seen.seen.size + seen.older.size} strings`);
  const { packed, defined } = packer.pack({ text: early });
  assert.deepEqual(defined, [], 'forgotten: seen as if for the first time');
  assert.deepEqual(packed, { text: early });
});

test('shapes: a key list is defined once, a longer or shorter list of the same keys is its own, a forgotten one is defined again', () => {
  const packer = new SharedPacker();
  const first = packer.pack({ case: { question: 'q1', documents: [] } });
  assert.deepEqual(first.defined, [{ type: 'shared', id: 0, keys: ['question', 'documents'] }]);
  assert.deepEqual(first.packed, { case: { '@0': ['q1', []] } });
  assert.deepEqual(packer.pack({ case: { question: 'q2', documents: [] } }), { packed: { case: { '@0': ['q2', []] } }, defined: [] });
  // A prefix of a defined key list, and the list with one more key, are shapes of their own.
  assert.deepEqual(packer.pack({ case: { question: 'q3' } }).defined, [{ type: 'shared', id: 1, keys: ['question'] }]);
  assert.deepEqual(packer.pack({ case: { question: 'q4', documents: [], row: 1 } }).defined, [{ type: 'shared', id: 2, keys: ['question', 'documents', 'row'] }]);
  // Members left out by JSON (undefined, functions) are not keys of the shape.
  assert.deepEqual(packer.pack({ case: { question: 'q5', skipped: undefined, documents: [] } }).packed, { case: { '@0': ['q5', []] } });
  // A write that failed: its definitions are forgotten, and the next line that needs one defines it again.
  const failed = packer.pack({ result: { caseId: 'c1', status: 'success' } });
  assert.deepEqual(failed.defined, [{ type: 'shared', id: 3, keys: ['caseId', 'status'] }]);
  packer.forget(failed.defined);
  const again = packer.pack({ result: { caseId: 'c1', status: 'success' } });
  assert.deepEqual(again.defined, [{ type: 'shared', id: 4, keys: ['caseId', 'status'] }]);
  assert.deepEqual(again.packed, { result: { '@4': ['c1', 'success'] } });
  // A resumed log's shapes are learned: used, not defined again, and new ids come after them.
  const resumed = new SharedPacker();
  resumed.learn({ type: 'shared', id: 7, keys: ['question', 'documents'] });
  assert.deepEqual(resumed.pack({ case: { question: 'q6', documents: [] } }), { packed: { case: { '@7': ['q6', []] } }, defined: [] });
  assert.deepEqual(resumed.pack({ case: { question: 'q7' } }).defined, [{ type: 'shared', id: 8, keys: ['question'] }]);
});
