// The explanation as terminal text: the plan before anything is spent, then per case its one-line summary and a
// line per document (effect, attribution, support) and whether the faithfulness check holds, then the per-suite
// aggregates.
import type { CaseExplanation, ExplainPlan, FaithfulnessCheck, RunExplanation, SuiteExplanation } from './model.js';

export function formatPlan(plan: ExplainPlan): string {
  const usd = plan.estimatedUsd > 0 ? `about $${plan.estimatedUsd.toFixed(4)} at most` : 'no cost known';
  const lines = [
    `explain: ${plan.cases.length} case${plan.cases.length === 1 ? '' : 's'}, ${plan.variants} variants (${plan.alreadyDone} already done, ${plan.fromCache} from the cache): ${plan.calls} model call${plan.calls === 1 ? '' : 's'}${plan.checks ? ` (${plan.checks} of them at most for the faithfulness checks)` : ''}, ${usd}`,
  ];
  if (plan.unpriced.length) lines.push(`  no price known for ${plan.unpriced.join(', ')} (not counted)`);
  if (plan.truncated) lines.push('  --max-calls leaves some variants out: the explanation will be partial');
  return lines.join('\n');
}

/** The faithfulness check's verdict, first on its line: a check that fails must not read like one that passed. */
const CHECK_WORDS: Record<FaithfulnessCheck['status'], string> = {
  flips: 'holds',
  'does-not-flip': 'FAILS — the attribution may mislead',
  undetermined: 'undetermined',
  'not-run': 'not run',
  'nothing-to-check': 'nothing to check',
};

const signed = (value: number | null) => (value === null ? '   —  ' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}`.padStart(6));

export function formatCaseExplanation(e: CaseExplanation): string {
  const lines = [`${e.caseId} on ${e.modelKey}: ${e.summary}`];
  for (const a of e.attributions) {
    const support = `loo ${a.support.leaveOneOut}, subsets ${a.support.subsetsWith}+${a.support.subsetsWithout}`;
    lines.push(`  ${a.sourceId.padEnd(8)} ${a.role.padEnd(14)} ${a.effect.padEnd(12)} ${signed(a.attribution)}  (${support})${a.answerBearing ? '  answer-bearing' : ''}`);
  }
  if (e.positionCurve) lines.push(`  position of ${e.positionCurve.sourceId}: ${e.positionCurve.points.map((p) => `${p.position + 1}:${p.pass === null ? '?' : p.pass ? '✓' : '✗'}`).join(' ')}`);
  if (e.faithfulness) lines.push(`  check: ${CHECK_WORDS[e.faithfulness.status]}: ${e.faithfulness.note}`);
  if (e.surrogate) lines.push(`  surrogate: ${e.surrogate.samples} subsets, R² ${e.surrogate.r2}, agrees with leave-one-out ${e.surrogate.agreementWithLeaveOneOut ?? '—'}`);
  return lines.join('\n');
}

function formatSuite(s: SuiteExplanation): string {
  const lines = [`${s.suiteId} on ${s.modelKey}: ${s.cases} explained case${s.cases === 1 ? '' : 's'}`];
  if (s.accuracyByPosition.length) lines.push(`  accuracy by position of the answer-bearing document: ${s.accuracyByPosition.map((p) => `${p.position + 1}: ${p.passed}/${p.n}`).join(', ')}`);
  for (const h of s.mostHarmful) lines.push(`  harms ${h.cases} case${h.cases === 1 ? '' : 's'}: ${h.role} "${h.preview}"`);
  if (s.decisiveIsLabelled.n) lines.push(`  decisive document labelled answer-bearing by the dataset: ${s.decisiveIsLabelled.agree}/${s.decisiveIsLabelled.n}`);
  return lines.join('\n');
}

export function formatExplanation(explanation: RunExplanation): string {
  const parts = explanation.cases.map(formatCaseExplanation);
  if (explanation.suites.length) parts.push(explanation.suites.map(formatSuite).join('\n'));
  parts.push(`calls: ${explanation.calls.model} to models, ${explanation.calls.cached} from the cache, ${explanation.calls.judge} to the judge${explanation.status === 'cancelled' ? ' — cancelled: run the same command again to finish it' : ''}`);
  return parts.join('\n\n');
}
