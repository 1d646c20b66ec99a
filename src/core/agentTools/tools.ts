// The tools an editor's agent drives RAG Inspector with — run an eval file, list its failed cases, show one case,
// explain it, compare two runs — once for every host: each tool's input schema (zod, the one the MCP server lists and
// package.json's languageModelTools are generated from), what it costs before it runs, and its compact text answer
// with ids to follow up. A host lends the parts that are its own (how a run id is found, how a run starts and is
// guarded): the MCP server (src/cli/mcp.ts) and VS Code's language model tools (src/extension/languageModelTools.ts).
import type { z as Zod } from 'zod';
import { describeError, InputErrors } from '../errors.js';
import { describeIndexEstimate, formatUsd } from '../engine/costEstimate.js';
import type { CostEstimate } from '../engine/costEstimate.js';
import { formatExplanation, formatPlan } from '../explain/explanationText.js';
import type { ExplainPlan, RunExplanation } from '../explain/model.js';
import { runStatusLabel } from '../model.js';
import { formatComparison } from '../report/comparisonText.js';
import { comparePaired } from '../report/pairedComparison.js';
import { runDataFromLog } from '../report/runDataSources.js';
import { formatTotals } from '../report/summaryText.js';
import { loadVendor } from '../vendor/load.js';
import { caseText, failureLines, modelsOfCase } from './runText.js';

/** What a host lends the tools. Every method may throw; its message reaches the agent as the tool's error. */
export interface AgentToolHost {
  /** A run id, a run log path or "latest" → the run log file. */
  resolveRun(run: string): Promise<string>;
  /** An eval file as the agent named it → its absolute path (refused outside what the host allows). */
  evalFile(file: string): string;
  /** What running the eval file (these cases) may cost, estimated as the host would run it; nothing is sent. */
  planRun(specFile: string, caseFilter: CaseFilter | undefined, signal: AbortSignal): Promise<CostEstimate>;
  /** Runs the eval file through the host's guarded path; the run's log file. */
  runEval(request: { specFile: string; caseFilter?: CaseFilter; signal: AbortSignal }): Promise<string>;
  /** What explaining the case may cost (core's planExplanation with the host's options); nothing is sent. */
  planExplanation(request: ExplainRequest): Promise<ExplainPlan>;
  /** Explains the case through the host's guarded path. */
  explainCase(request: ExplainRequest): Promise<RunExplanation>;
}

export type CaseFilter = (caseId: string, modelKey: string) => boolean;

export interface ExplainRequest {
  runId: string;
  runLog: string;
  caseId: string;
  modelKey: string;
  maxCalls?: number;
  signal: AbortSignal;
}

/** What a call may spend, asked before it runs: the host confirms it (VS Code) or holds it to a ceiling (MCP). */
export interface CostPlan {
  usd: number;
  /** One sentence, e.g. "this run may cost up to $0.42 (120 calls)". */
  summary: string;
  /** More lines for a confirmation: tokens, unpriced models, what is not counted. */
  details: string[];
}

type Zod = typeof Zod;
type Schema = Zod.ZodObject;

export interface AgentTool<S extends Schema = Schema> {
  name: AgentToolName;
  title: string;
  /** For the model: what the tool does and what it answers. */
  description: string;
  /** Shown while it runs ("Running smoke.eval.yaml"). */
  invocationMessage(input: Zod.infer<S>): string;
  schema(z: Zod): S;
  /** Present when a call may spend money: its cost, before anything is sent. */
  plan?(input: Zod.infer<S>, host: AgentToolHost, signal: AbortSignal): Promise<CostPlan>;
  run(input: Zod.infer<S>, host: AgentToolHost, signal: AbortSignal): Promise<string>;
}

export const AGENT_TOOL_NAMES = ['run_eval', 'list_failures', 'show_case', 'explain_case', 'compare_runs'] as const;
export type AgentToolName = typeof AGENT_TOOL_NAMES[number];

/** Answers are cut here: an agent's context is precious, and every list says how to see more. */
export const MAX_ANSWER_CHARS = 12_000;

const casePrefixes = (cases: readonly string[] | undefined): CaseFilter | undefined =>
  cases?.length ? (caseId) => cases.some((prefix) => caseId.startsWith(prefix)) : undefined;

/** A tool whose handlers are typed by its schema (given first, so the input type is inferred from it). */
function tool<S extends Schema>(schema: (z: Zod) => S, definition: Omit<AgentTool<S>, 'schema'>): AgentTool {
  return { ...definition, schema } as unknown as AgentTool;
}

const runEval = tool((z) => z.object({
  evalFile: z.string().describe('path of the eval file, relative to the workspace'),
  cases: z.array(z.string()).optional().describe('case id prefixes to run, e.g. ["noise/3/"]'),
}), {
  name: 'run_eval',
  title: 'Run an evaluation',
  description: 'Runs an eval file (*.eval.yaml) and returns its totals, status and the first failed cases with their causes. A run that may cost money asks the user first (VS Code) or is refused above the server\'s --max-cost (MCP). `cases` runs only the cases whose id starts with one of the given prefixes.',
  invocationMessage: ({ evalFile, cases }) => `Running ${evalFile}${cases?.length ? ` (${cases.length} case prefix${cases.length === 1 ? '' : 'es'})` : ''}`,
  async plan({ evalFile, cases }, host, signal) {
    const estimate = await host.planRun(host.evalFile(evalFile), casePrefixes(cases), signal);
    return {
      usd: estimate.usd,
      summary: `this run may cost up to ${formatUsd(estimate.usd)} (${estimate.calls} calls)`,
      details: [
        `${estimate.calls} model calls, about ${estimate.inputTokens} input and up to ${estimate.outputTokens} output tokens; an upper bound: cached requests cost nothing, judge calls are not included.`,
        ...(estimate.index?.texts ? [describeIndexEstimate(estimate.index)] : []),
        ...(estimate.unpriced.length ? [`No price known for ${estimate.unpriced.join(', ')} (not counted).`] : []),
      ],
    };
  },
  async run({ evalFile, cases }, host, signal) {
    const logFile = await host.runEval({ specFile: host.evalFile(evalFile), caseFilter: casePrefixes(cases), signal });
    const run = await runDataFromLog(logFile);
    return [`run ${run.runId}: ${runStatusLabel(run.status)}`, formatTotals(run.totals), '', await failureLines(run, 10)].join('\n');
  },
});

const listFailures = tool((z) => z.object({
  run: z.string().describe('run id, run log path, or "latest"'),
  limit: z.number().int().min(1).max(500).optional().describe('at most this many cases (50 by default)'),
}), {
  name: 'list_failures',
  title: 'List failed cases',
  description: 'Lists the failed and errored cases of a run, each with its first cause (what failed, or the error). `run` is a run id, a run log path, or "latest".',
  invocationMessage: ({ run }) => `Listing the failed cases of ${run}`,
  run: async ({ run, limit }, host) => failureLines(await runDataFromLog(await host.resolveRun(run)), limit ?? 50),
});

const showCase = tool((z) => z.object({
  run: z.string().describe('run id, run log path, or "latest"'),
  caseId: z.string().describe('a case id, as list_failures lists them'),
  model: z.string().optional().describe('provider:model, when the run has several'),
}), {
  name: 'show_case',
  title: 'Show one case',
  description: 'One case of a run: the question, each document with its role, the response, every score with the judge\'s explanation, or the error.',
  invocationMessage: ({ caseId }) => `Reading case ${caseId}`,
  async run({ run, caseId, model }, host) {
    const data = await runDataFromLog(await host.resolveRun(run));
    for await (const entry of data.entries()) {
      if (entry.result.caseId === caseId && (!model || entry.result.modelKey === model)) return caseText(entry);
    }
    throw new Error(`run ${data.runId} has no case ${caseId}${model ? ` on ${model}` : ''}: list_failures lists case ids`);
  },
});

/** The (run, case, model) an explain_case call names, its model found when the run has the case on one model only. */
async function explainTarget(input: { run: string; caseId: string; model?: string; maxCalls?: number }, host: AgentToolHost, signal: AbortSignal): Promise<ExplainRequest> {
  const runLog = await host.resolveRun(input.run);
  const data = await runDataFromLog(runLog);
  const models = await modelsOfCase(data, input.caseId);
  if (models.length === 0) throw new Error(`run ${data.runId} has no case ${input.caseId}: list_failures lists case ids`);
  if (input.model && !models.includes(input.model)) throw new Error(`run ${data.runId} has case ${input.caseId} on ${models.join(', ')}, not on ${input.model}`);
  if (!input.model && models.length > 1) throw new Error(`case ${input.caseId} ran on ${models.join(', ')}: pass model to say which to explain`);
  return { runId: data.runId, runLog, caseId: input.caseId, modelKey: input.model ?? (models[0] as string), ...(input.maxCalls ? { maxCalls: input.maxCalls } : {}), signal };
}

const explainCase = tool((z) => z.object({
  run: z.string().describe('run id, run log path, or "latest"'),
  caseId: z.string().describe('a case id, as list_failures lists them'),
  model: z.string().optional().describe('provider:model, when the run has the case on several'),
  maxCalls: z.number().int().min(1).optional().describe('at most this many model calls (a partial explanation)'),
}), {
  name: 'explain_case',
  title: 'Explain a case',
  description: 'Says which document, position or instruction made a case come out as it did (documents left out, subsets, moved, instructions removed): runs variants of the case, so it may cost money; asked first (VS Code) or refused above the server\'s --max-cost (MCP).',
  invocationMessage: ({ caseId }) => `Explaining case ${caseId}`,
  async plan(input, host, signal) {
    const plan = await host.planExplanation(await explainTarget(input, host, signal));
    return { usd: plan.estimatedUsd, summary: formatPlan(plan), details: [] };
  },
  async run(input, host, signal) {
    return formatExplanation(await host.explainCase(await explainTarget(input, host, signal)));
  },
});

const compareRuns = tool((z) => z.object({
  before: z.string().describe('the earlier run: run id, run log path, or "latest"'),
  after: z.string().describe('the later run: run id, run log path, or "latest"'),
}), {
  name: 'compare_runs',
  title: 'Compare two runs',
  description: 'Whether the change from one run to another helped: per suite, model and metric the cases fixed and broken, the change with its interval, the exact McNemar p-value and a verdict (better, worse, no detectable change).',
  invocationMessage: ({ before, after }) => `Comparing ${before} with ${after}`,
  async run({ before, after }, host) {
    const [a, b] = [await host.resolveRun(before), await host.resolveRun(after)];
    return formatComparison(await comparePaired(await runDataFromLog(a), await runDataFromLog(b)));
  },
});

export const AGENT_TOOLS: readonly AgentTool[] = [runEval, listFailures, showCase, explainCase, compareRuns];

export function agentTool(name: string): AgentTool {
  const found = AGENT_TOOLS.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}; the tools are ${AGENT_TOOL_NAMES.join(', ')}`);
  return found;
}

/** A tool's input schema, built with the zod the MCP SDK is bundled with (one instance for the server and the checks). */
export function inputSchemaOf(tool: AgentTool): Schema {
  return tool.schema(loadVendor('mcp').z);
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
}

/** The words an agent gets for a thrown error: every problem of an eval file with its file:line, else the cause. */
export function errorText(error: unknown): string {
  return error instanceof InputErrors ? error.errors.map((e) => e.format()).join('\n') : describeError(error);
}

/** Text cut at MAX_ANSWER_CHARS, saying so. */
export function bounded(text: string): string {
  return text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}\n… (cut at ${MAX_ANSWER_CHARS} characters)` : text;
}

/**
 * Checks `input` against the tool's schema and runs it: the answer bounded, a thrown error an error answer in words
 * the agent can act on (never a crash). Cancellation is rethrown, so the host reports it as its own.
 */
export async function callAgentTool(tool: AgentTool, input: unknown, host: AgentToolHost, signal: AbortSignal): Promise<ToolAnswer> {
  try {
    const parsed = parseInput(tool, input);
    return { text: bounded(await tool.run(parsed, host, signal)), isError: false };
  } catch (error) {
    if (signal.aborted) throw error;
    return { text: errorText(error), isError: true };
  }
}

/** The input as the tool's schema reads it; a malformed one is an error naming each field and what it should be. */
export function parseInput(tool: AgentTool, input: unknown): Zod.infer<Schema> {
  const result = inputSchemaOf(tool).safeParse(input ?? {});
  if (result.success) return result.data;
  throw new Error(`${tool.name}: ${result.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}`);
}
