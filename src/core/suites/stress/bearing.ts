// Which of a row's passages bear the answer, by RGB's own rule (checkanswer: lowercase substring, any alternative
// of a part), and which answer parts each one bears: what noise, position and integration cases are built from.
import { checkAnswer } from '../rgb/match.js';
import type { AnswerParts } from '../rgb/rows.js';
import type { StressPrepared } from './judgedBearing.js';
import type { StressRow } from './rows.js';

export interface PassageBearing {
  /** Index in the row's contexts. */
  index: number;
  /** Answer parts (0-based) the passage contains. */
  parts: number[];
}

/** Parts of `answer` found in `text` under the scorer's rule. */
export function partsIn(text: string, answer: AnswerParts): number[] {
  return checkAnswer(text, answer).flatMap((part, i) => (part.label === 1 ? [i] : []));
}

/** True when any alternative of any part occurs in the text: such a passage is never a distractor for this answer. */
export function mentionsAnswer(text: string, answer: AnswerParts): boolean {
  const lower = text.toLowerCase();
  return answer.some((alternatives) => alternatives.some((alt) => lower.includes(alt.toLowerCase())));
}

/** Every passage bearing at least one answer part, in row order. */
export function answerBearing(contexts: readonly string[], answer: AnswerParts): PassageBearing[] {
  return contexts.flatMap((text, index) => {
    const parts = partsIn(text, answer);
    return parts.length === 0 ? [] : [{ index, parts }];
  });
}

export type BearingRule = 'match' | 'column' | 'judge';

/**
 * The row's answer-bearing passages: those its `answer_bearing` column names (a paraphrased answer no substring rule
 * finds), else those the judge said yes to (answerBearing: judge; every passage while a plan is only counted), else
 * those RGB's rule finds. Parts are still found by the rule, for information integration.
 */
export function bearingOf(row: Pick<StressRow, 'contexts' | 'answer' | 'answerBearing'>, prepared?: StressPrepared): { bearing: PassageBearing[]; rule: BearingRule } {
  const marked = row.answerBearing
    ?? (prepared?.kind === 'judged' ? prepared.verdicts?.filter((v) => v.verdict === 'yes').map((v) => v.index) : undefined)
    ?? (prepared?.kind === 'assumed' ? row.contexts.map((_, index) => index) : undefined);
  if (!marked) return { bearing: answerBearing(row.contexts, row.answer), rule: 'match' };
  return { bearing: marked.map((index) => ({ index, parts: partsIn(row.contexts[index] as string, row.answer) })), rule: row.answerBearing ? 'column' : 'judge' };
}

/**
 * Integration groups: one list of passage indexes per answer part, each passage in one group only, so a case never
 * shows a passage twice. A passage bearing several parts joins the part with the fewest passages so far.
 */
export function integrationGroups(bearing: readonly PassageBearing[], partCount: number): number[][] {
  const groups: number[][] = Array.from({ length: partCount }, () => []);
  for (const passage of bearing) {
    if (passage.parts.length === 0) continue; // marked by the column, but no part is found in it: no group to join
    const target = passage.parts.reduce((best, part) => ((groups[part] as number[]).length < (groups[best] as number[]).length ? part : best));
    (groups[target] as number[]).push(passage.index);
  }
  return groups;
}
