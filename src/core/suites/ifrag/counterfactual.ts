// Writes IF-RAG counterfactual data with an LLM: substitute the answer, rewrite the evidence, check it, retry once, else record the failure.
import { builtinPrompt } from '../../assets.js';
import { forEachConcurrent } from '../../pool.js';
import type { ChatMessage, DatasetRow, ModelClient } from '../../model.js';
import { loadTemplate, renderTemplate } from '../../prompt/template.js';
import { judgeJson } from '../judging.js';
import type { JudgeOutcome } from '../judging.js';
import { findAlias } from './normalise.js';
import { readIfRagRow } from './rows.js';
import type { IfRagRow } from './rows.js';

export const GENERATION_PROMPTS = {
  generate: 'ifrag/generate-counterfactual.prompt',
  retry: 'ifrag/generate-counterfactual-retry.prompt',
} as const;

/** What the model must return: a substitute answer and one rewritten passage per original passage. */
export interface GeneratedCounterfactual {
  answer: string;
  passages: string[];
}

export type CounterfactualOutcome =
  /** `data` is the row with its new `counterfactual`; `calls` counts model calls, repairs included. */
  | { status: 'generated'; row: DatasetRow; data: Record<string, unknown>; calls: number }
  /** The row already had counterfactual data: copied unchanged. */
  | { status: 'kept'; row: DatasetRow; data: Record<string, unknown>; calls: 0 }
  /** `data` is the row without counterfactual data and with `counterfactualError: reason`, never a bad generation. */
  | { status: 'failed'; row: DatasetRow; data: Record<string, unknown>; reason: string; calls: number; lastOutput?: string };

export interface GenerationProgress {
  done: number;
  total: number;
  failed: number;
  outcome: CounterfactualOutcome;
}

/** Renders a prompt file (the engine's renderer by default; injectable like RGB's judge prompts). */
export type PromptRenderer = (file: string, variables: Record<string, unknown>) => Promise<{ messages: ChatMessage[]; temperature?: number }>;

export interface GenerateCounterfactualsOptions {
  rows: readonly DatasetRow[];
  client: ModelClient;
  signal: AbortSignal;
  /** Recorded with every generated row; the CLI also gives it to providers that accept a sampling seed. */
  seed: number;
  /** Rows in flight at once; the client's scheduler still bounds the calls. */
  concurrency?: number;
  onProgress?: (progress: GenerationProgress) => void;
  render?: PromptRenderer;
  /**
   * How a row is read (IF-RAG's reader by default). The stress method passes its own, which gives the answer-bearing
   * passages of a RAGAS-style row; the generation, its check and what is written stay the same.
   */
  readRow?: (row: DatasetRow) => IfRagRow;
}

export interface GenerationSummary {
  outcomes: CounterfactualOutcome[];
  generated: number;
  kept: number;
  failed: number;
}

export const renderPromptFile: PromptRenderer = async (file, variables) => {
  const template = await loadTemplate(builtinPrompt(file));
  const temperature = template.frontMatter.parameters.temperature;
  return { messages: await renderTemplate(template, variables), ...(typeof temperature === 'number' ? { temperature } : {}) };
};

/**
 * The JSON schema of one generation. Lengths and counts are checked by generationProblem instead: OpenAI's strict
 * structured output rejects keywords such as minLength, and a count problem deserves the retry that names it.
 */
const GENERATION_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    answer: { type: 'string' },
    passages: { type: 'array', items: { type: 'string' } },
  },
  required: ['answer', 'passages'],
  additionalProperties: false,
};

// ——— the checks ———

const quote = (text: string) => `"${text}"`;

function listPassages(indexes: number[]): string {
  return `${indexes.length === 1 ? 'passage' : 'passages'} ${indexes.map((i) => i + 1).join(', ')}`;
}

/**
 * Why a generation cannot be used, or undefined. Matched like the scorer (RGB lowercase substring), so what passes
 * here is what scoring will see: the substitute in every rewritten passage, no spelling of the true answer in any,
 * and a substitute that is neither the true answer nor overlapping it.
 */
export function generationProblem(generated: GeneratedCounterfactual, row: IfRagRow): string | undefined {
  const substitute = generated.answer.trim();
  if (substitute === '') return 'the substitute answer is empty';
  if (generated.passages.length !== row.passages.length) return `expected ${row.passages.length} rewritten passages, got ${generated.passages.length}`;
  const overlapping = row.answer.find((alias) => findAlias(substitute, [alias], 'rgb') !== undefined || findAlias(alias, [substitute], 'rgb') !== undefined);
  if (overlapping !== undefined) return `the substitute answer ${quote(substitute)} is or overlaps the true answer ${quote(overlapping)}`;
  const problems: string[] = [];
  const missing = generated.passages.flatMap((p, i) => (findAlias(p, [substitute], 'rgb') === undefined ? [i] : []));
  if (missing.length > 0) problems.push(`${listPassages(missing)} of ${generated.passages.length} do not contain the substitute answer ${quote(substitute)}`);
  const leaks = generated.passages.flatMap((p, i) => {
    const alias = findAlias(p, row.answer, 'rgb');
    return alias === undefined ? [] : [`passage ${i + 1} still mentions the true answer ${quote(alias)}`];
  });
  problems.push(...leaks);
  return problems.length > 0 ? problems.join('; ') : undefined;
}

// ——— one row ———

interface RowJob {
  row: DatasetRow;
  ifragRow: IfRagRow;
  options: GenerateCounterfactualsOptions;
  render: PromptRenderer;
}

function withoutCounterfactual(data: Record<string, unknown>): Record<string, unknown> {
  const { counterfactual: _counterfactual, counterfactualError: _error, ...rest } = data;
  return rest;
}

function generatedData(job: RowJob, value: GeneratedCounterfactual, calls: number): Record<string, unknown> {
  const counterfactual = { answer: value.answer.trim(), passages: value.passages, generatedBy: { model: job.options.client.key, seed: job.options.seed, calls } };
  return { ...withoutCounterfactual(job.row.data), counterfactual };
}

function failed(job: RowJob, reason: string, calls: number, lastOutput?: string): CounterfactualOutcome {
  return { status: 'failed', row: job.row, data: { ...withoutCounterfactual(job.row.data), counterfactualError: reason }, reason, calls, ...(lastOutput !== undefined ? { lastOutput } : {}) };
}

async function ask(job: RowJob, messages: ChatMessage[], temperature: number | undefined): Promise<JudgeOutcome<GeneratedCounterfactual>> {
  const request = { name: 'ifrag_counterfactual', messages, schema: GENERATION_SCHEMA, ...(temperature !== undefined ? { temperature } : {}) };
  return judgeJson<GeneratedCounterfactual>(job.options.client, request, job.options.signal);
}

/** judgeJson words its errors for judges; here the model is a generator, and the reason lands in the user's dataset. */
function asGenerationError(error: string): string {
  return error.replace(/^judge call failed/, 'model call failed').replace(/^judge output/, 'model output');
}

/** First attempt; on a failed check one retry that names the problem; then generated or failed, never kept as it is. */
async function generateOne(job: RowJob): Promise<CounterfactualOutcome> {
  const { ifragRow } = job;
  const prompt = await job.render(GENERATION_PROMPTS.generate, { question: ifragRow.question, answer: ifragRow.answer[0], aliases: ifragRow.answer, passages: ifragRow.passages });
  const first = await ask(job, prompt.messages, prompt.temperature);
  if (!first.ok) return failed(job, asGenerationError(first.error), first.attempts, first.raw);
  const problem = generationProblem(first.value, ifragRow);
  if (problem === undefined) return { status: 'generated', row: job.row, data: generatedData(job, first.value, first.attempts), calls: first.attempts };

  const retry = await job.render(GENERATION_PROMPTS.retry, { problem, aliases: ifragRow.answer, count: ifragRow.passages.length });
  const second = await ask(job, [...prompt.messages, { role: 'assistant', content: first.raw }, ...retry.messages], prompt.temperature);
  const calls = first.attempts + second.attempts;
  if (!second.ok) return failed(job, `first attempt: ${problem}; retry: ${asGenerationError(second.error)}`, calls, second.raw);
  const again = generationProblem(second.value, ifragRow);
  if (again === undefined) return { status: 'generated', row: job.row, data: generatedData(job, second.value, calls), calls };
  return failed(job, `after one retry: ${again}`, calls, second.raw);
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function outcomeFor(row: DatasetRow, options: GenerateCounterfactualsOptions, render: PromptRenderer): Promise<CounterfactualOutcome> {
  let ifragRow: IfRagRow;
  try {
    ifragRow = (options.readRow ?? readIfRagRow)(row);
  } catch (error) {
    return { status: 'failed', row, data: row.data, reason: `not a usable ${options.readRow ? '' : 'IF-RAG '}row: ${describeError(error)}`, calls: 0 };
  }
  if (ifragRow.counterfactual) return { status: 'kept', row, data: row.data, calls: 0 };
  return generateOne({ row, ifragRow, options, render });
}

/**
 * One LLM generation per row lacking counterfactual data (rows that have it are kept as they are), in row order.
 * Cancellation rejects; every other problem ends as a failed outcome with its reason.
 */
export async function generateCounterfactuals(options: GenerateCounterfactualsOptions): Promise<GenerationSummary> {
  const render = options.render ?? renderPromptFile;
  const outcomes: CounterfactualOutcome[] = new Array(options.rows.length);
  let done = 0;
  let failedCount = 0;
  const indexed = options.rows.map((row, index) => ({ row, index }));
  await forEachConcurrent(indexed, options.concurrency ?? 4, options.signal, async ({ row, index }) => {
    const outcome = await outcomeFor(row, options, render);
    outcomes[index] = outcome;
    done++;
    if (outcome.status === 'failed') failedCount++;
    options.onProgress?.({ done, total: options.rows.length, failed: failedCount, outcome });
  });
  options.signal.throwIfAborted();
  return {
    outcomes,
    generated: outcomes.filter((o) => o.status === 'generated').length,
    kept: outcomes.filter((o) => o.status === 'kept').length,
    failed: failedCount,
  };
}

/** The new dataset as JSON Lines, in the input order: every row, generated, kept or marked failed. */
export function toJsonLines(summary: GenerationSummary): string {
  return summary.outcomes.map((o) => JSON.stringify(o.data)).join('\n') + '\n';
}
