// The variants of one case: leave-one-out, seeded random subsets, the answer-bearing source moved through every
// position, and template sections removed. A pure function of the case, so a resumed explanation plans the same ones.
import { everyPlacement } from '../placement.js';
import { caseSeed, mulberry32 } from '../random.js';
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
    for (let i = 0; i < count; i++) {
      // Each source kept with probability ½, as in ContextCite.
      variants.push({ id: `subset:${i}`, kind: 'subsets', present: ids.filter(() => random() < 0.5) });
    }
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

/** Section names as a person reads them: the role, numbered from the second of the same role on. */
export function sectionNames(roles: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return roles.map((role) => {
    const n = (seen.get(role) ?? 0) + 1;
    seen.set(role, n);
    return n === 1 ? role : `${role}#${n}`;
  });
}
