// "Explain a failure" in VS Code: Explain Case and Explain Failed Cases over core's explainRun — the plan priced and
// confirmed above `ragInspector.maxCostWithoutConfirm`, progress with Cancel, every ExplainEvent forwarded to the
// inspector as a notification so its cards fill in live, and the stored explanation read back for the panel.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { explainRun, explanationFileOfRunLog, planExplanation, readExplanation } from '../core/explain/explainRun.js';
import type { ExplainEvent, ExplainPlan, RunExplanation } from '../core/explain/model.js';
import { caseKey, describeKey, isFailure, splitCaseKey } from '../core/model.js';
import type { Credentials, ProviderFactory } from '../core/providers/registry.js';
import type { EvalSpec } from '../core/spec/types.js';
import { CaseExplained, ExplainFinished, ExplainProgress, ExplainStarted } from '../protocol.js';
import type { Notification } from '../protocol.js';
import { confirmExplanationCost, describePlan } from './costGuard.js';
import { formatUsd } from '../core/engine/costEstimate.js';
import { maxCostWithoutConfirm, reportRunError } from './launch.js';
import type { OverridesOf } from './launch.js';
import type { Logger } from './outputChannel.js';
import type { RunStore } from './runStore.js';
import type { UntrustedWorkspaceGate } from './untrustedWorkspace.js';

export const EXPLAIN_COMMANDS = {
  explainCase: 'ragInspector.explainCase',
  explainFailed: 'ragInspector.explainFailed',
  cancelExplanation: 'ragInspector.cancelExplanation',
} as const;

/** The context key that shows "Cancel Explanation" only while one runs. */
export const EXPLAINING_CONTEXT_KEY = 'ragInspector.explaining';

export type ExplainOutcome = 'complete' | 'cancelled' | 'declined' | 'busy' | 'untrusted' | 'no-run' | 'no-case' | 'failed';

export interface ExplainDeps {
  store: Pick<RunStore, 'logFileOf' | 'listRuns' | 'getRun'>;
  credentials: Credentials;
  providers?: Readonly<Record<string, ProviderFactory>>;
  /** The settings a run applies to the eval file (commands.ts settingsOverrides): the variants go where the run went. */
  overridesOf: OverridesOf;
  logger: Logger;
  /** Posts to the inspector when it is open (InspectorPanels.notify). */
  notify<P>(notification: Notification<P>, params: P): void;
  /**
   * Restricted Mode's rules, as for a run: the eval file the run log names is read with its paths contained, the
   * endpoints it chose need the user's yes, and `.rag-inspector` must not lead outside the workspace.
   */
  untrusted?: Pick<UntrustedWorkspaceGate, 'containment' | 'endpointsAllowed' | 'stateFolderProblem'>;
}

/** A run's stored explanation, null when it has none: what the inspector's GetExplanation answers. */
export async function storedExplanation(store: Pick<RunStore, 'logFileOf'>, runId: string): Promise<RunExplanation | null> {
  const logFile = await store.logFileOf(runId);
  return (await readExplanation(explanationFileOfRunLog(logFile, runId))) ?? null;
}

/** What an agent's explain_case adds to a person's Explain. */
export interface ExplainCallOptions {
  /** A call budget: at most this many model calls (a partial explanation). */
  maxCalls?: number;
  /** A cost the user already accepted for this explanation: no second question unless the plan is higher. */
  acceptedUsd?: number;
  /** Cancels it too, beside the notification's Cancel. */
  cancellation?: vscode.CancellationToken;
}

/** One explanation at a time: they share the response cache and the variant log of a run. */
export class Explainer {
  private running: { runId: string; abort: AbortController } | undefined;

  constructor(private readonly deps: ExplainDeps) {}

  get active(): string | undefined {
    return this.running?.runId;
  }

  cancel(runId?: string): boolean {
    if (!this.running || (runId !== undefined && runId !== this.running.runId)) return false;
    this.running.abort.abort();
    return true;
  }

  /** What explaining the (case, model) `key` of the run may cost, read as explain would run it; nothing is asked or sent. */
  async plan(runId: string, key: string, maxCalls?: number): Promise<ExplainPlan> {
    const logFile = await this.deps.store.logFileOf(runId);
    return planExplanation(logFile, { ...this.sessionOptions(key, new AbortController().signal), ...(maxCalls ? { maxCalls } : {}) });
  }

  private sessionOptions(key: string | undefined, signal: AbortSignal) {
    const gate = this.deps.untrusted;
    return {
      credentials: this.deps.credentials,
      providers: this.deps.providers,
      signal,
      overridesOf: this.deps.overridesOf,
      ...(gate ? { contain: gate.containment() } : {}),
      ...(key ? { caseIds: [splitCaseKey(key).caseId], modelKey: splitCaseKey(key).modelKey } : { failed: true }),
    };
  }

  /** Explains one case (every model the run has it on) or, with no key, the run's failed cases. */
  async explain(runId: string, key?: string, call: ExplainCallOptions = {}): Promise<ExplainOutcome> {
    const { logger } = this.deps;
    if (this.running) {
      void vscode.window.showInformationMessage(`RAG Inspector: an explanation of run ${this.running.runId} is running; cancel it or wait for it to finish.`);
      return 'busy';
    }
    const title = key ? `Explain ${describeKey(key)}` : 'Explain failed cases';
    const abort = new AbortController();
    this.running = { runId, abort };
    void vscode.commands.executeCommand('setContext', EXPLAINING_CONTEXT_KEY, true);
    logger.info(`${title} (run ${runId})`);
    try {
      const logFile = await this.deps.store.logFileOf(runId);
      const gate = this.deps.untrusted;
      // Variants are logged and cached under the run's `.rag-inspector`, three folders up from its log.
      const stateProblem = await gate?.stateFolderProblem(path.dirname(path.dirname(path.dirname(logFile))));
      if (stateProblem) throw new Error(stateProblem);
      const limit = maxCostWithoutConfirm();
      let declined = false;
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `RAG Inspector: ${title}`, cancellable: true },
        async (progress, token) => {
          const cancel = token.onCancellationRequested(() => abort.abort());
          const cancelToo = call.cancellation?.onCancellationRequested(() => abort.abort());
          if (call.cancellation?.isCancellationRequested) abort.abort();
          try {
            return await explainRun(logFile, {
              ...this.sessionOptions(key, abort.signal),
              ...(call.maxCalls ? { maxCalls: call.maxCalls } : {}),
              ...(gate ? { allowed: async (spec: EvalSpec) => (await gate.endpointsAllowed(spec)).allowed } : {}),
              confirm: async (plan) => {
                logger.info(`${title}: ${describePlan(plan)}, up to ${formatUsd(plan.estimatedUsd)}.`);
                const accepted = call.acceptedUsd !== undefined && plan.estimatedUsd <= call.acceptedUsd;
                declined = !accepted && !(await confirmExplanationCost(title, plan, limit));
                return !declined && !abort.signal.aborted;
              },
              onEvent: (event) => this.forward(runId, event, (message) => progress.report(message)),
            });
          } finally {
            cancel.dispose();
            cancelToo?.dispose();
          }
        },
      );
      if (!outcome.explanation) {
        const why = outcome.refused ? 'an endpoint the eval file chose was not allowed in this untrusted workspace' : declined ? 'estimated cost declined' : 'cancelled';
        logger.info(`${title}: not started (${why}).`);
        this.deps.notify(ExplainFinished, { runId, explanation: null });
        return outcome.refused ? 'untrusted' : declined ? 'declined' : 'cancelled';
      }
      const { explanation } = outcome;
      logger.info(`${title}: ${explanation.status}; ${explanation.calls.model} model calls, ${explanation.calls.cached} from the cache. Stored in ${outcome.file}`);
      if (explanation.status === 'cancelled') {
        void vscode.window.showInformationMessage(`RAG Inspector: ${title} cancelled. Finished variants are kept; Explain again to finish it.`);
        return 'cancelled';
      }
      const one = key ? explanation.cases.find((c) => caseKey(c.caseId, c.modelKey) === key) : undefined;
      void vscode.window.showInformationMessage(`RAG Inspector: ${one ? one.summary : `${explanation.cases.length} cases explained.`}`);
      return 'complete';
    } catch (error) {
      this.deps.notify(ExplainFinished, { runId, explanation: null, error: error instanceof Error ? error.message : String(error) });
      reportRunError(error, logger);
      return 'failed';
    } finally {
      this.running = undefined;
      void vscode.commands.executeCommand('setContext', EXPLAINING_CONTEXT_KEY, false);
    }
  }

  /** Core's events as the inspector's notifications and the progress notification's text. */
  private forward(runId: string, event: ExplainEvent, report: (message: { message?: string; increment?: number }) => void): void {
    const { notify } = this.deps;
    switch (event.type) {
      case 'explain-started':
        report({ message: `${describePlan(event.plan)}, up to ${formatUsd(event.plan.estimatedUsd)}` });
        notify(ExplainStarted, { runId, plan: event.plan });
        break;
      case 'variant-finished':
        report({ message: `${event.done}/${event.total} variants`, increment: event.total > 0 ? 100 / event.total : 0 });
        notify(ExplainProgress, { runId, key: caseKey(event.caseId, event.modelKey), variantIds: event.variantIds, outcome: event.outcome, done: event.done, total: event.total });
        break;
      case 'case-explained':
        notify(CaseExplained, { runId, key: caseKey(event.explanation.caseId, event.explanation.modelKey), explanation: event.explanation });
        break;
      case 'explain-finished':
        notify(ExplainFinished, { runId, explanation: event.explanation });
        break;
    }
  }
}

/** A palette command's run: the one passed, else the newest run. */
async function runOf(deps: ExplainDeps, arg: unknown): Promise<string | undefined> {
  const given = (arg as { runId?: unknown } | undefined)?.runId;
  if (typeof given === 'string') return given;
  const runs = await deps.store.listRuns();
  return [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]?.runId;
}

/** Explain Case from the palette: a failed case of the newest run, picked. */
async function pickFailedCase(deps: ExplainDeps, runId: string): Promise<string | undefined> {
  const detail = await deps.store.getRun(runId);
  const failed = detail.cases.filter((c) => isFailure(c));
  if (failed.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    failed.map((c) => ({ label: c.caseId, description: c.modelKey, key: c.key })),
    { title: 'RAG Inspector: Explain Case', placeHolder: `Which failed case of ${detail.listing.name}?` },
  );
  return picked?.key;
}

export function activateExplain(context: vscode.ExtensionContext, deps: ExplainDeps): Explainer {
  const explainer = new Explainer(deps);
  const reveal = (runId: string, key?: string) => void vscode.commands.executeCommand('ragInspector.openInspector', key ? { runId, key } : { runId });
  context.subscriptions.push(
    vscode.commands.registerCommand(EXPLAIN_COMMANDS.explainCase, async (arg?: unknown): Promise<ExplainOutcome> => {
      const runId = await runOf(deps, arg);
      if (!runId) { void vscode.window.showErrorMessage('RAG Inspector: no run to explain; run an evaluation first.'); return 'no-run'; }
      const given = (arg as { key?: unknown } | undefined)?.key;
      const key = typeof given === 'string' ? given : await pickFailedCase(deps, runId);
      if (!key) { void vscode.window.showInformationMessage('RAG Inspector: no failed case chosen to explain.'); return 'no-case'; }
      reveal(runId, key);
      return explainer.explain(runId, key);
    }),
    vscode.commands.registerCommand(EXPLAIN_COMMANDS.explainFailed, async (arg?: unknown): Promise<ExplainOutcome> => {
      const runId = await runOf(deps, arg);
      if (!runId) { void vscode.window.showErrorMessage('RAG Inspector: no run to explain; run an evaluation first.'); return 'no-run'; }
      reveal(runId);
      return explainer.explain(runId);
    }),
    vscode.commands.registerCommand(EXPLAIN_COMMANDS.cancelExplanation, (arg?: unknown) => {
      const runId = (arg as { runId?: unknown } | undefined)?.runId;
      return explainer.cancel(typeof runId === 'string' ? runId : undefined);
    }),
  );
  return explainer;
}
