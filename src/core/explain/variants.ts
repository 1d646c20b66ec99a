// The variants of one case: leave-one-out, every subset or distinct seeded ones, the answer-bearing source moved through every
// position, and template sections removed. A pure function of the case, so a resumed explanation plans the same ones.
import { everyPlacement } from '../placement.js';
import { caseSeed, mulberry32, sample, shuffled } from '../random.js';
import type { Random } from '../random.js';
import type { ExplainSource, VariantKind, VariantSpec } from './model.js';

/** Subsets per case when none is asked: known from the number of sources, so the cost is known before the run (ContextCite uses 32–64). */
export function defaultSubsetCount(sources: number): number {
  return Math.min(64, Math.max(16, 2 * sources));
}

export interface VariantRequest {
  caseId: string;
  seed: number;
  sources: readonly ExplainSource[];
  /** Names of the template's sections ("system", "user", "user#2"); instruction variants remove one at a time. */
  sections: readonly string[];
  kinds: readonly VariantKind[];
  subsets?: number;
}

/** The original comes first: every comparison is made against it, and it is usually a cache hit of the run itself. */
export function planVariants(request: VariantRequest): VariantSpec[] {
  const ids = request.sources.map((s) => s.id);
  const variants: VariantSpec[] = [{ id: 'original', kind: 'original', present: ids }];
  if (ids.length > 0 && request.kinds.includes('loo')) {
    for (const id of ids) variants.push({ id: `loo:${id}`, kind: 'loo', present: ids.filter((other) => other !== id) });
  }
  if (ids.length > 1 && request.kinds.includes('subsets')) {
    const random = mulberry32(caseSeed(request.seed, `${request.caseId}\u0000explain-subsets`));
    const count = request.subsets ?? defaultSubsetCount(ids.length);
    drawSubsets(ids.length, count, random).forEach((mask, i) => {
      variants.push({ id: `subset:${i}`, kind: 'subsets', present: ids.filter((_, j) => mask[j]) });
    });
  }
  const bearing = request.sources.find((s) => s.answerBearing);
  if (bearing && ids.length > 1 && request.kinds.includes('position')) {
    const others = ids.filter((id) => id !== bearing.id);
    everyPlacement(others, bearing.id).forEach((present, position) => variants.push({ id: `position:${position}`, kind: 'position', position, present }));
  }
  // The last user section carries the documents and the question: removing it asks nothing, so it is kept.
  const lastUser = request.sections.findLastIndex((name) => name.split('#')[0] === 'user');
  const removable = request.sections.filter((_, i) => i !== lastUser);
  if (request.kinds.includes('instruction')) {
    for (const section of removable) variants.push({ id: `instruction:${section}`, kind: 'instruction', present: ids, removedSection: section });
  }
  return variants;
}

/** True when every subset of `sources` fits in the subset budget: then the subsets are all of them, none drawn. */
export function enumeratesSubsets(sources: number, budget: number): boolean {
  return sources < 31 && 2 ** sources <= budget;
}

/**
 * Which sources each subset keeps. Drawing each source with probability ½ (ContextCite) repeats subsets and, with few
 * sources, misses some entirely — a missing full set or single leaves a source's weight to chance. So: when every
 * subset fits in the budget, all of them (identical variants are sent once, so the full set and the leave-one-out
 * ones cost no call); otherwise distinct subsets, as many of each size as uniform sampling would give on average
 * (sizes stratified by their share of all subsets), never the same one twice.
 */
export function drawSubsets(sources: number, budget: number, random: Random): boolean[][] {
  if (enumeratesSubsets(sources, budget)) {
    return Array.from({ length: 2 ** sources }, (_, bits) => Array.from({ length: sources }, (__, j) => ((bits >> j) & 1) === 1));
  }
  const masks: boolean[][] = [];
  sizeQuotas(sources, budget).forEach((quota, size) => {
    for (const chosen of distinctCombinations(sources, size, quota, random)) {
      const mask = new Array<boolean>(sources).fill(false);
      for (const j of chosen) mask[j] = true;
      masks.push(mask);
    }
  });
  // Interleave the sizes so a budget cut (--max-calls) still leaves a spread of sizes.
  return shuffled(masks, random);
}

/** How many subsets of each size: `budget` split in proportion to C(n, k), largest remainders first, at most C(n, k). */
function sizeQuotas(n: number, budget: number): number[] {
  const logChoose = (k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k);
  const share = Array.from({ length: n + 1 }, (_, k) => Math.exp(logChoose(k) - n * Math.LN2) * budget);
  const capacity = Array.from({ length: n + 1 }, (_, k) => Math.round(Math.exp(logChoose(k))));
  const quotas = share.map((s, k) => Math.min(Math.floor(s), capacity[k] as number));
  let left = budget - quotas.reduce((a, b) => a + b, 0);
  const order = share.map((s, k) => ({ k, remainder: s - Math.floor(s) })).sort((a, b) => b.remainder - a.remainder || a.k - b.k);
  while (left > 0) {
    const open = order.filter(({ k }) => (quotas[k] as number) < (capacity[k] as number));
    if (open.length === 0) break;
    for (const { k } of open) {
      if (left === 0) break;
      quotas[k] = (quotas[k] as number) + 1;
      left -= 1;
    }
  }
  return quotas;
}

/** `want` distinct k-subsets of 0..n-1 (as sorted index lists). */
function distinctCombinations(n: number, k: number, want: number, random: Random): number[][] {
  const found = new Map<string, number[]>();
  const indices = Array.from({ length: n }, (_, i) => i);
  while (found.size < want) {
    // The quota is at most a share of C(n, k), so a repeat is rare and simply drawn again.
    const chosen = sample(indices, k, random).sort((a, b) => a - b);
    found.set(chosen.join(','), chosen);
  }
  return [...found.values()];
}

function logFactorial(n: number): number {
  let sum = 0;
  for (let i = 2; i <= n; i++) sum += Math.log(i);
  return sum;
}

/** Section names as a person reads them: the role, numbered from the second of the same role on. */
export function sectionNames(roles: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return roles.map((role) => {
    const n = (seen.get(role) ?? 0) + 1;
    seen.set(role, n);
    return n === 1 ? role : `${role}#${n}`;
  });
}
