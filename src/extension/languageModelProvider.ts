// The `vscode-lm` provider: evaluates the chat models VS Code offers (GitHub Copilot's, or any extension's) through vscode.lm, with no API key.
import * as vscode from 'vscode';
import type { ChatMessage, ResponseRecord } from '../core/model.js';
import { ProviderConfigError, ProviderError } from '../core/providers/contract.js';
import type { CallOptions, CompletionRequest, ModelSpec, Provider, ProviderErrorKind } from '../core/providers/contract.js';
import { abortError } from '../core/providers/errors.js';
import type { ProviderFactory } from '../core/providers/registry.js';

export const LANGUAGE_MODEL_PROVIDER = 'vscode-lm';

/** Shown in VS Code's consent dialog, the first time a run uses a model that asks for consent. */
const JUSTIFICATION = 'RAG Inspector sends the prompts of the evaluation you started to this model and scores its answers.';

/** The providers the extension adds to core's registry; runs get them through the RunController. */
export function languageModelProviders(): Record<string, ProviderFactory> {
  return { [LANGUAGE_MODEL_PROVIDER]: createLanguageModelProvider };
}

/**
 * Picks the chat model once, when the run starts, so an unknown name fails before any case with the list of what
 * is there. `model` is an id or a family; "vendor/name" (e.g. copilot/gpt-4o) or `parameters.vendor` narrows it.
 */
export async function createLanguageModelProvider(spec: ModelSpec): Promise<Provider> {
  const { vendor, name } = selectorOf(spec);
  const candidates = await vscode.lm.selectChatModels(vendor ? { vendor } : undefined);
  const byId = candidates.filter((model) => model.id === name);
  const matches = byId.length > 0 ? byId : candidates.filter((model) => model.family === name);
  const vendors = new Set(matches.map((model) => model.vendor));
  if (vendors.size > 1) {
    throw new ProviderConfigError(`VS Code chat model '${name}' is offered by ${[...vendors].join(' and ')}: write the model as vendor/${name} (e.g. ${[...vendors][0]}/${name}) or set parameters.vendor.`);
  }
  // Within one vendor several versions may share a family; VS Code lists its preferred one first.
  const chosen = matches[0];
  if (!chosen) throw new ProviderConfigError(noModelMessage(spec.model, await vscode.lm.selectChatModels()));
  return new LanguageModelProvider(chosen, spec.label);
}

function selectorOf(spec: ModelSpec): { vendor?: string; name: string } {
  const vendor = spec.parameters.vendor;
  if (typeof vendor === 'string' && vendor.trim() !== '') return { vendor: vendor.trim(), name: spec.model };
  const slash = spec.model.indexOf('/');
  return slash > 0 ? { vendor: spec.model.slice(0, slash), name: spec.model.slice(slash + 1) } : { name: spec.model };
}

function noModelMessage(wanted: string, available: readonly vscode.LanguageModelChat[]): string {
  const listed = available.map((model) => `${model.vendor}/${model.id}${model.family !== model.id ? ` (family ${model.family})` : ''}`);
  return `No VS Code chat model '${wanted}': available: ${listed.length ? listed.join(', ') : 'none'}; `
    + 'sign in to GitHub Copilot or install an extension that provides chat models, then write the model as vendor/id, e.g. vscode-lm:copilot/gpt-4o.';
}

/**
 * One VS Code chat model behind core's Provider contract. The LM API streams only, reports no usage and no finish
 * reason: usage comes from the model's own countTokens and is approximate (message framing is not counted).
 */
export class LanguageModelProvider implements Provider {
  readonly id = LANGUAGE_MODEL_PROVIDER;
  readonly label: string;
  /** The exact model and version, so a cached answer is never reused for another model or version. */
  readonly endpoint: string;

  constructor(private readonly model: vscode.LanguageModelChat, label?: string) {
    this.label = label ?? `${model.name} (VS Code ${model.vendor}; token counts approximate)`;
    this.endpoint = `vscode-lm:${model.vendor}/${model.id}@${model.version}`;
  }

  async complete(request: CompletionRequest, options: CallOptions): Promise<ResponseRecord> {
    const { signal } = options;
    const started = performance.now();
    if (signal.aborted) throw abortError(this.label, signal);
    const messages = toLanguageModelMessages(request.messages);
    const cancellation = new vscode.CancellationTokenSource();
    const onAbort = () => cancellation.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      // Structured output is not sent: the LM API has no JSON mode; judges validate (and repair) the JSON themselves.
      const response = await this.model.sendRequest(messages, { justification: JUSTIFICATION, modelOptions: modelOptionsOf(request) }, cancellation.token);
      let text = '';
      for await (const chunk of untilAborted(response.text, signal)) text += chunk;
      if (signal.aborted) throw abortError(this.label, signal);
      const usage = await this.usageOf(messages, text, cancellation.token);
      return { text, usage, latencyMs: performance.now() - started, cached: false };
    } catch (error) {
      throw toProviderError(error, this.label, this.model, signal);
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancellation.dispose();
    }
  }

  private async usageOf(messages: vscode.LanguageModelChatMessage[], text: string, token: vscode.CancellationToken): Promise<ResponseRecord['usage']> {
    const input = await Promise.all(messages.map((message) => this.model.countTokens(message, token)));
    const outputTokens = text ? await this.model.countTokens(text, token) : 0;
    return { inputTokens: input.reduce((sum, n) => sum + n, 0), outputTokens };
  }
}

/**
 * The LM API has no system role (only a proposed one), so system messages are joined and put before the first user
 * message's text, separated by a blank line; with no user message they become one. Everything else keeps its order,
 * and a trailing assistant message goes as-is, for the models that continue a pre-fill.
 */
export function toLanguageModelMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content).join('\n\n');
  const turns = messages.filter((message) => message.role !== 'system');
  const firstUser = turns.findIndex((message) => message.role === 'user');
  if (system && firstUser === -1) turns.unshift({ role: 'user', content: system });
  return turns.map((message, index) => {
    if (message.role === 'assistant') return vscode.LanguageModelChatMessage.Assistant(message.content);
    const content = system && index === firstUser ? `${system}\n\n${message.content}` : message.content;
    return vscode.LanguageModelChatMessage.User(content);
  });
}

/**
 * Decoding parameters under the OpenAI names GitHub Copilot reads from modelOptions (temperature, max_tokens, stop);
 * a model that does not know one ignores it. Vendor extras pass through unchanged, except `vendor`, which only picks
 * the model.
 */
function modelOptionsOf(request: CompletionRequest): Record<string, unknown> {
  const { vendor: _vendor, ...extra } = request.extra ?? {};
  const options: Record<string, unknown> = { ...extra };
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.maxTokens !== undefined) options.max_tokens = request.maxTokens;
  if (request.topP !== undefined) options.top_p = request.topP;
  if (request.stop !== undefined) options.stop = request.stop;
  if (request.seed !== undefined) options.seed = request.seed;
  return options;
}

/**
 * The stream's chunks until the signal fires. Cancelling the token asks the model to stop, but a provider that
 * ignores it would keep the stream open, so each wait is raced against the abort.
 */
async function* untilAborted(stream: AsyncIterable<string>, signal: AbortSignal): AsyncGenerator<string> {
  const iterator = stream[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<IteratorResult<string>>((resolve) => {
    onAbort = () => resolve({ done: true, value: undefined });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      if (signal.aborted) return;
      const pending = iterator.next();
      // A chunk that loses the race to the abort may still fail later; nobody is waiting for it then.
      pending.catch(() => undefined);
      const next = await Promise.race([pending, aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    releaseStream(iterator);
  }
}

/** Lets the stream let go of what it holds; it may already have failed, which the loop has reported. */
function releaseStream(iterator: AsyncIterator<string>): void {
  try {
    const closing = iterator.return?.();
    if (closing) void Promise.resolve(closing).catch(() => undefined);
  } catch {
    // Nothing left to release.
  }
}

/**
 * LanguageModelError codes to the kinds the scheduler acts on; never retried here. Copilot reports quota and rate
 * limits as errors named ChatQuotaExceeded / ChatRateLimited (the name survives VS Code's IPC, the class does not).
 */
function toProviderError(error: unknown, label: string, model: vscode.LanguageModelChat, signal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted) return abortError(label, signal);
  const { name, code, message } = errorFacts(error);
  const kind: ProviderErrorKind = kindOf(name, code);
  const text = kind === 'auth'
    ? `${label}: RAG Inspector may not use ${model.vendor}/${model.id} (${message}). Run the evaluation again and choose Allow when VS Code asks for consent, or grant access under Accounts › Manage Language Model Access.`
    : `${label}: ${message}`;
  return new ProviderError(kind, text, { cause: error });
}

function kindOf(name: string, code: string | undefined): ProviderErrorKind {
  if (code === vscode.LanguageModelError.NoPermissions.name) return 'auth';
  if (code === vscode.LanguageModelError.Blocked.name) return 'rate_limit';
  if (code === vscode.LanguageModelError.NotFound.name) return 'bad_request';
  if (name === 'ChatQuotaExceeded' || name === 'ChatRateLimited') return 'rate_limit';
  if (name === 'Canceled') return 'cancelled';
  // An unspecified failure of the model or its extension: worth the scheduler's retries, like a 5xx.
  return 'server';
}

function errorFacts(error: unknown): { name: string; code?: string; message: string } {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error && error.cause.message && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
  return { name: error.name, code: typeof code === 'string' && code ? code : undefined, message: `${error.message || error.name}${cause}` };
}
