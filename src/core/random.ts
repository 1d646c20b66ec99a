// Seeded randomness every method shares (shuffles, samples, per-case seeds), reproducible from the seed a case records.
// The reference methods seed Python's `random`; their order cannot be reproduced in JavaScript, so we use our own
// generator and record the seed in every case, which keeps runs reproducible and cache keys stable.

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/**
 * mulberry32: a 32-bit state generator, tiny and fast, with good enough statistics for shuffling five passages.
 * Chosen for being trivial to reimplement elsewhere from the recorded seed.
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the UTF-16 code units: stable across platforms and Node versions, unlike any built-in hash. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The seed of one case: the run seed and the case id, so each case's order is independent of row order and filters. */
export function caseSeed(runSeed: number, caseId: string): number {
  return fnv1a(`${runSeed}\u0000${caseId}`);
}

/** Random integer in [0, n). */
function randomIndex(random: Random, n: number): number {
  return Math.floor(random() * n);
}

/** Fisher–Yates shuffle into a new array (the input is left as it was). */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** `count` distinct items in random order, like Python's random.sample (count is capped at the population). */
export function sample<T>(items: readonly T[], count: number, random: Random): T[] {
  return shuffled(items, random).slice(0, Math.max(0, Math.min(count, items.length)));
}
