// A sweep over the eval file's own `index:`: the current setting is the index's values, and each query-time setting is
// the index with the cell's chunk size, overlap, embedding model, hybrid weight and reranker. Cells that differ only
// in how they search (hybrid weight, reranker) share one index on disk: its folder is named by the chunking and
// embeddings alone (indexDir.ts), so it is built once and found by every later setting.
import type { IndexSpec } from '../../retrieval/indexSpec.js';
import type { QuerySetting, SweepBase } from './grid.js';

/** The current setting of a sweep over `index` with the suite's cut-off `k`. */
export function sweepBaseOfIndex(index: IndexSpec, k: number): SweepBase {
  return {
    chunkSize: index.chunking.size,
    overlap: index.chunking.overlap,
    ...(index.embeddings && index.search !== 'bm25' ? { embeddings: index.embeddings } : {}),
    ...(index.search === 'hybrid' ? { hybridWeight: index.hybrid.weight } : {}),
    // Without a reranker there is nothing to switch: the setting says so only when the index has one.
    ...(index.rerank ? { rerank: true } : {}),
    k,
  };
}

/** The index a query-time setting searches: `index` with the setting's values over its own. */
export function indexOfSetting(index: IndexSpec, setting: QuerySetting): IndexSpec {
  const { chunkSize, overlap, hybridWeight, rerank } = setting.settings;
  const { rerank: ownRerank, ...rest } = index;
  return {
    ...rest,
    chunking: { ...index.chunking, ...(chunkSize === undefined ? {} : { size: chunkSize }), ...(overlap === undefined ? {} : { overlap }) },
    ...(setting.embeddings ? { embeddings: setting.embeddings } : {}),
    hybrid: { ...index.hybrid, ...(hybridWeight === undefined ? {} : { weight: hybridWeight }) },
    ...(ownRerank && rerank !== false ? { rerank: ownRerank } : {}),
  };
}
