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

/** Each text's hash, computed once per pool (a pool is kept until its files change). */
const textHashes = new WeakMap<readonly { text: string }[], Uint32Array>();

function hashesOf(items: readonly { text: string }[]): Uint32Array {
  let hashes = textHashes.get(items);
  if (!hashes) {
    hashes = Uint32Array.from(items, (item) => fnv1a(item.text));
    textHashes.set(items, hashes);
  }
  return hashes;
}

/**
 * Indexes of `items` from the lowest rank to the highest for this seed. Ties (equal hashes) are broken by the text,
 * so the order is a function of the texts alone; identical texts keep their pool order. Lazily: a few passes over
 * the pool, each keeping only the next best few, since a row needs a handful of a pool that may hold 50,000.
 */
export function* inRankOrder(items: readonly { text: string }[], seed: number, firstBatch = 8): Generator<number> {
  const hashes = hashesOf(items);
  const salt = mix32(seed ^ 0x9e3779b9);
  const n = items.length;
  const ranks = new Uint32Array(n);
  for (let i = 0; i < n; i++) ranks[i] = mix32((hashes[i] as number) ^ salt);
  const before = (a: number, b: number): boolean => {
    const ra = ranks[a] as number;
    const rb = ranks[b] as number;
    if (ra !== rb) return ra < rb;
    const ta = (items[a] as { text: string }).text;
    const tb = (items[b] as { text: string }).text;
    return ta !== tb ? ta < tb : a < b;
  };
  let last = -1;
  let size = Math.max(1, firstBatch);
  for (;;) {
    const next: number[] = []; // the best `size` after `last`, sorted
    for (let i = 0; i < n; i++) {
      if (last >= 0 && !before(last, i)) continue;
      if (next.length === size && !before(i, next[size - 1] as number)) continue;
      let at = next.length;
      while (at > 0 && before(i, next[at - 1] as number)) at--;
      next.splice(at, 0, i);
      if (next.length > size) next.pop();
    }
    if (next.length === 0) return;
    yield* next;
    last = next[next.length - 1] as number;
    size *= 4;
  }
}
