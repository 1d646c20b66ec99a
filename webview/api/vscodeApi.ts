// InspectorApi over the VS Code webview channel: typed requests with ids, commands, notifications, the Ready handshake.
import {
  CancelExplain, CaseExplained, ExplainCase, ExplainFailed, ExplainFinished, ExplainProgress, ExplainStarted, GetExplanation,
  CancelRun, CaseFinished, CompareRuns, GetVerdicts, SetVerdicts, ExportImage, GetCase, GetRun, ListRuns, OpenDatasetRow, OpenTemplate, PROTOCOL_VERSION,
  BatchProgress, Ready, RerunCase, ResumeRun, Reveal, RunFinished, RunStarted, ShowCompare, isEnvelope, isResponse,
} from '../../src/protocol.js';
import type { ProtocolError, Request, VerdictChange } from '../../src/protocol.js';
import { InspectorError } from './inspectorApi.js';
import type { InspectorApi, InspectorNotification } from './inspectorApi.js';

/** The object VS Code injects into webviews; callable once per page. */
export interface VsCodeWebviewApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  // Defined by VS Code inside webviews only; main.ts checks it exists before using this module.
  function acquireVsCodeApi(): VsCodeWebviewApi;
}

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: InspectorError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** A host that never answers (crashed, reloaded) must not leave the view spinning forever. */
const REQUEST_TIMEOUT_MS = 120_000;

export class VsCodeApi implements InspectorApi {
  readonly kind = 'vscode';
  readonly canRunCommands = true;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(notification: InspectorNotification) => void>();
  private started = false;

  constructor(private readonly vscode: VsCodeWebviewApi, private readonly target: Window = window) {
    this.target.addEventListener('message', (event: MessageEvent) => this.receive(event.data));
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.vscode.postMessage(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
  }

  listRuns() { return this.request(ListRuns, {}); }
  getRun(runId: string) { return this.request(GetRun, { runId }); }
  getCase(runId: string, key: string) { return this.request(GetCase, { runId, key }); }
  compareRuns(before: string, after: string) { return this.request(CompareRuns, { before, after }); }
  getExplanation(runId: string) { return this.request(GetExplanation, { runId }); }
  getVerdicts(runId: string) { return this.request(GetVerdicts, { runId }); }
  setVerdicts(runId: string, change: VerdictChange) { return this.request(SetVerdicts, { runId, payload: JSON.stringify(change) }); }

  openDatasetRow(file: string, line: number): void { this.vscode.postMessage(OpenDatasetRow.create({ file, line })); }
  openTemplate(file: string): void { this.vscode.postMessage(OpenTemplate.create({ file })); }
  rerunCase(runId: string, key: string): void { this.vscode.postMessage(RerunCase.create({ runId, key })); }
  cancelRun(runId: string): void { this.vscode.postMessage(CancelRun.create({ runId })); }
  resumeRun(runId: string): void { this.vscode.postMessage(ResumeRun.create({ runId })); }
  explain(runId: string, key?: string): void {
    this.vscode.postMessage(key === undefined ? ExplainFailed.create({ runId }) : ExplainCase.create({ runId, key }));
  }
  cancelExplain(runId: string): void { this.vscode.postMessage(CancelExplain.create({ runId })); }
  exportImage(fileName: string, dataUrl: string): void { this.vscode.postMessage(ExportImage.create({ fileName, dataUrl })); }

  onNotification(listener: (notification: InspectorNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getViewState(): unknown { return this.vscode.getState(); }
  setViewState(state: unknown): void { this.vscode.setState(state); }

  private request<P, R>(descriptor: Request<P, R>, params: P): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new InspectorError({ code: 'internal', message: `No answer from VS Code to ${descriptor.method} after ${REQUEST_TIMEOUT_MS / 1000} s` }));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { method: descriptor.method, resolve: resolve as (value: unknown) => void, reject, timer });
      this.vscode.postMessage(descriptor.create(id, params));
    });
  }

  private receive(message: unknown): void {
    if (isResponse(message)) {
      const pending = this.pending.get(message.id);
      // A response for an id we no longer wait for (timed out, or from before a reload) is dropped.
      if (!pending || pending.method !== message.method) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) pending.reject(new InspectorError(toProtocolError(message.error)));
      else pending.resolve(message.result);
      return;
    }
    const notification = toNotification(message);
    if (notification) for (const listener of this.listeners) listener(notification);
    // The host sends nothing else, so this means bundles of different builds: worth a line in the webview's console.
    else console.warn(`RAG Inspector: ignored ${isEnvelope(message) ? `a ${message.kind} "${message.method}"` : 'a message that is not a protocol envelope'} from the extension.`);
  }
}

function toNotification(message: unknown): InspectorNotification | undefined {
  if (RunStarted.is(message)) return { type: 'runStarted', params: message.params };
  if (CaseFinished.is(message)) return { type: 'caseFinished', params: message.params };
  if (RunFinished.is(message)) return { type: 'runFinished', params: message.params };
  if (BatchProgress.is(message)) return { type: 'batchProgress', params: message.params };
  if (Reveal.is(message)) return { type: 'reveal', params: message.params };
  if (ShowCompare.is(message)) return { type: 'showCompare', params: message.params };
  if (ExplainStarted.is(message)) return { type: 'explainStarted', params: message.params };
  if (ExplainProgress.is(message)) return { type: 'explainProgress', params: message.params };
  if (CaseExplained.is(message)) return { type: 'caseExplained', params: message.params };
  if (ExplainFinished.is(message)) return { type: 'explainFinished', params: message.params };
  return undefined;
}

function toProtocolError(error: Partial<ProtocolError>): ProtocolError {
  const codes: ProtocolError['code'][] = ['not-found', 'bad-request', 'internal', 'cancelled'];
  return {
    code: error.code && codes.includes(error.code) ? error.code : 'internal',
    message: typeof error.message === 'string' ? error.message : 'The extension reported an error without a message',
  };
}
