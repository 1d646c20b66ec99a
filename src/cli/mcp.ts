// `rag-inspector mcp`: the product's tools for an editor's agent (Claude Code, Cursor, VS Code agent mode) over MCP on
// stdio — run an eval file, list its failed cases with their first cause, show one case, explain it, and compare two
// runs with the paired verdict — under the same guards a person has: a cost ceiling before anything is spent, and
// --contain for eval files the user did not write. The tools themselves are core's (core/agentTools); this is their
// MCP adapter and the CLI's way of running them.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AGENT_TOOLS, callAgentTool, inputSchemaOf } from '../core/agentTools/tools.js';
import type { AgentToolHost, ExplainRequest } from '../core/agentTools/tools.js';
import { estimateCost, formatUsd } from '../core/engine/costEstimate.js';
import { runEvaluation } from '../core/engine/runEvaluation.js';
import type { RunOptions } from '../core/engine/runEvaluation.js';
import { explainRun, planExplanation } from '../core/explain/explainRun.js';
import { formatPlan } from '../core/explain/explanationText.js';
import { envCredentials } from '../core/providers/registry.js';
import { workspaceOfRunLog } from '../core/run/runLog.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { TOOL_VERSION } from '../core/version.js';
import { loadVendor } from '../core/vendor/load.js';
import { commandHelp } from './commandHelp.js';
import { print } from './terminal.js';

/** What the CLI lends the server: how it finds a run, and what --contain means for a folder. */
export interface McpHost {
  /** A run id, a run log path or "latest", looked up from `folder` as --resume does. */
  resolveRun(run: string, folder: string): Promise<string>;
  containOptions(folder: string, allowEndpoints: string[]): RunOptions['contain'];
}

export interface McpSettings {
  root: string;
  maxCostUsd: number;
  contain?: { allowEndpoints: string[] };
}

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

/** The CLI's side of the tools (core/agentTools): runs go straight to the engine, held to the --max-cost ceiling. */
export function mcpToolHost(settings: McpSettings, host: McpHost): AgentToolHost {
  const contain = (folder: string) => (settings.contain ? host.containOptions(folder, settings.contain.allowEndpoints) : undefined);
  const load = (specFile: string) => loadEvalSpec(specFile, { hostProviders: [], ...contain(path.dirname(specFile)) });
  const explainOptions = ({ runLog, caseId, modelKey, maxCalls, signal }: ExplainRequest) => {
    const workspaceDir = workspaceOfRunLog(runLog);
    return { workspaceDir, caseIds: [caseId], modelKey, failed: false, ...(settings.contain ? { contain: contain(workspaceDir)?.contain } : {}), ...(maxCalls ? { maxCalls } : {}), signal, credentials: envCredentials(process.env) };
  };
  return {
    resolveRun: (run) => host.resolveRun(run, settings.root),
    evalFile(file) {
      const absolute = path.resolve(settings.root, file);
      if (settings.contain && path.relative(settings.root, absolute).startsWith('..')) throw new Error(`${file} is outside ${settings.root} (--contain)`);
      return absolute;
    },
    planRun: async (specFile, caseFilter, signal) => estimateCost(await load(specFile), caseFilter, signal),
    async runEval({ specFile, caseFilter, signal }) {
      // The spec priced is the one run: an eval file edited after a cost question cannot slip past the ceiling.
      const spec = await load(specFile);
      const estimate = await estimateCost(spec, caseFilter, signal);
      if (estimate.usd > settings.maxCostUsd) {
        throw new Error(`refused: this run may cost up to ${formatUsd(estimate.usd)} (${estimate.calls} calls), above the ceiling of ${formatUsd(settings.maxCostUsd)}. Ask the user to run it, or to restart the server with a higher --max-cost.`);
      }
      return (await runEvaluation(spec, { signal, credentials: envCredentials(process.env), workspaceDir: path.dirname(specFile), caseFilter })).logFile;
    },
    planExplanation: (request) => planExplanation(request.runLog, explainOptions(request)),
    async explainCase(request) {
      let refusal = '';
      const outcome = await explainRun(request.runLog, {
        ...explainOptions(request),
        confirm: (plan) => {
          if (plan.estimatedUsd <= settings.maxCostUsd) return true;
          refusal = `refused: ${formatPlan(plan)} — above the ceiling of ${formatUsd(settings.maxCostUsd)}. Pass a smaller maxCalls, or ask the user.`;
          return false;
        },
      });
      if (refusal) throw new Error(refusal);
      if (!outcome.explanation) throw new Error(`case ${request.caseId} could not be explained`);
      return outcome.explanation;
    },
  };
}

export function createMcpServer(settings: McpSettings, host: McpHost): McpServer {
  const { McpServer } = loadVendor('mcp');
  const server = new McpServer({ name: 'rag-inspector', version: TOOL_VERSION });
  const toolHost = mcpToolHost(settings, host);
  for (const tool of AGENT_TOOLS) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: inputSchemaOf(tool) }, async (input: unknown, extra) => {
      const answer = await callAgentTool(tool, input, toolHost, extra.signal);
      return { content: [{ type: 'text' as const, text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
    });
  }
  return server;
}
