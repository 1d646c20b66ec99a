// Recognises "the prompt does not fit the model's context" in each server's own words, so the run stops retrying it
// and says what to change. Each pattern cites where its wording comes from.

/** A prompt longer than the context: the counts when the server gave them, and whether its context is shared between requests. */
export interface ContextOverflow {
  promptTokens?: number;
  contextTokens?: number;
  /**
   * llama.cpp's 500 "Context size has been exceeded." comes when the requests in flight together fill the context
   * its `-np` slots share (tools/server/server-context.cpp, sent to every processing slot): lowering the run's
   * concurrency, or raising `-c`, is the fix; the prompt alone may fit.
   */
  shared: boolean;
  /**
   * The context given is one slot's (llama.cpp's n_ctx in the error is the slot's: its -c divided by -np), so the fix
   * is fewer slots as much as a larger -c.
   */
  perSlot?: boolean;
}

/** The error body's fields a server may send beside the message (llama.cpp's n_prompt_tokens and n_ctx). */
export interface ErrorBodyFields {
  type?: unknown;
  code?: unknown;
  n_prompt_tokens?: unknown;
  n_ctx?: unknown;
}

const NUMBER = (text: string | undefined) => (text === undefined ? undefined : Number(text));

export function contextOverflowOf(message: string, fields: ErrorBodyFields = {}): ContextOverflow | undefined {
  // llama.cpp (tools/server/server-context.cpp, format_error_response in server-common.cpp): HTTP 400, type
  // "exceed_context_size_error", "request (%d tokens) exceeds the available context size (%d tokens), try increasing it",
  // with n_prompt_tokens and n_ctx in the error object.
  const llama = /request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/i.exec(message);
  if (llama || fields.type === 'exceed_context_size_error') {
    return {
      promptTokens: typeof fields.n_prompt_tokens === 'number' ? fields.n_prompt_tokens : NUMBER(llama?.[1]),
      contextTokens: typeof fields.n_ctx === 'number' ? fields.n_ctx : NUMBER(llama?.[2]),
      shared: false,
      perSlot: true,
    };
  }
  // llama.cpp (tools/server/server-context.cpp): HTTP 500, type "server_error", "Context size has been exceeded."
  // when no KV cell is left for the slots decoding together.
  if (/context size has been exceeded/i.test(message)) return { shared: true };
  // vLLM (entrypoints/openai serving, the VLLMValidationError it answers as a 400 BadRequestError): "This model's maximum
  // context length is %d tokens. However, you requested %d output tokens and your prompt contains [at least] %d input tokens…"
  const vllm = /maximum context length is (\d+) tokens\. However, you requested \d+ output tokens and your prompt contains (?:at least )?(\d+) input tokens/i.exec(message);
  if (vllm) return { contextTokens: NUMBER(vllm[1]), promptTokens: NUMBER(vllm[2]), shared: false };
  // OpenAI (code "context_length_exceeded"): "This model's maximum context length is %d tokens. However, your messages
  // resulted in %d tokens…" (older vLLM releases answer the same sentence).
  const openai = /maximum context length is (\d+) tokens\. However, (?:your messages resulted in|you requested) (\d+) tokens/i.exec(message);
  if (openai) return { contextTokens: NUMBER(openai[1]), promptTokens: NUMBER(openai[2]), shared: false };
  if (fields.code === 'context_length_exceeded') return { shared: false };
  // Anthropic (invalid_request_error): "prompt is too long: %d tokens > %d maximum".
  const anthropic = /prompt is too long: (\d+) tokens > (\d+) maximum/i.exec(message);
  if (anthropic) return { promptTokens: NUMBER(anthropic[1]), contextTokens: NUMBER(anthropic[2]), shared: false };
  // Ollama (llm server, a 400 or 500 with {"error": "..."}): "the input length exceeds the context length".
  if (/input length exceeds the context length/i.test(message)) return { shared: false };
  return undefined;
}

/** "prompt too long: 5011 tokens, the context holds 4096", the words every surface shows for this error. */
export function describeOverflow(overflow: ContextOverflow): string {
  if (overflow.shared) return "prompt too long: the prompts in flight together exceed the server's shared context";
  const holder = overflow.perSlot ? "one slot of the server's context" : "the model's context";
  const counts = overflow.promptTokens !== undefined && overflow.contextTokens !== undefined
    ? `: ${overflow.promptTokens} tokens, ${holder} holds ${overflow.contextTokens}`
    : overflow.contextTokens !== undefined ? `: ${holder} holds ${overflow.contextTokens} tokens` : '';
  return `prompt too long${counts}`;
}
