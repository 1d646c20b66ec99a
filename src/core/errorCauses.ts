// Why cases ended in an error, grouped: one line per distinct cause with how many cases it hit, the first of them,
// and the fix when the cause is one we know; and why a judge answer could not be read (a metric left undetermined). The CLI prints each cause as it first happens and the table at the end;
// the VS Code notification and the inspector's header show the same words.
import type { CaseResult, Score } from './model.js';

export interface ErrorCause {
  /** Groups results that failed the same way; not shown. */
  key: string;
  /** The first such error's message, as the provider said it (without "failed after N attempts"). */
  cause: string;
  /** What to do about it, when the cause is a known one. */
  fix?: string;
  count: number;
  /** A judge answer that could not be read for a metric (the case ran; the metric is undetermined): counted per score. */
  judge?: true;
  firstCaseId: string;
  firstModelKey: string;
}

export interface CauseContext {
  /** Calls in flight per model: a shared-context overflow's fix names it. */
  concurrency?: number;
}

type CaseFailure = Pick<CaseResult, 'caseId' | 'modelKey' | 'status' | 'error'> & { scores?: readonly Pick<Score, 'metric' | 'judgeError'>[] };

/** Collects causes as results arrive; `add` answers the cause when this result is the first with it. */
export class ErrorCauseTally {
  private readonly causes = new Map<string, ErrorCause>();

  constructor(private readonly context: CauseContext = {}) {}

  add(result: CaseFailure): ErrorCause | undefined {
    if (result.status !== 'error' || !result.error) return this.addJudgeErrors(result);
    const { stage, kind, status } = result.error;
    const message = withoutAttempts(result.error.message);
    return this.count(`${result.modelKey}|${stage}|${kind}|${status ?? ''}`, message, fixFor(kind, status, message, this.context), result);
  }

  /**
   * A case that ran but whose judge answer could not be read for a metric (undetermined there): its cause is the judge
   * error's own words, which carry their fix ("raise the judge's maxTokens"), grouped per metric.
   */
  private addJudgeErrors(result: CaseFailure): ErrorCause | undefined {
    let first: ErrorCause | undefined;
    for (const score of result.scores ?? []) {
      if (score.judgeError === undefined) continue;
      const cause = this.count(`${result.modelKey}|judge|${score.metric}`, `judge error (${score.metric}): ${score.judgeError}`, undefined, result, true);
      first ??= cause;
    }
    return first;
  }

  /** Counts one case under its cause; answers the cause when it is new. */
  private count(group: string, message: string, fix: string | undefined, result: CaseFailure, judge = false): ErrorCause | undefined {
    // Numbers differ from case to case (token counts, attempts, ports do not): the words decide the group.
    const key = `${group}|${message.replace(/\d+/g, '#')}`;
    const known = this.causes.get(key);
    if (known) {
      known.count += 1;
      return undefined;
    }
    const cause: ErrorCause = { key, cause: message, ...(fix ? { fix } : {}), count: 1, ...(judge ? { judge: true as const } : {}), firstCaseId: result.caseId, firstModelKey: result.modelKey };
    this.causes.set(key, cause);
    return cause;
  }

  /** Most frequent first. */
  list(): ErrorCause[] {
    return [...this.causes.values()].sort((a, b) => b.count - a.count);
  }
}

export function errorCausesOf(results: Iterable<CaseFailure>, context: CauseContext = {}): ErrorCause[] {
  const tally = new ErrorCauseTally(context);
  for (const result of results) tally.add(result);
  return tally.list();
}

/** "cause — fix", the one line a notification or a progress note has room for. */
export function causeLine(cause: Pick<ErrorCause, 'cause' | 'fix'>): string {
  return cause.fix ? `${cause.cause} — ${cause.fix}` : cause.cause;
}

function withoutAttempts(message: string): string {
  return message.replace(/^failed after \d+ attempts?: /, '');
}

/** The fix for causes we know, in the terms of the eval file and the server's own flags. */
export function fixFor(kind: string, status: number | undefined, message: string, context: CauseContext = {}): string | undefined {
  switch (kind) {
    case 'network':
      return 'is the server running? Start it, or correct baseUrl in the eval file';
    case 'auth':
      return 'the server refused the key: check the key (apiKeyEnv in the eval file, OPENAI_API_KEY / ANTHROPIC_API_KEY)';
    case 'shared_context':
    case 'context_overflow':
      if (kind === 'shared_context' || /shared context/.test(message)) {
        const now = context.concurrency !== undefined ? ` (now ${context.concurrency})` : '';
        return `the server's context is shared by its parallel slots (llama.cpp -c is split across -np): lower concurrency${now} so that concurrency × prompt length fits, or start the server with a larger -c`;
      }
      if (/one slot of the server's context/.test(message)) return "shorten the prompt (fewer or shorter documents), or give each request more context: llama.cpp splits -c across its -np slots, so start it with a lower -np (-np 1 gives one request all of -c) or a larger -c";
      return "shorten the prompt (fewer or shorter documents), or give the model a larger context (llama.cpp -c, split across its -np slots; Ollama num_ctx; vLLM --max-model-len)";
    case 'not_supported':
      return /embedding/i.test(message) ? 'the server does not serve embeddings: start llama.cpp with --embeddings, or point embeddings: at a server that does' : 'the server does not implement this request';
    case 'truncated':
      return "raise maxTokens in the model's parameters; on a local server the slot's context can be the limit too (llama.cpp: a larger -c or a lower -np)";
    case 'timeout':
      return 'no answer in time: raise timeoutMs, or lower concurrency for a slow local server';
    case 'rate_limit':
      return 'lower concurrency or set rateLimit in the eval file';
    case 'bad_request':
      if (status === 404) return /model/i.test(message) ? 'the server does not serve this model: check the model name (rag-inspector lists what it serves before the run)' : 'wrong path: check baseUrl (OpenAI-compatible servers usually end in /v1)';
      return undefined;
    default:
      return undefined;
  }
}
