// Entry point of the VS Code extension: composes the pieces, each of which registers its own disposables.
import * as vscode from 'vscode';
import { runEvaluation } from '../core/engine/runEvaluation.js';
import { activateRunCommands } from './commands.js';
import { activateOutputChannel } from './outputChannel.js';
import type { RedactingLogger } from './outputChannel.js';
import { activateInspectorPanel } from './panel.js';
import type { InspectorPanels } from './panel.js';
import { EngineRunController } from './runController.js';
import { activateSecrets } from './secrets.js';
import type { SecretsServices } from './secrets.js';
import { SessionRuns } from './sessionRuns.js';
import { activateStatusBar } from './statusBar.js';
import type { RunStatusBar } from './statusBar.js';
import { activateTestExplorer } from './testExplorer.js';
import type { RagTestExplorer } from './testExplorer.js';
import { activateWalkthrough } from './walkthrough.js';

/** Handed to the integration tests only (ExtensionMode.Test), so they can check state no command returns. */
export interface TestingApi {
  logger: RedactingLogger;
  secrets: SecretsServices;
  panels: InspectorPanels;
  sessions: SessionRuns;
  statusBar: RunStatusBar;
  controller: EngineRunController;
  logUri: vscode.Uri;
  tests: RagTestExplorer;
}

export function activate(context: vscode.ExtensionContext): { testing: TestingApi } | undefined {
  const logger = activateOutputChannel(context);
  const secrets = activateSecrets(context, logger);
  const controller = new EngineRunController(runEvaluation, secrets.credentials);
  const sessions = new SessionRuns();
  context.subscriptions.push(controller, sessions, controller.onEvent((event) => sessions.record(event, controller.active?.specFile)));
  const statusBar = activateStatusBar(context, controller.onEvent);
  const panels = activateInspectorPanel(context, { controller, logger }, sessions);
  activateRunCommands(context, controller, logger, sessions);
  const tests = activateTestExplorer(context, controller, logger);
  activateWalkthrough(context, logger);
  logger.info(`RAG Inspector ${String(context.extension.packageJSON.version)} activated (VS Code ${vscode.version}).`);

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { testing: { logger, secrets, panels, sessions, statusBar, controller, logUri: context.logUri, tests } };
}

export function deactivate(): void {
  // Everything is in context.subscriptions; VS Code disposes it.
}
