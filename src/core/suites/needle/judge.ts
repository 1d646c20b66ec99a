// The reference judge (LangChain labeled_score_string, accuracy criteria): prompt file, one call, [[rating]] parsing.
import { builtinPrompt } from '../../assets.js';
import type { ChatMessage, ModelClient } from '../../model.js';
import { loadTemplate, renderTemplate } from '../../prompt/template.js';
import type { PromptTemplate } from '../../prompt/template.js';

/** Renders a judge prompt file with its variables (the engine's template renderer; injectable for tests). */
export type JudgePromptRenderer = (file: string, variables: Record<string, unknown>) => Promise<ChatMessage[]>;

export const JUDGE_PROMPT = 'needle/judge.prompt';

const loaded = new Map<string, Promise<PromptTemplate>>();

/** Loads each judge prompt file once per process; every cell renders the same file. */
export const renderJudgePrompt: JudgePromptRenderer = async (file, variables) => {
  let template = loaded.get(file);
  if (!template) {
    template = loadTemplate(file);
    loaded.set(file, template);
  }
  return renderTemplate(await template, variables);
};

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

/** Render, call at temperature 0, parse; a failed call or an unreadable answer comes back as an error, never thrown. */
export async function askJudge(judge: ModelClient, input: JudgeInput, signal: AbortSignal, render: JudgePromptRenderer = renderJudgePrompt): Promise<JudgeOutcome> {
  let output: string;
  try {
    const messages = await render(builtinPrompt(JUDGE_PROMPT), { ...input });
    output = (await judge.complete({ messages, temperature: 0 }, signal)).text;
  } catch (error) {
    if (signal.aborted) throw error;
    return { error: `judge call failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = parseRating(output);
  return 'error' in parsed ? { output, error: parsed.error } : { output, rating: parsed.rating };
}
