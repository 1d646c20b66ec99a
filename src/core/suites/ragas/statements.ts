// The two LLM steps faithfulness and noise sensitivity share: break a text into statements, then NLI of statements against a context.
import type { JudgeOutcome } from '../judging.js';
import { ask } from './judgeStep.js';
import type { JudgeStep, StepContext } from './judgeStep.js';

export interface StatementsInput {
  question: string;
  /** The text to decompose: the response, or the reference for noise sensitivity. */
  answer: string;
}

export interface StatementsOutput {
  statements: string[];
}

/** ragas StatementGeneratorPrompt. */
export const STATEMENTS_STEP: JudgeStep<StatementsInput, StatementsOutput> = {
  name: 'ragas_statements',
  prompt: 'ragas/statements.prompt',
  schema: {
    type: 'object',
    properties: {
      statements: { type: 'array', items: { type: 'string' }, description: 'The stand-alone statements, no pronouns.' },
    },
    required: ['statements'],
    additionalProperties: false,
  },
  variables: ({ question, answer }) => ({ question, answer }),
};

export interface NliInput {
  context: string;
  statements: string[];
}

export interface NliVerdict {
  statement: string;
  reason: string;
  verdict: 0 | 1;
  /**
   * Not in the reference: the passage of the context that supports the statement, copied exactly, so the
   * inspector can point at it. null when the verdict is 0 or the judge gave none.
   */
  quote: string | null;
}

export interface NliOutput {
  statements: NliVerdict[];
}

/** ragas NLIStatementPrompt, with the supporting quote added. */
export const NLI_STEP: JudgeStep<NliInput, NliOutput> = {
  name: 'ragas_nli',
  prompt: 'ragas/nli.prompt',
  schema: {
    type: 'object',
    properties: {
      statements: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            statement: { type: 'string', description: 'the original statement, word-by-word' },
            reason: { type: 'string', description: 'the reason of the verdict' },
            verdict: { type: 'integer', enum: [0, 1], description: 'the verdict (0/1) of the faithfulness' },
            quote: { type: ['string', 'null'], description: 'the passage of the context that supports the statement, copied exactly; null if none' },
          },
          required: ['statement', 'reason', 'verdict', 'quote'],
          additionalProperties: false,
        },
      },
    },
    required: ['statements'],
    additionalProperties: false,
  },
  variables: ({ context, statements }) => ({ context, statements }),
};

/** Step: decompose a text into statements (strings trimmed; blank ones dropped, they state nothing). */
export async function generateStatements(context: StepContext, input: StatementsInput): Promise<JudgeOutcome<string[]>> {
  const outcome = await ask(context, STATEMENTS_STEP, input);
  if (!outcome.ok) return outcome;
  return { ...outcome, value: outcome.value.statements.map((s) => s.trim()).filter((s) => s !== '') };
}

/** Step: NLI verdicts for statements against one context. No statements: no call, no verdicts. */
export async function judgeStatements(context: StepContext, input: NliInput): Promise<JudgeOutcome<NliVerdict[]>> {
  if (input.statements.length === 0) return { ok: true, value: [], raw: '', attempts: 0 };
  const outcome = await ask(context, NLI_STEP, input);
  if (!outcome.ok) return outcome;
  return { ...outcome, value: outcome.value.statements };
}

/**
 * Like judgeStatements, but the verdicts must line up with the statements one to one (noise sensitivity builds a
 * matrix from them); a judge that answers for more or fewer statements is a judge error, not a misaligned matrix.
 */
export async function judgeStatementsAligned(context: StepContext, input: NliInput): Promise<JudgeOutcome<NliVerdict[]>> {
  const outcome = await judgeStatements(context, input);
  if (!outcome.ok || outcome.value.length === input.statements.length) return outcome;
  return { ok: false, error: `the judge returned ${outcome.value.length} verdicts for ${input.statements.length} statements`, raw: outcome.raw, attempts: outcome.attempts };
}
