// InspectorApi over the VS Code webview channel: typed requests with ids, commands, notifications, the Ready handshake;
// generic over the descriptors, so a new message needs no edit here.
import { PROTOCOL_VERSION, Ready, isEnvelope, isResponse } from '../../src/protocol.js';
import type { Command, Notification, ProtocolError, Request } from '../../src/protocol.js';
import { InspectorError } from './inspectorApi.js';
import type { InspectorApi } from './inspectorApi.js';

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
  /** Notification listeners by method. */
  private readonly listeners = new Map<string, Set<(params: never) => void>>();
  private started = false;

  constructor(private readonly vscode: VsCodeWebviewApi, private readonly target: Window = window) {
    this.target.addEventListener('message', (event: MessageEvent) => this.receive(event.data));
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.vscode.postMessage(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
  }

  handles(): boolean { return true; }

  command<P>(descriptor: Command<P>, params: P): void { this.vscode.postMessage(descriptor.create(params)); }

  on<P>(descriptor: Notification<P>, listener: (params: P) => void): () => void {
    let listeners = this.listeners.get(descriptor.method);
    if (!listeners) this.listeners.set(descriptor.method, listeners = new Set());
    const added = listener as (params: never) => void;
    listeners.add(added);
    return () => listeners.delete(added);
  }

  getViewState(): unknown { return this.vscode.getState(); }
  setViewState(state: unknown): void { this.vscode.setState(state); }

  request<P, R>(descriptor: Request<P, R>, params: P): Promise<R> {
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
    const listeners = isEnvelope(message) && message.kind === 'notification' ? this.listeners.get(message.method) : undefined;
    if (listeners) {
      const { params } = message as { params: never };
      for (const listener of listeners) listener(params);
      return;
    }
    // A notification nothing listens for, or another kind: bundles of different builds, worth a line in the console.
    console.warn(`RAG Inspector: ignored ${isEnvelope(message) ? `a ${message.kind} "${message.method}"` : 'a message that is not a protocol envelope'} from the extension.`);
  }
}

function toProtocolError(error: Partial<ProtocolError>): ProtocolError {
  const codes: ProtocolError['code'][] = ['not-found', 'bad-request', 'internal', 'cancelled'];
  return {
    code: error.code && codes.includes(error.code) ? error.code : 'internal',
    message: typeof error.message === 'string' ? error.message : 'The extension reported an error without a message',
  };
}
