// The host's side of the webview channel: one table of handlers keyed by the protocol's descriptors, params checked
// against the descriptor's shape once here, every request answered. No vscode import, so unit tests drive it directly.
import { failure, isEnvelope } from '../protocol.js';
import type { Command, Envelope, ProtocolError, Request } from '../protocol.js';
import { ShapeError } from '../protocolShapes.js';
import type { Shape } from '../protocolShapes.js';
import type { Logger } from './outputChannel.js';

/** A failure the webview is told the code of (a run not found, a bad request); any other error reaches it as 'internal'. */
export class RequestFailure extends Error {
  constructor(readonly code: ProtocolError['code'], message: string) {
    super(message);
    this.name = 'RequestFailure';
  }
}

interface RequestHandler {
  kind: 'request';
  method: string;
  /** Checks the params, runs the handler and resolves with its response; rejects with what either threw. */
  answer(id: number, params: unknown): Promise<Envelope>;
}

interface CommandHandler {
  kind: 'command';
  method: string;
  run(params: unknown): Promise<void>;
}

/** One row of the table. Built only by onRequest/onCommand, which type the handler by its descriptor. */
export type Handler = RequestHandler | CommandHandler;

export function onRequest<P, R>(descriptor: Request<P, R>, handle: (params: P) => R | PromiseLike<R>): Handler {
  return {
    kind: 'request',
    method: descriptor.method,
    answer: async (id, params) => descriptor.respond(id, await handle(checkParams(descriptor.params, params))),
  };
}

export function onCommand<P>(descriptor: Command<P>, handle: (params: P) => void | PromiseLike<unknown>): Handler {
  return {
    kind: 'command',
    method: descriptor.method,
    run: async (params) => { await handle(checkParams(descriptor.params, params)); },
  };
}

export interface DispatchHost {
  post(message: Envelope): void;
  logger: Pick<Logger, 'debug' | 'warn' | 'error'>;
  /** A command has no answer the webview could show, so its failure is shown to the user by the host. */
  commandFailed(message: string): void;
}

export class WebviewDispatcher {
  private readonly requests = new Map<string, RequestHandler>();
  private readonly commands = new Map<string, CommandHandler>();

  constructor(handlers: readonly Handler[], private readonly host: DispatchHost) {
    for (const handler of handlers) {
      const table: Map<string, Handler> = handler.kind === 'request' ? this.requests : this.commands;
      // A second handler would silently win or lose depending on order; the table is fixed at construction, so say so now.
      if (table.has(handler.method)) throw new Error(`two handlers for the ${handler.kind} "${handler.method}"`);
      table.set(handler.method, handler);
    }
  }

  /** Never rejects: whatever goes wrong is logged, and a request that can be answered is. */
  async dispatch(message: unknown): Promise<void> {
    if (!isEnvelope(message)) {
      this.host.logger.warn('Inspector: ignored a message that is not a protocol envelope.');
      return;
    }
    if (message.kind === 'request') return this.answer(message);
    if (message.kind === 'command') return this.run(message);
    this.host.logger.warn(`Inspector: ignored a ${message.kind} "${message.method}" from the webview.`);
  }

  private async answer({ method, id, params }: Envelope): Promise<void> {
    if (typeof id !== 'number') {
      this.host.logger.warn(`Inspector: ignored a request "${method}" without a numeric id: it cannot be answered.`);
      return;
    }
    const handler = this.requests.get(method);
    if (!handler) {
      this.host.logger.warn(`Inspector: answered the unknown request "${method}" #${id} with an error.`);
      this.host.post(failure(method, id, { code: 'bad-request', message: `unknown request "${method}"` }));
      return;
    }
    const started = Date.now();
    let response: Envelope;
    try {
      response = await handler.answer(id, params);
      this.host.logger.debug(`Inspector: ${method} #${id} answered in ${Date.now() - started} ms.`);
    } catch (error) {
      const problem = toProtocolError(error);
      // Expected failures (a run gone, a bad parameter) are the webview's to show; only the unexpected need a stack.
      if (problem.code === 'internal') this.host.logger.error(error instanceof Error ? error : String(error));
      this.host.logger.debug(`Inspector: ${method} #${id} failed (${problem.code}): ${problem.message}`);
      response = failure(method, id, problem);
    }
    this.host.post(response);
  }

  private async run({ method, params }: Envelope): Promise<void> {
    const handler = this.commands.get(method);
    if (!handler) {
      this.host.logger.warn(`Inspector: ignored unknown command "${method}".`);
      return;
    }
    try {
      await handler.run(params);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.host.logger.error(`Inspector: ${method} failed: ${text}`);
      this.host.commandFailed(text);
    }
  }
}

function toProtocolError(error: unknown): ProtocolError {
  if (error instanceof RequestFailure) return { code: error.code, message: error.message };
  if (error instanceof Error && error.name === 'AbortError') return { code: 'cancelled', message: error.message };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/** Only the declared fields reach the handler, each of its declared shape; anything else is a bad request naming the field. */
function checkParams<P>(shape: Shape<P>, params: unknown): P {
  try {
    return shape.check(params, '');
  } catch (error) {
    if (error instanceof ShapeError) throw new RequestFailure('bad-request', error.message);
    throw error;
  }
}
