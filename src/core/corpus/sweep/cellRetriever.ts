// A sweep cell's retriever from any retriever that takes params: the user's script or HTTP service is asked with the
// cell's settings as params ({ chunkSize, overlap, embeddings, hybridWeight, rerank }), so it can honour them, and
// the retrieval cache keys them (a re-sweep asks nothing again).
import type { Retriever } from '../../retrieval/contract.js';
import type { QuerySetting } from './grid.js';
import type { RetrieverForCell } from './runSweep.js';

/** The setting as a retriever receives it in `params` (k travels as the request's own k). */
export function settingParams(setting: QuerySetting): Record<string, unknown> {
  return Object.fromEntries(Object.entries(setting.settings).filter(([, value]) => value !== undefined));
}

/** `inner` asked with `params` over each request's own; its identity names them (the report tells cells apart). */
export function retrieverWithParams(inner: Retriever, params: Record<string, unknown>): Retriever {
  const shown = Object.entries(params).map(([key, value]) => `${key}=${String(value)}`).join(' ');
  return {
    identity: shown ? `${inner.identity} (${shown})` : inner.identity,
    kind: inner.kind,
    retrieve: (request, signal) => inner.retrieve({ ...request, params: { ...request.params, ...params } }, signal),
  };
}

/** Every query-time setting through one retriever (one process for a script), each with its settings as params. */
export function paramsPerCell(inner: Retriever): RetrieverForCell {
  return (setting) => retrieverWithParams(inner, settingParams(setting));
}
