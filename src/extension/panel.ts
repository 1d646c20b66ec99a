// The inspector panel host: a locked-down webview running dist/webview.js, the protocol's ready handshake, the table of handlers for its messages, and notifications.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { RunEvent } from '../core/engine/events.js';
import {
  CancelExplain, ExplainCase, ExplainFailed, GetExplanation,
  CancelRun, CaseFinished, CompareRuns, GetCase, GetRun, GetVerdicts, ListRuns, SetVerdicts, OpenDatasetRow, OpenTemplate,
  BatchProgress, ExportImage, PROTOCOL_VERSION, Ready, RerunCase, ResumeRun, Reveal, RunFinished, RunStarted, ShowCompare,
} from '../protocol.js';
import type { Envelope, Notification } from '../protocol.js';
import type { RunExplanation } from '../core/explain/model.js';
import { EXPLAIN_COMMANDS } from './explainFailure.js';
import type { Logger } from './outputChannel.js';
import type { RunController } from './runController.js';
import type { InspectorData, SessionRuns } from './sessionRuns.js';
import { caseKey } from '../core/model.js';
import { WebviewDispatcher, onCommand, onRequest } from './webviewDispatch.js';
import type { Handler } from './webviewDispatch.js';
import { VerdictService } from './verdicts.js';
import { openSourceAt } from './sourceDocuments.js';
import { BatchTally } from '../core/engine/batchProgress.js';

export const INSPECTOR_VIEW_TYPE = 'ragInspector.inspector';
const TITLE = 'RAG Inspector';

export interface InspectorDeps {
  extensionUri: vscode.Uri;
  data: InspectorData;
  controller: Pick<RunController, 'cancel'>;
  logger: Logger;
  /** The run's stored explanation (explainFailure.ts storedExplanation). */
  explanation(runId: string): Promise<RunExplanation | null>;
}

/** Fresh per render: a nonce reused across loads would let an injected script replay it. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * Extension-resource sources narrowed to one folder. `webview.cspSource` allows every resource the webview may
 * load; adding the folder's path keeps styles and fonts to the built assets even if roots are widened later.
 */
function folderSources(webview: vscode.Webview, folder: vscode.Uri): string {
  const folderPath = `${webview.asWebviewUri(folder).path.replace(/\/+$/, '')}/`;
  return webview.cspSource
    .split(/\s+/)
    .filter((source) => source !== '' && !source.startsWith("'"))
    .map((source) => `${source.replace(/\/+$/, '')}${folderPath}`)
    .join(' ');
}

export function contentSecurityPolicy(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string): string {
  const assets = [folderSources(webview, vscode.Uri.joinPath(extensionUri, 'dist')), folderSources(webview, vscode.Uri.joinPath(extensionUri, 'media'))].join(' ');
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${assets}`,
    `font-src ${assets}`,
    `img-src ${assets} data:`,
  ].join('; ');
}

/** `head`: markup for the head after the title (the sweep panel's data element); the bundle decides what it shows from it. */
export function inspectorHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string, head = ''): string {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const csp = contentSecurityPolicy(webview, extensionUri, nonce);
  const script = vscode.Uri.joinPath(dist, 'webview.js');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${TITLE}</title>${head}
</head>
<body>
<div id="app"></div>
<script type="module" nonce="${nonce}" src="${webview.asWebviewUri(script).toString()}"></script>
</body>
</html>`;
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    // The UI keeps its navigation in setState and refetches data, so it need not stay alive when hidden.
    retainContextWhenHidden: false,
    enableFindWidget: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/** Answers a panel's webview with `handlers` (params checked on arrival; a failed command shown); dispose to stop. */
export function answerWebview(panel: vscode.WebviewPanel, handlers: readonly Handler[], logger: Logger): vscode.Disposable {
  const dispatcher = new WebviewDispatcher(handlers, {
    post: (message) => void panel.webview.postMessage(message),
    logger,
    commandFailed: (message) => void vscode.window.showErrorMessage(`RAG Inspector: ${message}`),
  });
  return panel.webview.onDidReceiveMessage((message: unknown) => void dispatcher.dispatch(message));
}

export class InspectorPanel implements vscode.Disposable {
  private ready = false;
  private queue: Envelope[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly closeEmitter = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closeEmitter.event;
  private readonly verdicts: VerdictService;
  /** The running run's vendor batches (batch mode), summed for BatchProgress. */
  private batches = new BatchTally();

  constructor(readonly panel: vscode.WebviewPanel, private readonly deps: InspectorDeps) {
    this.verdicts = new VerdictService(() => vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath, deps.data);
    this.disposables.push(
      answerWebview(panel, this.handlers(), deps.logger),
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => { if (!panel.visible) this.onHidden(); }),
    );
    this.render();
  }

  /** Reloads the page; the webview restores its navigation from setState and asks for data again. */
  render(): void {
    this.ready = false;
    this.panel.webview.html = inspectorHtml(this.panel.webview, this.deps.extensionUri, makeNonce());
  }

  /**
   * A hidden panel loses its page (no retained context) and reloads when shown, saying ready again and fetching runs
   * afresh; run progress queued meanwhile would arrive twice, so only a pending Reveal is kept.
   */
  private onHidden(): void {
    this.ready = false;
    this.queue = this.queue.filter((message) => Reveal.is(message));
  }

  /** Sent at once when the webview has said ready, else kept in order until it does (see onHidden). */
  notify<P>(notification: Notification<P>, params: P): void {
    const message = notification.create(params);
    if (this.ready) void this.panel.webview.postMessage(message);
    else if (this.panel.visible || Reveal.is(message)) this.queue.push(message);
  }

  /** Turns a recorded engine event into the notification the UI renders incrementally. */
  onRunEvent(event: RunEvent, runId: string, sessions: SessionRuns): void {
    if (event.type === 'run-started') {
      this.batches = new BatchTally();
      const listing = sessions.listing(runId);
      if (listing) this.notify(RunStarted, { runId, total: event.total, listing });
    } else if (event.type === 'batch') {
      this.notify(BatchProgress, { runId, ...this.batches.add(event) });
    } else if (event.type === 'case-finished') {
      const item = sessions.item(runId, caseKey(event.evalCase.id, event.result.modelKey));
      if (item) this.notify(CaseFinished, { runId, item, done: event.done, total: event.total });
    } else if (event.type === 'run-finished') {
      void this.deps.data.getRun(runId).then((detail) => this.notify(RunFinished, { runId, detail }), () => undefined);
    }
  }

  /** Every message the webview may send, with what the host does about it: one row per descriptor in protocol.ts. */
  private handlers(): Handler[] {
    const { data, controller } = this.deps;
    return [
      onCommand(Ready, ({ protocolVersion }) => this.onReady(protocolVersion)),
      onRequest(ListRuns, () => data.listRuns()),
      onRequest(GetRun, ({ runId }) => data.getRun(runId)),
      onRequest(GetCase, ({ runId, key }) => data.getCase(runId, key)),
      onRequest(CompareRuns, ({ before, after }) => data.compare(before, after)),
      onRequest(GetVerdicts, ({ runId }) => this.verdicts.view(runId)),
      onRequest(SetVerdicts, ({ runId, change }) => this.verdicts.set(runId, change)),
      onCommand(OpenDatasetRow, ({ file, line }) => openSourceAt(file, line)),
      onCommand(OpenTemplate, ({ file }) => vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true })),
      onCommand(RerunCase, ({ runId, key }) => vscode.commands.executeCommand('ragInspector.rerunCase', { runId, key })),
      onCommand(CancelRun, () => { controller.cancel(); }),
      // The command says why when it cannot (a run in progress, the eval file changed) and asks what it must.
      onCommand(ResumeRun, ({ runId }) => vscode.commands.executeCommand('ragInspector.resumeRun', { runId })),
      onCommand(ExportImage, ({ fileName, dataUrl }) => saveImage(fileName, dataUrl)),
      onRequest(GetExplanation, ({ runId }) => this.deps.explanation(runId)),
      // The commands price the explanation, ask above the limit and show progress; their events come back as notifications.
      onCommand(ExplainCase, ({ runId, key }) => vscode.commands.executeCommand(EXPLAIN_COMMANDS.explainCase, { runId, key })),
      onCommand(ExplainFailed, ({ runId }) => vscode.commands.executeCommand(EXPLAIN_COMMANDS.explainFailed, { runId })),
      onCommand(CancelExplain, ({ runId }) => vscode.commands.executeCommand(EXPLAIN_COMMANDS.cancelExplanation, { runId })),
    ];
  }

  private onReady(version: number): void {
    if (version !== PROTOCOL_VERSION) {
      // Messages of another shape would be misread, so nothing is flushed; rebuilding both bundles fixes it.
      const text = `The inspector UI speaks protocol ${String(version)} but the extension speaks ${PROTOCOL_VERSION}. Rebuild with "npm run build" and reopen the panel.`;
      this.deps.logger.error(`Inspector: ${text}`);
      void vscode.window.showErrorMessage(`RAG Inspector: ${text}`);
      return;
    }
    this.ready = true;
    this.deps.logger.info(`Inspector webview ready (protocol ${PROTOCOL_VERSION}); ${this.queue.length} queued notification(s) sent.`);
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    this.queue = [];
    this.ready = false;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.closeEmitter.fire();
    this.closeEmitter.dispose();
  }
}

/** The single inspector panel of this window, opened on demand or revived by the serializer after a reload. */
export class InspectorPanels implements vscode.Disposable {
  private current: InspectorPanel | undefined;

  constructor(private readonly deps: InspectorDeps, private readonly sessions: SessionRuns) {}

  get panel(): InspectorPanel | undefined {
    return this.current;
  }

  show(reveal?: { runId: string; key?: string }): InspectorPanel {
    if (!this.current) {
      const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, TITLE, vscode.ViewColumn.Active, panelOptions(this.deps.extensionUri));
      this.adopt(panel);
    } else {
      this.current.panel.reveal();
    }
    if (reveal) this.current!.notify(Reveal, reveal);
    return this.current!;
  }

  /** Points the open panel at a run without revealing it: a rerun on save must not take focus from the editor. */
  point(reveal: { runId: string; key?: string }): void {
    this.current?.notify(Reveal, reveal);
  }

  /** For the serializer: VS Code recreated the panel after a reload; give it our options and content again. */
  revive(panel: vscode.WebviewPanel): void {
    panel.webview.options = panelOptions(this.deps.extensionUri);
    this.current?.dispose();
    this.adopt(panel);
  }

  onRunEvent(event: RunEvent, runId: string): void {
    this.current?.onRunEvent(event, runId, this.sessions);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    const inspector = new InspectorPanel(panel, this.deps);
    inspector.onDidClose(() => { if (this.current === inspector) this.current = undefined; });
    this.current = inspector;
  }

  dispose(): void {
    this.current?.dispose();
  }
}

/** `data` answers the webview's requests (every run on disk); `sessions` feeds it the live run's notifications. */
export function activateInspectorPanel(
  context: vscode.ExtensionContext,
  deps: Omit<InspectorDeps, 'extensionUri' | 'data'>,
  sessions: SessionRuns,
  data: InspectorData,
): InspectorPanels {
  const panels = new InspectorPanels({ ...deps, extensionUri: context.extensionUri, data }, sessions);
  context.subscriptions.push(
    panels,
    vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, {
      // The webview's own setState holds what it was showing; the host only has to bring it back to life.
      async deserializeWebviewPanel(panel: vscode.WebviewPanel) {
        deps.logger.info('Inspector panel restored after reload.');
        panels.revive(panel);
      },
    }),
    sessions.onDidRecord(({ event, runId }) => panels.onRunEvent(event, runId)),
    vscode.commands.registerCommand('ragInspector.openInspector', (reveal?: { runId?: unknown; key?: unknown; compare?: { before?: unknown; after?: unknown } }) => {
      const target = reveal && typeof reveal.runId === 'string'
        ? { runId: reveal.runId, key: typeof reveal.key === 'string' ? reveal.key : undefined }
        : undefined;
      const panel = panels.show(target);
      // Compare Runs opens the inspector's compare view on the chosen pair.
      const compare = reveal?.compare;
      if (compare && typeof compare.before === 'string' && typeof compare.after === 'string') {
        panel.notify(ShowCompare, { before: compare.before, after: compare.after });
      }
    }),
  );
  return panels;
}

/** Saves a chart the inspector exported (SVG or PNG as a data: URL) where the user chooses. */
async function saveImage(fileName: string, dataUrl: string): Promise<void> {
  const match = /^data:(image\/svg\+xml|image\/png)(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('the exported image is not an SVG or PNG data URL');
  const [, mime, base64, payload] = match;
  const bytes = base64 ? Buffer.from(payload ?? '', 'base64') : Buffer.from(decodeURIComponent(payload ?? ''), 'utf8');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName.replace(/[\\/]/g, '_')) : undefined,
    filters: mime === 'image/png' ? { 'PNG image': ['png'] } : { 'SVG image': ['svg'] },
    title: 'Export chart',
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, bytes);
  void vscode.window.showInformationMessage(`RAG Inspector: chart saved to ${vscode.workspace.asRelativePath(target)}.`);
}
