// params.answerBearing: judge — before a row's cases are built, the judge decides for each retrieved passage whether
// it contains the reference answer, word for word or paraphrased (Suite.prepareRow). Its verdicts are what the cases
// are built from and are recorded on them; a verdict that cannot be read leaves the row reported at its line.
import { InputError } from '../../errors.js';
import type { DatasetRow } from '../../model.js';
import type { PrepareContext } from '../contract.js';
import type { AnswerParts } from '../rgb/rows.js';
import type { StressParams } from './params.js';
import { readStressRow } from './rows.js';

export const BEARING_PROMPT = 'stress/judge-answer-bearing.prompt';

/** OpenAI strict-mode compatible: every property required, no others. */
const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    reason: { type: 'string', description: 'Why the passage does or does not state the reference answer' },
    verdict: { type: 'string', enum: ['yes', 'no'], description: 'yes: the passage contains the reference answer' },
  },
  required: ['reason', 'verdict'],
  additionalProperties: false,
} as const;

interface VerdictAnswer {
  reason: string;
  verdict: 'yes' | 'no';
}

/** One passage's verdict, as recorded on the row's cases: why it was (not) taken as answer-bearing. */
export interface PassageVerdict {
  /** Index in the row's contexts. */
  index: number;
  verdict: 'yes' | 'no';
  reason: string;
}

/**
 * What preparation gives case building. `judged`: the judge's verdict on every passage. `assumed`: the plan is only
 * counted or priced (no judge may be called then), so every passage is taken as answer-bearing: the row gives the
 * cases it will give when judged, with as many passages, and is never run like this.
 */
export type StressPrepared =
  | { kind: 'judged'; judge: string; verdicts: PassageVerdict[] }
  | { kind: 'assumed' };

/** The reference as the judge reads it: alternatives joined by "or", parts by "and". */
export function referenceText(answer: AnswerParts): string {
  return answer.map((alternatives) => alternatives.join(' or ')).join(' and ');
}

/**
 * Suite.prepareRow for stress: nothing unless answerBearing is judge and the row has no answer_bearing column. One judge call per passage, through the judge
 * step (rendered prompt, schema-checked JSON with one repair, the run's cache); cancellation is rethrown by it.
 * A row with an unreadable verdict, or with no passage the judge finds answer-bearing, is an InputError at its line.
 */
export async function prepareStressRow(row: DatasetRow, params: StressParams, context: PrepareContext): Promise<StressPrepared | undefined> {
  if (params.answerBearing !== 'judge') return undefined;
  const judge = context.judge;
  if (!judge) return { kind: 'assumed' };
  const stressRow = readStressRow(row);
  // The row's own answer_bearing column wins over any rule: the user has said which passages bear the answer.
  if (stressRow.answerBearing) return undefined;
  const reference = referenceText(stressRow.answer);
  const outcomes = await Promise.all(stressRow.contexts.map((passage) => judge.ask<VerdictAnswer>(BEARING_PROMPT, {
    question: stressRow.question,
    reference,
    passage,
    output_schema: JSON.stringify(VERDICT_SCHEMA),
  }, { schema: { name: 'answer_bearing', schema: VERDICT_SCHEMA } })));
  const at = { file: row.ref.file, line: row.ref.line };
  const unread = outcomes.flatMap((outcome, index) => (outcome.ok ? [] : [`passage ${index} (${outcome.error})`]));
  if (unread.length > 0) {
    throw new InputError(at, `stress row: the judge ${judge.key} gave no readable answer-bearing verdict for ${unread.join('; ')}; the row is not built, since those passages are neither answer-bearing nor distractors`, `check the judge model and ${BEARING_PROMPT}; the judge must answer {"reason": …, "verdict": "yes" or "no"}`);
  }
  const verdicts = outcomes.map((outcome, index): PassageVerdict => {
    const { verdict, reason } = (outcome as { value: VerdictAnswer }).value;
    return { index, verdict, reason };
  });
  if (!verdicts.some((v) => v.verdict === 'yes')) {
    throw new InputError(at, `stress row: the judge ${judge.key} found none of the ${verdicts.length} retrieved passages to contain the reference answer "${reference}"; the row cannot be stressed`, 'check the reference answer, or name the passages that bear it: answer_bearing: [0] (the column wins over the judge)');
  }
  return { kind: 'judged', judge: judge.key, verdicts };
}
