// The question as every retriever receives it (a command's stdin line, an HTTP body): { question, k, params }.
import type { RetrievalRequest } from './contract.js';

export interface WireRequest {
  question: string;
  k: number;
  params: Record<string, unknown>;
}

/** The eval file's `params:` of the retriever, with the request's own params over them (always an object, maybe {}). */
export function wireRequest(request: RetrievalRequest, specParams: Record<string, unknown> | undefined): WireRequest {
  const params = specParams && request.params ? { ...specParams, ...request.params } : (request.params ?? specParams ?? {});
  return { question: request.question, k: request.k, params };
}
