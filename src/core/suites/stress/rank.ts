// The order a row draws its distractors in: each candidate ranked by a seeded hash of (the row's draw seed, the
// passage's text), so a passage's rank for a row depends on nothing else in the pool. Adding, removing or fixing one
// row of the dataset moves no other passage: a row's distractors change only when the changed row's passages rank
// among them (rendezvous hashing), where a draw by position in the file reshuffled most rows.
import { fnv1a } from '../../random.js';

/** murmur3's 32-bit finaliser: spreads every input bit over the output, so neighbouring hashes rank far apart. */
function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A pool's distinct texts (the first item of each) and their hashes, computed once per pool (kept until its files change). */
interface Distinct {
  indexes: Uint32Array;
  hashes: Uint32Array;
}

const distinctOf = new WeakMap<readonly { text: string }[], Distinct>();

function distinct(items: readonly { text: string }[]): Distinct {
  let found = distinctOf.get(items);
  if (!found) {
    const first = new Map<string, number>();
    items.forEach((item, i) => { if (!first.has(item.text)) first.set(item.text, i); });
    const indexes = Uint32Array.from(first.values());
    found = { indexes, hashes: Uint32Array.from(indexes, (i) => fnv1a((items[i] as { text: string }).text)) };
    distinctOf.set(items, found);
  }
  return found;
}

/**
 * Indexes of `items` from the lowest rank to the highest for this seed, each distinct text once (its first item).
 * Ties (equal hashes of different texts) are broken by the text, so the order is a function of the texts alone.
 * Lazily: a few passes over the pool, each keeping only the next best few, since a row needs a handful of a pool that
 * may hold 50,000; a pass compares plain numbers for all but those few.
 */
export function* inRankOrder(items: readonly { text: string }[], seed: number, firstBatch = 8): Generator<number> {
  const { indexes, hashes } = distinct(items);
  const salt = mix32(seed ^ 0x9e3779b9);
  const n = indexes.length;
  /** Whether distinct text a (of rank ra) comes before distinct text b (of rank rb). */
  const before = (a: number, ra: number, b: number, rb: number): boolean => {
    if (ra !== rb) return ra < rb;
    return (items[indexes[a] as number] as { text: string }).text < (items[indexes[b] as number] as { text: string }).text;
  };
  let last = -1;
  let lastRank = -1;
  let size = Math.max(1, firstBatch);
  for (;;) {
    // The best `size` after `last`, sorted; `worst` is the rank of the last kept once the list is full.
    const next: number[] = [];
    const nextRanks: number[] = [];
    let worst = Infinity;
    for (let j = 0; j < n; j++) {
      const r = mix32((hashes[j] as number) ^ salt);
      if (r > worst || r < lastRank) continue;
      if (last >= 0 && r === lastRank && !before(last, lastRank, j, r)) continue;
      if (next.length === size && !before(j, r, next[size - 1] as number, worst)) continue;
      let at = next.length;
      while (at > 0 && before(j, r, next[at - 1] as number, nextRanks[at - 1] as number)) at--;
      next.splice(at, 0, j);
      nextRanks.splice(at, 0, r);
      if (next.length > size) {
        next.pop();
        nextRanks.pop();
      }
      if (next.length === size) worst = nextRanks[size - 1] as number;
    }
    if (next.length === 0) return;
    for (const j of next) yield indexes[j] as number;
    last = next[next.length - 1] as number;
    lastRank = nextRanks[nextRanks.length - 1] as number;
    size *= 4;
  }
}
