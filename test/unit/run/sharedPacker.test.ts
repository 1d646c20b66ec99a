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
