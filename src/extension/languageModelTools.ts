// The agent's tools in VS Code: core's five tools (core/agentTools) registered with vscode.lm.registerTool, each
// run through the path a person's command takes — the run through RunLauncher (progress, Cancel, the run log, the
// inspector), Explain through the Explainer — with its cost shown in prepareInvocation's confirmation above
// ragInspector.maxCostWithoutConfirm, and nothing run for an agent in Restricted Mode. Also offers `rag-inspector mcp`
// to VS Code's MCP support (registerMcpServerDefinitionProvider), where this VS Code has it.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AGENT_TOOLS, callAgentTool, parseInput } from '../core/agentTools/tools.js';
import type { AgentTool, AgentToolHost, CostPlan } from '../core/agentTools/tools.js';
import { formatUsd } from '../core/engine/costEstimate.js';
import { caseKey } from '../core/model.js';
import { isInside } from '../core/spec/containment.js';
import { storedExplanation } from './explainFailure.js';
import type { Explainer } from './explainFailure.js';
import { maxCostWithoutConfirm } from './launch.js';
import type { RunLauncher } from './launch.js';
import type { Logger } from './outputChannel.js';
import type { RunStore } from './runStore.js';
import type { UntrustedWorkspaceGate } from './untrustedWorkspace.js';

export interface AgentToolDeps {
  launcher: RunLauncher;
  explainer: Explainer;
  store: Pick<RunStore, 'listRuns' | 'logFileOf'>;
  untrusted: Pick<UntrustedWorkspaceGate, 'trusted' | 'containment'>;
  logger: Logger;
}

/** The name VS Code knows a core tool by (package.json's languageModelTools). */
export const vscodeToolName = (name: string) => `ragInspector_${name}`;

export const UNTRUSTED_TOOL_REFUSAL = 'refused: this workspace is not trusted (Restricted Mode), and RAG Inspector runs nothing an agent asks for there. Trust the workspace (Workspaces: Manage Workspace Trust), or start the run from the command palette.';

/** What the extension hands the integration tests: each tool as VS Code calls it, and the MCP server definitions. */
export interface AgentToolsApi {
  tools: ReadonlyMap<string, vscode.LanguageModelTool<object>>;
  mcpServers(): McpStdioDefinitionLike[];
}

/** A core tool as a VS Code language model tool. */
export class VsCodeAgentTool implements vscode.LanguageModelTool<object> {
  /** Costs the user accepted in prepareInvocation's confirmation, by input, taken by the invoke that follows. */
  private readonly accepted = new Map<string, number>();

  constructor(private readonly tool: AgentTool, private readonly deps: AgentToolDeps) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<object>, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation> {
    let input;
    try {
      input = parseInput(this.tool, options.input);
    } catch {
      return {}; // invoke says what is wrong with the input
    }
    const invocationMessage = this.tool.invocationMessage(input);
    // Nothing to price where nothing will run: invoke refuses in Restricted Mode.
    if (!this.tool.plan || !this.deps.untrusted.trusted) return { invocationMessage };
    let plan: CostPlan;
    try {
      plan = await this.tool.plan(input, this.host(token), abortSignalOf(token));
    } catch {
      return { invocationMessage }; // invoke reports the same problem in words the agent can act on
    }
    const limit = maxCostWithoutConfirm();
    if (plan.usd === 0 || plan.usd <= limit) return { invocationMessage };
    this.accepted.set(JSON.stringify(options.input), plan.usd);
    // Plain text: VS Code shows a string as it is (a MarkdownString's appendText would escape every space).
    const message = [`${plan.summary[0]?.toUpperCase() ?? ''}${plan.summary.slice(1)}.`, ...plan.details, `Above ragInspector.maxCostWithoutConfirm (${formatUsd(limit)}).`].join('\n\n');
    return { invocationMessage, confirmationMessages: { title: `RAG Inspector: ${this.tool.title} for up to ${formatUsd(plan.usd)}?`, message } };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<object>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const key = JSON.stringify(options.input);
    const acceptedUsd = this.accepted.get(key);
    this.accepted.delete(key);
    this.deps.logger.info(`Agent tool ${this.tool.name}: ${key}`);
    const signal = abortSignalOf(token);
    let answer;
    try {
      answer = await callAgentTool(this.tool, options.input, this.host(token, acceptedUsd), signal);
    } catch (error) {
      if (signal.aborted) throw new vscode.CancellationError();
      throw error;
    }
    if (answer.isError) {
      this.deps.logger.warn(`Agent tool ${this.tool.name}: ${answer.text}`);
      // A thrown error reaches the model as the tool's answer; its words say what to do.
      throw new Error(answer.text);
    }
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer.text)]);
  }

  /** VS Code's side of core's tools, for one call: its token cancels, and the cost the user accepted for it. */
  private host(token: vscode.CancellationToken, acceptedUsd?: number): AgentToolHost {
    const { launcher, explainer, store, untrusted } = this.deps;
    const folder = () => vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
    const refuseUntrusted = () => {
      if (!untrusted.trusted) throw new Error(UNTRUSTED_TOOL_REFUSAL);
    };
    const inWorkspace = (file: string) => {
      const base = folder();
      if (!base) throw new Error('no workspace folder is open: open the folder that holds the eval file');
      const absolute = path.resolve(base, file);
      const roots = untrusted.containment()?.roots;
      if (roots && !isInside(absolute, roots)) throw new Error(`${file} is outside the workspace, and this workspace is not trusted`);
      return absolute;
    };
    return {
      async resolveRun(run) {
        const runs = await store.listRuns();
        if (run === 'latest') {
          const [newest] = runs;
          if (!newest) throw new Error('there are no runs in this workspace yet: run_eval starts one');
          return store.logFileOf(newest.runId);
        }
        if (runs.some((r) => r.runId === run)) return store.logFileOf(run);
        const file = inWorkspace(run);
        if (existsSync(file)) return file;
        throw new Error(`no run ${run} in this workspace (a run id, a run log path, or "latest")`);
      },
      evalFile: inWorkspace,
      planRun: (specFile, caseFilter) => launcher.estimate(specFile, caseFilter),
      async runEval({ specFile, caseFilter }) {
        refuseUntrusted();
        let failure: unknown;
        const outcome = await launcher.launch({
          specFile, title: 'Run Evaluation (agent)', caseFilter, openInspector: true, announce: true,
          alsoCancelledBy: token, ...(acceptedUsd !== undefined ? { acceptedUsd } : {}),
          onError: (error) => { failure = error; },
        });
        if (outcome === 'failed') throw failure;
        if (outcome === 'cancelled') throw new Error('not run: the user declined its cost, or cancelled it; nothing was sent');
        return store.logFileOf(outcome.runId);
      },
      planExplanation: (request) => explainer.plan(request.runId, caseKey(request.caseId, request.modelKey), request.maxCalls),
      async explainCase({ runId, caseId, modelKey, maxCalls }) {
        refuseUntrusted();
        const outcome = await explainer.explain(runId, caseKey(caseId, modelKey), { ...(maxCalls ? { maxCalls } : {}), ...(acceptedUsd !== undefined ? { acceptedUsd } : {}), cancellation: token });
        const why: Record<string, string> = {
          declined: 'not run: the user declined its cost; nothing was sent',
          busy: 'another explanation is running: wait for it, then ask again',
          untrusted: 'not run: an endpoint the eval file chose was not allowed',
          failed: 'the explanation failed: the RAG Inspector output says why',
        };
        if (why[outcome]) throw new Error(why[outcome]);
        const stored = await storedExplanation(store, runId);
        const cases = stored?.cases.filter((c) => c.caseId === caseId && c.modelKey === modelKey) ?? [];
        if (!stored || cases.length === 0) throw new Error(`case ${caseId} could not be explained${outcome === 'cancelled' ? ' (cancelled)' : ''}`);
        // Only this case: the stored explanation holds every case explained in the run so far.
        return { ...stored, cases, suites: stored.cases.length === cases.length ? stored.suites : [], ...(outcome === 'cancelled' ? { status: 'cancelled' as const } : {}) };
      },
    };
  }
}

function abortSignalOf(token: vscode.CancellationToken): AbortSignal {
  const abort = new AbortController();
  if (token.isCancellationRequested) abort.abort();
  else token.onCancellationRequested(() => abort.abort());
  return abort.signal;
}

/** VS Code's McpStdioServerDefinition (1.101+), typed here since the extension builds against an older API. */
interface McpStdioDefinitionLike {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
}

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: { onDidChangeMcpServerDefinitions?: vscode.Event<void>; provideMcpServerDefinitions(): McpStdioDefinitionLike[] }): vscode.Disposable;
}

type McpDefinitionClass = new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => McpStdioDefinitionLike;

export const MCP_PROVIDER_ID = 'ragInspector.mcpServer';

/**
 * `rag-inspector mcp` for each workspace folder: the bundled CLI run by the extension host's own runtime
 * (ELECTRON_RUN_AS_NODE makes VS Code's binary a plain Node), its ceiling the confirmation setting, and --contain
 * in an untrusted workspace.
 */
function mcpServerDefinitions(extensionPath: string, untrusted: AgentToolDeps['untrusted'], version: string): McpStdioDefinitionLike[] {
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: McpDefinitionClass }).McpStdioServerDefinition;
  const cli = path.join(extensionPath, 'dist', 'cli.js');
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((folder) => {
    const args = [cli, 'mcp', '--root', folder.uri.fsPath, '--max-cost', String(maxCostWithoutConfirm()), ...(untrusted.trusted ? [] : ['--contain'])];
    const label = `RAG Inspector (${folder.name})`;
    const env = { ELECTRON_RUN_AS_NODE: '1' };
    return Definition ? new Definition(label, process.execPath, args, env, version) : { label, command: process.execPath, args, env };
  });
}

export function activateLanguageModelTools(context: vscode.ExtensionContext, deps: AgentToolDeps): AgentToolsApi {
  const tools = new Map<string, vscode.LanguageModelTool<object>>();
  for (const tool of AGENT_TOOLS) tools.set(vscodeToolName(tool.name), new VsCodeAgentTool(tool, deps));
  // Older VS Code has no tool API: the extension works as before, and says why the tools are missing.
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  if (typeof lm?.registerTool === 'function') {
    for (const [name, tool] of tools) context.subscriptions.push(lm.registerTool(name, tool));
  } else {
    deps.logger.info(`VS Code ${vscode.version} has no language model tool API: the agent tools are not offered (rag-inspector mcp serves them to any MCP client).`);
  }
  const version = String(context.extension.packageJSON.version);
  const mcpServers = () => mcpServerDefinitions(context.extensionPath, deps.untrusted, version);
  const mcp = vscode.lm as unknown as Partial<McpApi> | undefined;
  if (typeof mcp?.registerMcpServerDefinitionProvider === 'function') {
    const changed = new vscode.EventEmitter<void>();
    context.subscriptions.push(
      changed,
      mcp.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, { onDidChangeMcpServerDefinitions: changed.event, provideMcpServerDefinitions: mcpServers }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('ragInspector.maxCostWithoutConfirm')) changed.fire(); }),
    );
  }
  return { tools, mcpServers };
}
