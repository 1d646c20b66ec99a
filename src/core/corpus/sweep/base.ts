// The current setting a sweep is measured against: what the eval file already uses — the retriever's params (a script
// or service that reads chunkSize, overlap, embeddings, hybridWeight, rerank) and the rag suite's k.
import type { EvalSpec } from '../../spec/types.js';
import type { SweepBase } from './grid.js';

/** The current setting from `retriever.params` and the suite's cut-off `k`; a param of the wrong type is not taken. */
export function sweepBaseOf(spec: Pick<EvalSpec, 'retriever'>, k: number): SweepBase {
  const params = spec.retriever?.type === 'command' || spec.retriever?.type === 'http' ? (spec.retriever.params ?? {}) : {};
  const whole = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);
  const base: SweepBase = { k };
  const chunkSize = whole(params.chunkSize);
  const overlap = whole(params.overlap);
  if (chunkSize !== undefined && chunkSize > 0) base.chunkSize = chunkSize;
  if (overlap !== undefined) base.overlap = overlap;
  if (typeof params.hybridWeight === 'number' && params.hybridWeight >= 0 && params.hybridWeight <= 1) base.hybridWeight = params.hybridWeight;
  if (typeof params.rerank === 'boolean') base.rerank = params.rerank;
  if (typeof params.embeddings === 'string' && params.embeddings.includes(':')) {
    const colon = params.embeddings.indexOf(':');
    base.embeddings = { provider: params.embeddings.slice(0, colon), model: params.embeddings.slice(colon + 1), parameters: {} };
  }
  return base;
}
