// Entry point of the VS Code extension: composes the pieces, each of which registers its own disposables.
import * as vscode from 'vscode';
import { runEvaluation } from '../core/engine/runEvaluation.js';
import { activateCodeLens } from './codeLens.js';
import { activateRunCommands, settingsOverrides } from './commands.js';
import { activateDiagnostics } from './diagnostics.js';
import type { ResultDiagnostics } from './diagnostics.js';
import { activateEvalFiles } from './evalFiles.js';
import type { EvalFiles } from './evalFiles.js';
import { activateExplain, storedExplanation } from './explainFailure.js';
import type { Explainer } from './explainFailure.js';
import { activateGenerateCounterfactual } from './generateCounterfactual.js';
import { activateHover } from './hover.js';
import { activateImportTraces } from './importTraces.js';
import { activateCorpusCommands } from './corpusCommands.js';
import { activateQuestionReview } from './questionReviewPanel.js';
import type { QuestionReviewPanels } from './questionReviewPanel.js';
import { languageModelProviders } from './languageModelProvider.js';
import { activateLanguageModelTools } from './languageModelTools.js';
import type { AgentToolsApi } from './languageModelTools.js';
import { RunLauncher } from './launch.js';
import { activateOutputChannel } from './outputChannel.js';
import type { RedactingLogger } from './outputChannel.js';
import { activateInspectorPanel } from './panel.js';
import type { InspectorPanels } from './panel.js';
import { openSourceAt, registerPdfTextDocuments } from './sourceDocuments.js';
import { activateRerunOnSave } from './rerunOnSave.js';
import type { RerunOnSave } from './rerunOnSave.js';
import { activateResultsIndex } from './resultsIndex.js';
import type { ResultsIndex } from './resultsIndex.js';
import { activateResumeRun } from './resumeRun.js';
import { EngineRunController } from './runController.js';
import { activateRunStore } from './runStore.js';
import type { RunStore } from './runStore.js';
import { activateSecrets } from './secrets.js';
import type { SecretsServices } from './secrets.js';
import { SessionRuns } from './sessionRuns.js';
import { activateStatusBar } from './statusBar.js';
import type { RunStatusBar } from './statusBar.js';
import { activateTestExplorer } from './testExplorer.js';
import { activateUntrustedWorkspace } from './untrustedWorkspace.js';
import type { UntrustedWorkspaceGate } from './untrustedWorkspace.js';
import type { RagTestExplorer } from './testExplorer.js';
import { activateWalkthrough } from './walkthrough.js';

/** Handed to the integration tests only (ExtensionMode.Test), so they can check state no command returns. */
export interface TestingApi {
  logger: RedactingLogger;
  secrets: SecretsServices;
  panels: InspectorPanels;
  sessions: SessionRuns;
  store: RunStore;
  index: ResultsIndex;
  diagnostics: ResultDiagnostics;
  rerunOnSave: RerunOnSave;
  statusBar: RunStatusBar;
  controller: EngineRunController;
  logUri: vscode.Uri;
  tests: RagTestExplorer;
  evalFiles: EvalFiles;
  untrusted: UntrustedWorkspaceGate;
  explainer: Explainer;
  agentTools: AgentToolsApi;
  questionReviews: QuestionReviewPanels;
  /** What the inspector's "open this file at this line" does (a PDF: its text), in the extension's own bundle. */
  openSourceAt: typeof openSourceAt;
}

export function activate(context: vscode.ExtensionContext): { testing: TestingApi } | undefined {
  const logger = activateOutputChannel(context);
  const secrets = activateSecrets(context, logger);
  // vscode-lm needs no key; its models' consent dialog comes with the first run, which a user gesture starts.
  const providers = languageModelProviders();
  const controller = new EngineRunController(runEvaluation, secrets.credentials, undefined, providers);
  const sessions = new SessionRuns();
  context.subscriptions.push(controller, sessions, controller.onEvent((event) => sessions.record(event, controller.active?.specFile)));
  const store = activateRunStore(context, sessions);
  const index = activateResultsIndex(context, store);
  const evalFiles = activateEvalFiles(context);
  const statusBar = activateStatusBar(context, controller.onEvent);
  const panels = activateInspectorPanel(context, { controller, logger, explanation: (runId) => storedExplanation(store, runId) }, sessions, store);
  context.subscriptions.push(registerPdfTextDocuments());
  const diagnostics = activateDiagnostics(context, index);
  activateCodeLens(context, index, evalFiles);
  activateHover(context, index);
  const untrusted = activateUntrustedWorkspace(context, logger);
  const explainer = activateExplain(context, {
    store, credentials: secrets.credentials, providers, logger, overridesOf: settingsOverrides,
    notify: (notification, params) => panels.panel?.notify(notification, params),
    untrusted,
  });
  const launcher = new RunLauncher(controller, logger, settingsOverrides, undefined, untrusted);
  activateRunCommands(context, { controller, logger, launcher, store, index, evalFiles });
  activateResumeRun(context, { controller, launcher, store, sessions, logger });
  const rerunOnSave = activateRerunOnSave(context, {
    launcher, controller, store, index, evalFiles, logger,
    isPanelOpen: () => panels.panel !== undefined,
    reveal: (runId) => panels.point({ runId }),
  });
  const tests = activateTestExplorer(context, launcher, index, logger);
  const agentTools = activateLanguageModelTools(context, { launcher, explainer, store, untrusted, logger });
  activateGenerateCounterfactual(context, secrets.credentials, logger);
  activateImportTraces(context, logger);
  activateCorpusCommands(context, { credentials: secrets.credentials, logger, untrusted, runs: store, controller });
  const questionReviews = activateQuestionReview(context, logger);
  activateWalkthrough(context, logger);
  logger.info(`RAG Inspector ${String(context.extension.packageJSON.version)} activated (VS Code ${vscode.version}).`);

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { testing: { logger, secrets, panels, sessions, store, index, diagnostics, rerunOnSave, statusBar, controller, logUri: context.logUri, tests, evalFiles, untrusted, explainer, agentTools, questionReviews, openSourceAt } };
}

export function deactivate(): void {
  // Everything is in context.subscriptions; VS Code disposes it.
}
