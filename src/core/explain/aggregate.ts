// Per suite and model, across explained cases: accuracy by the answer-bearing source's position, the passages that
// most often harm answers, and how often the decisive source is one the dataset labels answer-bearing.
import type { CaseExplanation, SuiteExplanation } from './model.js';

const MOST_HARMFUL = 5;

export function aggregateSuites(cases: readonly CaseExplanation[]): SuiteExplanation[] {
  const groups = new Map<string, CaseExplanation[]>();
  for (const e of cases) {
    const key = `${e.suiteId}\u0000${e.modelKey}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as CaseExplanation;
    return {
      suiteId: first.suiteId,
      modelKey: first.modelKey,
      cases: group.length,
      accuracyByPosition: accuracyByPosition(group),
      mostHarmful: mostHarmful(group),
      decisiveIsLabelled: decisiveIsLabelled(group),
    };
  });
}

function accuracyByPosition(group: readonly CaseExplanation[]): SuiteExplanation['accuracyByPosition'] {
  const counts = new Map<number, { passed: number; n: number }>();
  for (const e of group) {
    for (const point of e.positionCurve?.points ?? []) {
      // Undetermined points are left out of the denominator, as the reports keep undetermined apart.
      if (point.pass === null) continue;
      const count = counts.get(point.position) ?? { passed: 0, n: 0 };
      count.n += 1;
      if (point.pass) count.passed += 1;
      counts.set(point.position, count);
    }
  }
  return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([position, c]) => ({ position, ...c, accuracy: c.n ? c.passed / c.n : null }));
}

/** Grouped by the passage's text (its preview), so the same dataset passage harming several cases counts once per case. */
function mostHarmful(group: readonly CaseExplanation[]): SuiteExplanation['mostHarmful'] {
  const counts = new Map<string, { preview: string; role: string; cases: number }>();
  for (const e of group) {
    for (const a of e.attributions.filter((x) => x.effect === 'harms')) {
      const source = e.sources.find((s) => s.id === a.sourceId);
      const preview = source?.preview ?? a.sourceId;
      const entry = counts.get(preview) ?? { preview, role: a.role, cases: 0 };
      entry.cases += 1;
      counts.set(preview, entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.cases - a.cases || a.preview.localeCompare(b.preview)).slice(0, MOST_HARMFUL);
}

/** Counted per decisive source: a decisive source the dataset calls noise says the dataset's labels may be wrong. */
function decisiveIsLabelled(group: readonly CaseExplanation[]): SuiteExplanation['decisiveIsLabelled'] {
  let agree = 0;
  let n = 0;
  for (const e of group) {
    for (const a of e.attributions.filter((x) => x.effect === 'decisive')) {
      n += 1;
      if (a.answerBearing) agree += 1;
    }
  }
  return { agree, n };
}
