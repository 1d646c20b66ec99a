// `rag-inspector mcp`: the product's tools for an editor's agent (Claude Code, Cursor, VS Code agent mode) over MCP on
// stdio — run an eval file, list its failed cases with their first cause, show one case, explain it, and compare two
// runs with the paired verdict — under the same guards a person has: a cost ceiling before anything is spent, and
// --contain for eval files the user did not write. Every answer is compact text with ids to follow up.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describeError, InputErrors } from '../core/errors.js';
import { estimateCost, formatUsd } from '../core/engine/costEstimate.js';
import { runEvaluation } from '../core/engine/runEvaluation.js';
import type { RunOptions } from '../core/engine/runEvaluation.js';
import { explainRun } from '../core/explain/explainRun.js';
import { runStatusLabel } from '../core/model.js';
import { envCredentials } from '../core/providers/registry.js';
import { comparePaired } from '../core/report/pairedComparison.js';
import { failureMessage } from '../core/report/runData.js';
import type { RunData, RunEntry } from '../core/report/runData.js';
import { runDataFromLog } from '../core/report/runDataSources.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { TOOL_VERSION } from '../core/version.js';
import { loadVendor } from '../core/vendor/load.js';
import { commandHelp } from './commandHelp.js';
import { formatComparison } from './compare.js';
import { formatExplanation, formatPlan } from './explainText.js';
import { formatTotals } from './summaryText.js';
import { print } from './terminal.js';

/** What the CLI lends the server: how it finds a run, and what --contain means for a folder. */
export interface McpHost {
  /** A run id, a run log path or "latest", looked up from `folder` as --resume does. */
  resolveRun(run: string, folder: string): Promise<string>;
  containOptions(folder: string, allowEndpoints: string[]): RunOptions['contain'];
}

interface McpSettings {
  root: string;
  maxCostUsd: number;
  contain?: { allowEndpoints: string[] };
}

/** Text answers are cut here: an agent's context is precious, and every list says how to see more. */
const MAX_ANSWER_CHARS = 12_000;
const DOCUMENT_PREVIEW_CHARS = 600;

export async function runMcpServer(argv: string[], host: McpHost): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { root: { type: 'string' }, 'max-cost': { type: 'string' }, contain: { type: 'boolean', default: false }, 'allow-endpoint': { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) {
    print(process.stdout, `${commandHelp('mcp')}\n`);
    return 0;
  }
  const maxCostUsd = values['max-cost'] === undefined ? 0 : Number(values['max-cost']);
  if (!(maxCostUsd >= 0)) {
    print(process.stderr, `rag-inspector mcp: --max-cost must be a number of dollars, e.g. 0.50; got '${values['max-cost']}'\n`);
    return 2;
  }
  const settings: McpSettings = { root: path.resolve(values.root ?? '.'), maxCostUsd, ...(values.contain ? { contain: { allowEndpoints: values['allow-endpoint'] ?? [] } } : {}) };
  const server = createMcpServer(settings, host);
  await server.connect(new (loadVendor('mcp').StdioServerTransport)());
  // The transport keeps the process alive until the client closes stdin.
  await new Promise<void>((resolve) => { server.server.onclose = () => resolve(); });
  return 0;
}

type ToolAnswer = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** A tool's text, bounded; a thrown error becomes an error answer in words the agent can act on, never a crash. */
async function answer(work: () => Promise<string>): Promise<ToolAnswer> {
  try {
    const text = await work();
    return { content: [{ type: 'text', text: text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}\n… (cut at ${MAX_ANSWER_CHARS} characters)` : text }] };
  } catch (error) {
    const message = error instanceof InputErrors ? error.errors.map((e) => e.format()).join('\n') : describeError(error);
    return { content: [{ type: 'text', text: message }], isError: true };
  }
}

export function createMcpServer(settings: McpSettings, host: McpHost): McpServer {
  const { McpServer, z } = loadVendor('mcp');
  const server = new McpServer({ name: 'rag-inspector', version: TOOL_VERSION });
  const contain = (folder: string) => (settings.contain ? host.containOptions(folder, settings.contain.allowEndpoints) : undefined);
  const inside = (file: string) => {
    const absolute = path.resolve(settings.root, file);
    if (settings.contain && path.relative(settings.root, absolute).startsWith('..')) throw new Error(`${file} is outside ${settings.root} (--contain)`);
    return absolute;
  };

  server.registerTool('run_eval', {
    title: 'Run an evaluation',
    description: 'Runs an eval file (*.eval.yaml) and returns its totals, status and the first failed cases with their causes. Refused when its estimated cost is above the server\'s --max-cost. `cases` runs only the cases whose id starts with one of the given prefixes.',
    inputSchema: { evalFile: z.string().describe('path of the eval file, relative to the workspace'), cases: z.array(z.string()).optional().describe('case id prefixes to run, e.g. ["noise/3/"]') },
  }, async ({ evalFile, cases }, extra) => answer(async () => {
    const specFile = inside(evalFile);
    const workspaceDir = path.dirname(specFile);
    const spec = await loadEvalSpec(specFile, { hostProviders: [], ...contain(workspaceDir) });
    const caseFilter = cases?.length ? (caseId: string) => cases.some((prefix) => caseId.startsWith(prefix)) : undefined;
    const estimate = await estimateCost(spec, caseFilter, extra.signal);
    if (estimate.usd > settings.maxCostUsd) {
      throw new Error(`refused: this run may cost up to ${formatUsd(estimate.usd)} (${estimate.calls} calls), above the ceiling of ${formatUsd(settings.maxCostUsd)}. Ask the user to run it, or to restart the server with a higher --max-cost.`);
    }
    const outcome = await runEvaluation(spec, { signal: extra.signal, credentials: envCredentials(process.env), workspaceDir, caseFilter });
    const run = await runDataFromLog(outcome.logFile);
    return [`run ${run.runId}: ${runStatusLabel(run.status)}`, formatTotals(run.totals), '', await failureLines(run, 10)].join('\n');
  }));

  server.registerTool('list_failures', {
    title: 'List failed cases',
    description: 'Lists the failed and errored cases of a run, each with its first cause (what failed, or the error). `run` is a run id, a run log path, or "latest".',
    inputSchema: { run: z.string().describe('run id, run log path, or "latest"'), limit: z.number().int().min(1).max(500).optional() },
  }, async ({ run, limit }) => answer(async () => failureLines(await runDataFromLog(await host.resolveRun(run, settings.root)), limit ?? 50)));

  server.registerTool('show_case', {
    title: 'Show one case',
    description: 'One case of a run: the question, each document with its role, the response, every score with the judge\'s explanation, or the error.',
    inputSchema: { run: z.string(), caseId: z.string(), model: z.string().optional().describe('provider:model, when the run has several') },
  }, async ({ run, caseId, model }) => answer(async () => {
    const data = await runDataFromLog(await host.resolveRun(run, settings.root));
    for await (const entry of data.entries()) {
      if (entry.result.caseId === caseId && (!model || entry.result.modelKey === model)) return caseText(entry);
    }
    throw new Error(`run ${data.runId} has no case ${caseId}${model ? ` on ${model}` : ''}: list_failures lists case ids`);
  }));

  server.registerTool('explain_case', {
    title: 'Explain a case',
    description: 'Says which document, position or instruction made a case come out as it did (documents left out, subsets, moved, instructions removed). Refused above the server\'s --max-cost.',
    inputSchema: { run: z.string(), caseId: z.string(), maxCalls: z.number().int().min(1).optional() },
  }, async ({ run, caseId, maxCalls }, extra) => answer(async () => {
    const runLog = await host.resolveRun(run, settings.root);
    const workspaceDir = path.dirname(path.dirname(path.dirname(runLog)));
    let refusal = '';
    const outcome = await explainRun(runLog, {
      workspaceDir, caseIds: [caseId], failed: false, ...(settings.contain ? { contain: contain(workspaceDir)?.contain } : {}), ...(maxCalls ? { maxCalls } : {}), signal: extra.signal, credentials: envCredentials(process.env),
      confirm: async (plan) => {
        if (plan.estimatedUsd <= settings.maxCostUsd) return true;
        refusal = `refused: ${formatPlan(plan)} — above the ceiling of ${formatUsd(settings.maxCostUsd)}. Pass a smaller maxCalls, or ask the user.`;
        return false;
      },
    });
    if (refusal) throw new Error(refusal);
    if (!outcome.explanation) throw new Error(`case ${caseId} could not be explained`);
    return formatExplanation(outcome.explanation);
  }));

  server.registerTool('compare_runs', {
    title: 'Compare two runs',
    description: 'Whether the change from one run to another helped: per suite, model and metric the cases fixed and broken, the change with its interval, the exact McNemar p-value and a verdict (better, worse, no detectable change).',
    inputSchema: { before: z.string().describe('the earlier run'), after: z.string().describe('the later run') },
  }, async ({ before, after }) => answer(async () => {
    const [a, b] = [await host.resolveRun(before, settings.root), await host.resolveRun(after, settings.root)];
    return formatComparison(await comparePaired(await runDataFromLog(a), await runDataFromLog(b)));
  }));

  return server;
}

/** The failed and errored cases of a run, one line each with the first cause, at most `limit`. */
async function failureLines(run: RunData, limit: number): Promise<string> {
  const lines: string[] = [];
  let failures = 0;
  for await (const { evalCase, result } of run.entries()) {
    if (result.status === 'success' && result.pass !== false) continue;
    failures += 1;
    if (lines.length < limit) lines.push(`${result.caseId} [${result.modelKey}]${evalCase ? ` ${evalCase.suiteId}` : ''}: ${failureMessage(result)}`);
  }
  if (failures === 0) return `run ${run.runId}: no failed or errored case`;
  return [`run ${run.runId}: ${failures} failed or errored case(s)${failures > lines.length ? `, the first ${lines.length} (limit raises it)` : ''}; show_case or explain_case takes an id`, ...lines].join('\n');
}

function preview(text: string): string {
  return text.length > DOCUMENT_PREVIEW_CHARS ? `${text.slice(0, DOCUMENT_PREVIEW_CHARS)}… (${text.length} characters)` : text;
}

function caseText({ evalCase, result }: RunEntry): string {
  const lines = [`case ${result.caseId} on ${result.modelKey}: ${result.status === 'error' ? 'error' : result.pass === true ? 'passed' : result.pass === false ? 'failed' : 'no verdict'}`];
  if (evalCase) {
    lines.push(`question: ${evalCase.question}`, `documents (${evalCase.documents.length}, in the order sent):`);
    for (const doc of evalCase.documents) lines.push(`  [${doc.id}] ${doc.role}: ${preview(doc.text)}`);
  }
  if (result.response) lines.push(`response: ${preview(result.response.text)}`);
  if (result.error) lines.push(`error (${result.error.stage}, ${result.error.kind}): ${result.error.message}`);
  for (const score of result.scores) {
    const verdict = score.judgeError ? `undetermined (judge error: ${score.judgeError})` : `${score.value ?? '—'}${score.pass === undefined ? '' : score.pass ? ' pass' : ' fail'}${score.label ? ` (${score.label})` : ''}`;
    lines.push(`score ${score.metric}: ${verdict}${score.explanation ? ` — ${preview(score.explanation)}` : ''}`);
  }
  return lines.join('\n');
}
