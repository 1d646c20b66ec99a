// Faithfulness (ragas): the share of the response's statements that can be inferred from the retrieved contexts.
import type { CaseDocument, Evidence, Score } from '../../model.js';
import type { JudgeOutcome } from '../judging.js';
import { locateQuote } from './evidence.js';
import { judgeErrorScore } from '../judging.js';
import { joinContexts, undeterminedScore } from './judgeStep.js';
import type { StepContext } from './judgeStep.js';
import { judgeStatements } from './statements.js';
import type { NliVerdict } from './statements.js';

export const FAITHFULNESS = 'faithfulness';

export interface FaithfulnessInput {
  question: string;
  response: string;
  documents: readonly CaseDocument[];
  /** The response's statements: shared with noise sensitivity, so decomposed once per case. */
  responseStatements: () => Promise<JudgeOutcome<string[]>>;
}

/** One statement as the inspector shows it: the judge's verdict and reason, and where the support is. */
export interface StatementFinding {
  statement: string;
  verdict: 0 | 1;
  reason: string;
  quote: string | null;
  /** The quote located as an exact span in a document; absent when the judge gave none or paraphrased. */
  evidence?: Evidence;
}

/** Σ verdict / number of verdicts the judge returned (as the reference counts); no verdicts → null (NaN). */
export function faithfulnessScore(verdicts: readonly number[]): number | null {
  if (verdicts.length === 0) return null;
  return verdicts.reduce((sum, v) => sum + (v ? 1 : 0), 0) / verdicts.length;
}

/** Step: each verdict with its quote located in the documents (a supported statement only). */
function findings(verdicts: readonly NliVerdict[], documents: readonly CaseDocument[]): StatementFinding[] {
  return verdicts.map((v) => {
    const evidence = v.verdict === 1 ? locateQuote(documents, v.quote) : undefined;
    return { statement: v.statement, verdict: v.verdict, reason: v.reason, quote: v.quote, ...(evidence ? { evidence } : {}) };
  });
}

function explain(found: readonly StatementFinding[], value: number): string {
  const supported = found.filter((f) => f.verdict === 1).length;
  const lines = found.map((f, i) => `${i + 1}. ${f.verdict === 1 ? 'supported' : 'NOT supported'}: ${f.statement} — ${f.reason}`);
  return [`${supported} of ${found.length} statements can be inferred from the contexts (faithfulness ${value}).`, ...lines].join('\n');
}

/** Handler: check inputs, then statements → NLI over the joined contexts → score, keeping every verdict. */
export async function scoreFaithfulness(context: StepContext, input: FaithfulnessInput): Promise<Score> {
  if (input.response.trim() === '') return undeterminedScore(FAITHFULNESS, 'no-statements', 'The response is empty: there are no statements to check (NaN in the reference).');
  const statements = await input.responseStatements();
  if (!statements.ok) return judgeErrorScore(FAITHFULNESS, context.judge.key, `statement generation: ${statements.error}`, { raw: statements.raw });
  if (statements.value.length === 0) {
    return undeterminedScore(FAITHFULNESS, 'no-statements', 'The judge found no statements in the response, so nothing can be checked (NaN in the reference, never 0 or 1).', { statements: [] });
  }
  const nli = await judgeStatements(context, { context: joinContexts(input.documents.map((d) => d.text)), statements: statements.value });
  if (!nli.ok) return judgeErrorScore(FAITHFULNESS, context.judge.key, `NLI: ${nli.error}`, { statements: statements.value, raw: nli.raw });
  const value = faithfulnessScore(nli.value.map((v) => v.verdict));
  const found = findings(nli.value, input.documents);
  const details = { statements: found, generated: statements.value, judge: context.judge.key };
  if (value === null) return undeterminedScore(FAITHFULNESS, 'no-verdicts', 'The judge returned no verdicts for the statements (NaN in the reference).', details);
  const evidence = found.flatMap((f) => (f.evidence ? [f.evidence] : []));
  return {
    metric: FAITHFULNESS,
    value,
    label: value === 1 ? 'faithful' : 'unsupported-statements',
    explanation: explain(found, value),
    ...(evidence.length > 0 ? { evidence } : {}),
    details,
  };
}
