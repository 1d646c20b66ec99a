// The reference judge (LangChain labeled_score_string, accuracy criteria): its prompt file, one judge step, [[rating]] parsing.
import type { Judge } from '../judging.js';

export const JUDGE_PROMPT = 'needle/judge.prompt';

const DOUBLE_BRACKETS = /\[\[(.*?)\]\]/;
const VERDICTS = new Set(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);

/**
 * LangChain's ScoreStringResultOutputParser: the first `[[…]]` must hold exactly "1".."10"; anything else (no
 * brackets, "[[ 7 ]]", "[[7.5]]", a bare "10") is an error, never a score.
 */
export function parseRating(output: string): { rating: number } | { error: string } {
  const match = DOUBLE_BRACKETS.exec(output);
  if (!match) return { error: 'the judge gave no [[rating]]' };
  const verdict = match[1] as string;
  if (!VERDICTS.has(verdict)) return { error: `the judge's [[${verdict}]] is not a whole number from 1 to 10` };
  return { rating: Number(verdict) };
}

export interface JudgeInput {
  question: string;
  /** The ground truth: the needle, as the reference passes it. */
  reference: string;
  response: string;
}

export type JudgeOutcome = { output: string; rating: number } | { output?: string; error: string };

/** Ask, then parse; a failed step or an unreadable answer comes back as an error, never thrown (cancellation is). */
export async function askJudge(judge: Judge, input: JudgeInput): Promise<JudgeOutcome> {
  const outcome = await judge.ask(JUDGE_PROMPT, { ...input });
  if (!outcome.ok) return { error: outcome.error };
  const parsed = parseRating(outcome.value);
  return 'error' in parsed ? { output: outcome.value, error: parsed.error } : { output: outcome.value, rating: parsed.rating };
}
