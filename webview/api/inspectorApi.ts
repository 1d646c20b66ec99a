// What the inspector UI needs from wherever runs live: the VS Code host (vscodeApi) or data embedded in the page
// (staticApi). Generic over src/protocol.ts's descriptors, so a new message needs no edit here.
import type { Command, Notification, ProtocolError, Request } from '../../src/protocol.js';

export interface InspectorApi {
  /** "static" has no host: no files to open, nothing to rerun, cancel or resume; the UI hides those actions. */
  readonly kind: 'vscode' | 'static';
  readonly canRunCommands: boolean;

  /** Call once the UI listens for notifications: the VS Code implementation sends Ready then. */
  start(): void;

  /** Whether this API answers the message: the static report answers only what the page's data can (e.g. no verdicts). */
  handles<P, R>(descriptor: Request<P, R> | Command<P>): boolean;
  /** Rejects with an InspectorError; a message this API does not handle is a 'not-found' one. */
  request<P, R>(descriptor: Request<P, R>, params: P): Promise<R>;
  /** Fire and forget; a command this API does not handle does nothing. */
  command<P>(descriptor: Command<P>, params: P): void;
  /** Listens for one notification; returns an unsubscribe function. */
  on<P>(descriptor: Notification<P>, listener: (params: P) => void): () => void;

  /** Navigation/view state only (see viewState.ts); never run data, which is fetched again. */
  getViewState(): unknown;
  setViewState(state: unknown): void;
}

/** A failed request, keeping the protocol's code so the view can word it. */
export class InspectorError extends Error {
  readonly code: ProtocolError['code'];
  constructor(error: ProtocolError) {
    super(error.message);
    this.name = 'InspectorError';
    this.code = error.code;
  }
}

/** A message for any rejection, including ones that are not InspectorErrors. */
export function describeError(error: unknown): string {
  if (error instanceof InspectorError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
