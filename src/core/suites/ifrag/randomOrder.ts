// A lazily drawn random permutation of 0..n-1, for taking a few items from a large pool without shuffling it all.
import type { Random } from '../../random.js';

/**
 * Forward Fisher–Yates with the swaps kept in a map: each index costs O(1), so taking m items of n costs O(m),
 * not O(n). Drawing all n yields a uniform permutation, the same one the same generator state always gives.
 */
export function* randomOrder(n: number, random: Random): Generator<number> {
  const swapped = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (n - i));
    const atJ = swapped.get(j) ?? j;
    swapped.set(j, swapped.get(i) ?? i);
    swapped.delete(i);
    yield atJ;
  }
}
