// Embeddings from any OpenAI-compatible `/embeddings` endpoint (OpenAI, Ollama, vLLM, LM Studio, Azure).
import type { OpenAI } from 'openai';
import { ProviderError } from './contract.js';
import type { CallOptions, EmbeddingProvider, EmbeddingRequest, EmbeddingResult } from './contract.js';
import { listModelIds, openAIClientOnFirstUse } from './openai.js';
import type { OpenAIProviderOptions } from './openai.js';
import { publicEndpoint } from './secrets.js';
import { vendorCall } from './timedCompletion.js';
import type { VendorContext } from './timedCompletion.js';

export class OpenAIEmbeddingProvider implements EmbeddingProvider {
  readonly id: string;
  readonly endpoint: string;
  private readonly label: string;
  private readonly client: () => OpenAI;
  /** The label errors are worded with, and the key none may carry. */
  private readonly vendor: VendorContext;

  constructor(options: OpenAIProviderOptions) {
    this.id = options.id ?? 'openai';
    this.endpoint = publicEndpoint(options.baseURL);
    this.label = options.label ?? (this.id === 'openai' ? 'OpenAI embeddings' : `Embeddings (${this.endpoint})`);
    this.vendor = { vendor: this.label, secret: options.apiKey };
    this.client = openAIClientOnFirstUse(options);
  }

  listModels(options: CallOptions): Promise<string[]> {
    return vendorCall(this.vendor, options, (signal) => listModelIds(this.client(), signal));
  }

  async embed(request: EmbeddingRequest, options: CallOptions): Promise<EmbeddingResult> {
    const started = performance.now();
    // The API rejects an empty input list; nothing to embed is simply no vectors.
    if (request.input.length === 0) return { vectors: [], usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    return vendorCall(this.vendor, options, async (signal) => {
      // 'float' explicitly: the SDK otherwise asks for base64, which several compatible servers do not implement.
      const response: unknown = await this.client().embeddings.create({ model: request.model, input: request.input, encoding_format: 'float' }, { signal });
      return { vectors: vectorsOf(response, request.input.length, this.label), usage: { inputTokens: promptTokensOf(response), outputTokens: 0 }, latencyMs: performance.now() - started };
    });
  }
}

/** The vectors in input order (the API tags each with its index), checked so a bad reply never becomes a bad score. */
function vectorsOf(response: unknown, expected: number, vendor: string): number[][] {
  const data = (response as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data) || data.length !== expected) throw new ProviderError('bad_response', `${vendor}: expected ${expected} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`);
  const vectors: (number[] | undefined)[] = Array.from({ length: expected }, () => undefined);
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item.index === 'number' ? item.index : position;
    const embedding = item.embedding;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((value) => typeof value === 'number' && Number.isFinite(value))) {
      throw new ProviderError('bad_response', `${vendor}: embedding ${index} is not a list of numbers`);
    }
    vectors[index] = embedding as number[];
  });
  if (vectors.length !== expected || vectors.some((vector) => vector === undefined)) throw new ProviderError('bad_response', `${vendor}: embedding indexes do not cover every input`);
  return vectors as number[][];
}

function promptTokensOf(response: unknown): number {
  const tokens = (response as { usage?: { prompt_tokens?: unknown } } | undefined)?.usage?.prompt_tokens;
  return typeof tokens === 'number' ? tokens : 0;
}
