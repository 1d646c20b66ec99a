// forEachConcurrent: lanes bounded by the width and by the items; mapOrdered: slow per-item work overlapped up to a width, results in the source's order, nothing left running.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachConcurrent, mapOrdered } from '../../src/core/pool.js';
import { describeExit, runBoundedChild } from './boundedChild.js';

async function* source(items: number[], read: number[]): AsyncGenerator<number> {
  for (const item of items) {
    read.push(item);
    yield item;
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapOrdered', () => {
  it('keeps `width` calls in flight and yields in the source\'s order although later items finish first', async () => {
    let inFlight = 0;
    let most = 0;
    const finished: number[] = [];
    const out: number[] = [];
    // Item 0 is the slowest: with width 3, items 1 and 2 finish before it.
    for await (const value of mapOrdered(source([0, 1, 2, 3, 4], []), 3, async (item) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await delay(item === 0 ? 40 : 5);
      inFlight -= 1;
      finished.push(item);
      return item * 10;
    })) out.push(value);
    assert.deepEqual(out, [0, 10, 20, 30, 40]);
    assert.equal(most, 3);
    assert.deepEqual(finished.slice(0, 2), [1, 2]);
  });

  it('width 1 is one item after another, the source read only as far as the window', async () => {
    const read: number[] = [];
    const iterator = mapOrdered(source([0, 1, 2, 3], read), 1, async (item) => item);
    assert.deepEqual(await iterator.next(), { value: 0, done: false });
    assert.deepEqual(read, [0]);
    await iterator.return(undefined);
  });

  it('stopped early, waits for the calls in flight and closes the source; a call that then fails is no unhandled rejection', async () => {
    let settled = 0;
    let closed = false;
    async function* closing(): AsyncGenerator<number> {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    for await (const value of mapOrdered(closing(), 4, async (item) => {
      await delay(item === 0 ? 1 : 20);
      settled += 1;
      if (item === 2) throw new Error('abandoned');
      return item;
    })) {
      assert.equal(value, 0);
      break;
    }
    assert.equal(settled, 4, 'every started call was awaited');
    assert.equal(closed, true);
  });
});

describe('forEachConcurrent', () => {
  it('keeps at most `width` items in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await forEachConcurrent([0, 1, 2, 3, 4, 5, 6], 3, new AbortController().signal, async (item) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await delay(2);
      inFlight -= 1;
      done.push(item);
    });
    assert.equal(most, 3);
    assert.deepEqual(done.sort(), [0, 1, 2, 3, 4, 5, 6]);
  });

  it('a width far above the items (1e20) runs them all, no "Invalid array length"', async () => {
    const done: number[] = [];
    await forEachConcurrent([0, 1, 2], 1e20, new AbortController().signal, async (item) => {
      await delay(1);
      done.push(item);
    });
    assert.deepEqual(done.sort(), [0, 1, 2]);
  });

  it('starts lanes only as items arrive: a width of a billion over three items fits in a 128 MB heap', async () => {
    const code = `
      const { forEachConcurrent } = require('./src/core/pool.ts');
      async function* cases() { for (let i = 0; i < 3; i++) yield i; }
      let finished = 0;
      forEachConcurrent(cases(), 1e9, new AbortController().signal, async () => { finished += 1; })
        .then(() => console.log(JSON.stringify({ finished })));
    `;
    const exit = await runBoundedChild(code, { heapMb: 128, timeoutMs: 120_000 });
    assert.equal(exit.code, 0, describeExit(exit));
    assert.deepEqual(JSON.parse(exit.stdout), { finished: 3 });
  });
});
