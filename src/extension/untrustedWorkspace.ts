// Restricted Mode: an untrusted workspace's eval files read only inside its folders, and reach an endpoint they chose only after the user says yes to that URL.
import { untrustedRetriever } from '../core/spec/retrieverSpec.js';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { normaliseBaseUrl, usesBaseUrl } from '../core/providers/registry.js';
import { foldersOutside } from '../core/spec/containment.js';
import type { Containment } from '../core/spec/containment.js';
import type { EvalSpec } from '../core/spec/types.js';
import { STATE_FOLDER } from './evalFiles.js';
import { vscodeEndpointFacts, workspaceChoseEndpoint } from './secrets.js';
import type { EndpointFacts } from './secrets.js';
import type { Logger } from './outputChannel.js';
import type { ModelSpec } from '../core/providers/contract.js';

/** What the gate asks of VS Code; the tests hand it an untrusted workspace this way (the harness runs trusted). */
export interface TrustFacts extends EndpointFacts {
  /** The workspace folders' paths (file scheme). */
  folders(): string[];
}

export function vscodeTrustFacts(): TrustFacts {
  return {
    ...vscodeEndpointFacts(),
    folders: () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
  };
}

export const UNTRUSTED_REASON = 'this workspace is not trusted: paths outside it are not read';
export const UNTRUSTED_HINT = 'trust the workspace to allow it (Workspaces: Manage Workspace Trust)';

/** The answer that lets a run reach a workspace-chosen endpoint; closing the dialog or Cancel means no. */
export const ALLOW_ENDPOINT = 'Allow';

/** Asks whether the workspace's eval file may send its prompts to `url`; true only on an explicit yes. */
export type EndpointQuestion = (url: string, model: string, specFile: string) => Thenable<boolean>;

export const askInModal: EndpointQuestion = async (url, model, specFile) => {
  const answer = await vscode.window.showWarningMessage(
    `RAG Inspector: this untrusted workspace wants to send prompts to ${url}. Allow it?`,
    {
      modal: true,
      detail: `${vscode.workspace.asRelativePath(specFile)} names this endpoint for ${model}. The prompts hold text from the workspace's datasets and templates, `
        + 'and the server is one the workspace chose, not you. No stored API key is sent to it either way. '
        + 'Your answer is remembered for this workspace until its trust changes.',
    },
    ALLOW_ENDPOINT,
  );
  return answer === ALLOW_ENDPOINT;
};

/** Where the allowed endpoints of this workspace are kept (workspaceState: this workspace only). */
const ALLOWED_KEY = 'ragInspector.untrusted.allowedEndpoints';

/** How a run's endpoints were judged: all allowed, or the first the user refused (nothing is sent then). */
export type EndpointVerdict = { allowed: true } | { allowed: false; url: string };

/**
 * The launcher's check before a run starts (every run start goes through the launcher). Trusted workspaces pass
 * through untouched; in an untrusted one the eval file's paths are contained and its own endpoints need a yes.
 */
export class UntrustedWorkspaceGate {
  constructor(
    private readonly memory: vscode.Memento,
    private facts: TrustFacts,
    private readonly ask: EndpointQuestion = askInModal,
    private readonly logger?: Logger,
  ) {}

  /** For the integration tests only: the harness's VS Code runs with workspace trust off, so they hand in Restricted Mode here. */
  useFactsForTesting(facts: TrustFacts): vscode.Disposable {
    const previous = this.facts;
    this.facts = facts;
    return new vscode.Disposable(() => { this.facts = previous; });
  }

  get trusted(): boolean {
    return this.facts.isTrusted();
  }

  /** The load option that keeps an untrusted workspace's paths inside its folders; undefined when trusted. */
  containment(): Containment | undefined {
    if (this.facts.isTrusted()) return undefined;
    return { roots: this.facts.folders(), reason: UNTRUSTED_REASON, hint: `${UNTRUSTED_HINT}, or move the file into the workspace` };
  }

  /**
   * Why a run may not write under `<workspaceDir>/.rag-inspector`: it, or a folder in it, is a link leaving the
   * workspace (run logs would be written there, cached responses read from there). Undefined when trusted or fine.
   */
  async stateFolderProblem(workspaceDir: string): Promise<string | undefined> {
    const contain = this.containment();
    if (!contain) return undefined;
    const state = path.join(workspaceDir, STATE_FOLDER);
    const [outside] = await foldersOutside([state, ...['runs', 'cache', 'reports', 'quick'].map((name) => path.join(state, name))], contain.roots);
    if (!outside) return undefined;
    return `${contain.reason}: ${outside.folder} links to ${outside.real}, outside the workspace, so no run is written there — remove the link, or ${UNTRUSTED_HINT}`;
  }

  /**
   * Asks, one URL at a time, about every endpoint this run would reach that the workspace chose (the eval file's
   * `baseUrl` for a model, the judge or the embeddings model, an http retriever's url). A yes is remembered; a no
   * stops at once and is not remembered, so the next run asks again. A command retriever is never started here: it
   * throws with the words to show.
   */
  async endpointsAllowed(spec: EvalSpec): Promise<EndpointVerdict> {
    if (this.facts.isTrusted()) return { allowed: true };
    const retriever = untrustedRetriever(spec);
    if (retriever && 'refused' in retriever) throw new Error(retriever.refused);
    if (retriever && !(await this.endpointAllowed(retriever.endpoint, 'retriever', spec.file))) {
      this.logger?.warn(`Not started: ${retriever.endpoint} was not allowed. This untrusted workspace's eval file chose it as its retriever; nothing was sent.`);
      return { allowed: false, url: retriever.endpoint };
    }
    for (const { url, model } of this.workspaceEndpoints(spec)) {
      if (!(await this.endpointAllowed(url, model, spec.file))) {
        this.logger?.warn(`Not started: ${url} was not allowed. This untrusted workspace's eval file chose it; nothing was sent.`);
        return { allowed: false, url };
      }
    }
    return { allowed: true };
  }

  /**
   * Whether the workspace's eval file may have `url` contacted for `what` ("openai-compatible:llama3", "trace
   * export"): always when trusted; otherwise when allowed before, or when the user says yes now (remembered).
   */
  async endpointAllowed(url: string, what: string, specFile: string): Promise<boolean> {
    if (this.facts.isTrusted()) return true;
    const key = normaliseBaseUrl(url);
    if (this.allowed().includes(key)) return true;
    if (!(await this.ask(url, what, specFile))) return false;
    await this.memory.update(ALLOWED_KEY, [...this.allowed(), key]);
    this.logger?.info(`Allowed ${url} for this workspace until its trust changes.`);
    return true;
  }

  /** Trust changed: what was allowed in Restricted Mode is asked again if the workspace is ever restricted again. */
  async forget(): Promise<void> {
    await this.memory.update(ALLOWED_KEY, undefined);
  }

  private allowed(): string[] {
    return this.memory.get<string[]>(ALLOWED_KEY, []);
  }

  /** Endpoints the run would send to that the workspace chose; secrets.ts decides "chose" for keys the same way. */
  private workspaceEndpoints(spec: EvalSpec): Array<{ url: string; model: string }> {
    const models: ModelSpec[] = [...spec.models, ...(spec.judge ? [spec.judge] : []), ...(spec.embeddings ? [spec.embeddings] : []), ...(spec.index?.embeddings ? [spec.index.embeddings] : [])];
    const seen = new Set<string>();
    return models.flatMap((m) => {
      // Without baseUrl a model goes to its vendor or OPENAI_BASE_URL (the user's); the workspace's own
      // ragInspector.openaiBaseUrl is a restricted setting, so VS Code does not hand it to runs here.
      if (!m.baseUrl || !usesBaseUrl(m.provider) || !workspaceChoseEndpoint(m.provider, m, this.facts)) return [];
      const key = normaliseBaseUrl(m.baseUrl);
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ url: m.baseUrl, model: `${m.provider}:${m.model}` }];
    });
  }
}

/** The gate, with its memory cleared whenever the workspace is trusted (now or later). */
export function activateUntrustedWorkspace(context: vscode.ExtensionContext, logger: Logger): UntrustedWorkspaceGate {
  const gate = new UntrustedWorkspaceGate(context.workspaceState, vscodeTrustFacts(), askInModal, logger);
  if (vscode.workspace.isTrusted) void gate.forget();
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void gate.forget()));
  return gate;
}
