// The eval file (`*.eval.yaml`) after loading: paths resolved, defaults applied.
import type { RetrieverSpec } from '../retrieval/contract.js';
import type { SweepSpec } from '../retrieval/indexSpec.js';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import type { Usage } from '../model.js';
import type { ModelSpec } from '../providers/contract.js';
import type { JudgeSampling } from '../suites/judgeSamples.js';

export interface RateLimitSpec {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

export interface ThresholdSpec {
  /** Metric name as the suite reports it, e.g. "accuracy" or "rej_star". */
  metric: string;
  min?: number;
  max?: number;
}

export interface SuiteSpec {
  /** Unique within the file; used in case ids and reports. */
  id: string;
  /** "rgb" | "needle" | "ifrag" | "ragas" | "llm-eval". */
  method: string;
  /** Absolute path; undefined means the method's built-in template. */
  template?: string;
  /** Absolute path. */
  dataset?: string;
  /** True when `dataset` came from the top-level default rather than the suite entry. */
  datasetFromDefault?: boolean;
  /** Method parameters, validated by the suite's parseParams. */
  params: Record<string, unknown>;
  thresholds: ThresholdSpec[];
  /** Only the first N rows (after skipping bad ones); handy for quick iterations. */
  limit?: number;
  /** A dataset column of human labels (correct / wrong) the judge's agreement is measured against. */
  humanLabels?: string;
}

/** `explain:` in the eval file: explain cases right after the run (see src/core/explain). */
export interface ExplainSpec {
  /** Explain the failed (case, model) pairs. */
  failed: boolean;
  /** Variant kinds; all four when absent. */
  variants?: ('loo' | 'subsets' | 'position' | 'instruction')[];
  subsets?: number;
  segments?: number;
  /** At most this many model calls for the explanation (cache hits are free). */
  maxCalls?: number;
}

/** `export.otlp` of the eval file: header values stay environment variable names until the export reads them. */
export interface OtlpExportSpec {
  endpoint: string;
  headers: Record<string, { env: string; prefix?: string }>;
  batchSize?: number;
}

export interface EvalSpec {
  version: 1;
  /** Absolute path of the eval file. */
  file: string;
  /** sha256 of the file's bytes. */
  hash: string;
  name: string;
  description?: string;
  models: ModelSpec[];
  judge?: ModelSpec;
  /** judgeSamples: k; absent = score once. */
  judgeSamples?: JudgeSampling;
  embeddings?: ModelSpec;
  suites: SuiteSpec[];
  concurrency: number;
  rateLimit: RateLimitSpec;
  timeoutMs: number;
  maxRetries: number;
  seed: number;
  /** USD per million tokens, keyed "provider:model" or "model"; merged over the built-in price table. */
  prices: Record<string, { input: number; output: number }>;
  explain?: ExplainSpec;
  export?: { otlp?: OtlpExportSpec };
  /** `retriever:`, the source of the rag method's passages; absent: the passages already in the rows. */
  retriever?: RetrieverSpec;
  /** `sweep:`, the retrieval settings `rag-inspector sweep` tries as a grid. */
  sweep?: SweepSpec;
  /** `index:`, a folder the product indexes and searches as the rag method's retriever (never beside `retriever`). */
  index?: IndexSpec;
}

export type { Usage };
