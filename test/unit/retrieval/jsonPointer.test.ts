// JSON pointers (RFC 6901): the examples of its section 5, escapes, array indexes, and pointers that find nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJsonPointer, resolvePointer } from '../../../src/core/jsonPointer.js';

const RFC_DOCUMENT = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };

describe('resolvePointer', () => {
  it('resolves every example of RFC 6901 section 5', () => {
    const cases: [string, unknown][] = [
      ['', RFC_DOCUMENT], ['/foo', ['bar', 'baz']], ['/foo/0', 'bar'], ['/', 0], ['/a~1b', 1], ['/c%d', 2], ['/e^f', 3],
      ['/g|h', 4], ['/i\\j', 5], ['/k"l', 6], ['/ ', 7], ['/m~0n', 8],
    ];
    for (const [pointer, value] of cases) assert.deepEqual(resolvePointer(RFC_DOCUMENT, pointer), { found: true, value }, pointer);
  });

  it('finds nothing past a list\'s end, at "-", at a leading-zero index, or under a missing key, naming where it stopped', () => {
    assert.deepEqual(resolvePointer(RFC_DOCUMENT, '/foo/2'), { found: false, missing: '/foo/2' });
    assert.deepEqual(resolvePointer(RFC_DOCUMENT, '/foo/-'), { found: false, missing: '/foo/-' });
    assert.deepEqual(resolvePointer(RFC_DOCUMENT, '/foo/01'), { found: false, missing: '/foo/01' });
    assert.deepEqual(resolvePointer({ data: { hits: null } }, '/data/hits/0'), { found: false, missing: '/data/hits/0' });
    assert.deepEqual(resolvePointer({ data: {} }, '/data/results/x'), { found: false, missing: '/data/results' });
    assert.deepEqual(resolvePointer({ toString: 1 }, '/constructor'), { found: false, missing: '/constructor' });
  });

  it('a string that is no pointer finds nothing', () => {
    assert.equal(isJsonPointer('data/hits'), false);
    assert.equal(isJsonPointer('/a~2'), false);
    assert.equal(resolvePointer({ data: 1 }, 'data').found, false);
  });
});
