// The JSON Schema of `*.eval.yaml`: validates eval files on load and, emitted to media/eval.schema.json, drives editor completion.
import { knownMethods, suiteFor } from '../suites/registry.js';
import { DEFAULT_CORPUS_INCLUDE, SWEEP_METRICS } from '../retrieval/indexSpec.js';

/** "rgb (RGB benchmark), …, or stress (…)": each registered method with its own summary (Suite.summary). */
function methodSummaries(): string {
  const named = knownMethods().map((method) => {
    const summary = suiteFor(method)?.summary;
    return summary ? `${method} (${summary})` : method;
  });
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} or ${named.at(-1)!}` : named.join('');
}

/** The subset of draft-07 this schema uses, so the const below is checked as it is written. */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  $ref?: string;
  title?: string;
  description?: string;
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  minProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  enum?: string[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
  examples?: unknown[];
  definitions?: Record<string, JsonSchema>;
}

export const DEFAULTS = {
  // Eval runs are latency-bound, and the scheduler halves its concurrency on a 429 and honours Retry-After, so a
  // default of 8 in flight is safe for hosted APIs and halves wall time against 4 (bench/promptfoo.ts).
  concurrency: 8,
  timeoutMs: 60_000,
  maxRetries: 4,
  seed: 2333,
} as const;

/**
 * The most calls in flight per model an eval file, `--concurrency` or the VS Code setting may ask for: above the
 * parallel requests any hosted API or local server serves, and low enough that a typo (1e9) is refused at load
 * instead of planning a billion lanes.
 */
export const MAX_CONCURRENCY = 1000;

const MODEL_SHORTHAND = '^[A-Za-z0-9_.-]+:\\S.*$';

const modelParameters: JsonSchema = {
  type: 'object',
  description: 'Decoding and provider parameters sent with every request to this model. Unknown keys are passed to the provider.',
  properties: {
    temperature: { type: 'number', minimum: 0, maximum: 2, description: 'Sampling temperature (0 = most deterministic).' },
    maxTokens: { type: 'integer', minimum: 1, description: 'Upper bound on the tokens of each response.' },
    topP: { type: 'number', minimum: 0, maximum: 1, description: 'Nucleus sampling: keep the smallest token set whose probability reaches topP.' },
    seed: { type: 'integer', description: 'Sampling seed, for providers that support reproducible sampling.' },
    stream: { type: 'boolean', description: 'Stream the response (lets the panel show it as it arrives).' },
  },
  additionalProperties: true,
};

const modelMapping: JsonSchema = {
  type: 'object',
  description: 'A model with options.',
  properties: {
    provider: {
      type: 'string',
      minLength: 1,
      description: 'Provider name: openai, anthropic, openai-compatible (Ollama, vLLM, LM Studio…) or extractive (the offline baseline).',
      examples: ['openai', 'anthropic', 'openai-compatible', 'extractive'],
    },
    model: { type: 'string', minLength: 1, description: 'Model name as the provider knows it, e.g. gpt-4o-mini or llama3:8b.' },
    label: { type: 'string', description: 'Shown in tables instead of provider:model.' },
    baseUrl: { type: 'string', description: 'API base URL, e.g. http://localhost:11434/v1 for Ollama; overrides the provider default.' },
    apiKeyEnv: { type: 'string', description: 'Environment variable holding the API key (CLI). VS Code keeps keys in its secret storage instead.' },
    parameters: modelParameters,
    batch: {
      type: 'boolean',
      description: "Send this model's calls through the vendor's batch API (about half price, results within 24 hours): provider openai, openai-compatible servers that implement /v1/batches, or anthropic (Message Batches). The same as --batch on the command line.",
    },
    truncated: {
      enum: ['score', 'error'],
      default: 'score',
      description: 'An answer the model stopped at its token limit (finish reason "length", Anthropic "max_tokens"). score (default): scored as it is, and marked and counted as cut in the summary, the reports and the inspector. error: a case error ("cut at the token limit"), not scored; --retry-errors runs it again.',
    },
  },
  required: ['provider', 'model'],
  additionalProperties: false,
};

const modelRef: JsonSchema = {
  description: 'A model: "provider:model" (e.g. openai:gpt-4o-mini, extractive:bm25) or a mapping with provider, model and options.',
  oneOf: [
    { type: 'string', pattern: MODEL_SHORTHAND, description: '"provider:model", e.g. openai:gpt-4o-mini.' },
    modelMapping,
  ],
};

const threshold: JsonSchema = {
  type: 'object',
  description: 'Bounds the metric must meet for the suite to pass (CLI exit code, Test Explorer).',
  properties: {
    min: { type: 'number', description: 'The metric must be at least this.' },
    max: { type: 'number', description: 'The metric must be at most this.' },
  },
  minProperties: 1,
  additionalProperties: false,
};

const suite: JsonSchema = {
  type: 'object',
  description: 'One evaluation: a method run over a dataset with a template.',
  properties: {
    id: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]+$',
      description: 'Unique name of this suite, used in case ids and reports. Letters, digits, "_", "." and "-".',
    },
    method: {
      type: 'string',
      // The methods the editor offers: the registry's at build time. Loading checks `method` against the registry as it
      // is then (methodChecks.ts), so a method registered at run time is accepted; the validator leaves the list out.
      enum: knownMethods(),
      description: `The evaluation method: ${methodSummaries()}.`,
    },
    dataset: { type: 'string', minLength: 1, description: 'Dataset file (JSONL, JSON, CSV, TSV or YAML), relative to this file. Defaults to the top-level dataset.' },
    template: { type: 'string', minLength: 1, description: "Prompt template file, relative to this file. Defaults to the top-level template, then the method's built-in prompt." },
    limit: { type: 'integer', minimum: 1, description: 'Use only the first N good rows of the dataset (quick iterations).' },
    humanLabels: { type: 'string', minLength: 1, description: 'A dataset column holding a person\'s label of each row\'s answer (correct / wrong, true / false, yes / no, pass / fail, 1 / 0): the judge\'s agreement with it is reported like verdicts given in the inspector, which take precedence. LLM-Eval\'s human scores stay as they are.' },
    params: { type: 'object', description: 'Method parameters (noise ratios, grid sizes…); each method checks its own.' },
    thresholds: {
      type: 'object',
      description: 'Metric name → bounds, e.g. accuracy: { min: 0.5 }.',
      additionalProperties: { $ref: '#/definitions/threshold' },
    },
  },
  required: ['id', 'method'],
  additionalProperties: false,
};

const headerValue: JsonSchema = {
  type: 'object',
  description: 'A header value read from an environment variable when the traces are sent, so no key is written in the eval file.',
  properties: {
    env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'The environment variable holding the value, e.g. PHOENIX_API_KEY.' },
    prefix: { type: 'string', description: 'Put before the variable\'s value, e.g. "Bearer ".' },
  },
  required: ['env'],
  additionalProperties: false,
};

const exportTargets: JsonSchema = {
  type: 'object',
  description: 'Where each finished run also goes. A failed export is a warning; the run and its reports are unaffected.',
  properties: {
    otlp: {
      type: 'object',
      description: 'Send every case as an OpenInference trace (CHAIN, RETRIEVER, LLM and EVALUATOR spans, scores as evaluations) to an OTLP/HTTP endpoint: Phoenix, Langfuse, an OpenTelemetry Collector…',
      properties: {
        endpoint: { type: 'string', pattern: '^https?://', description: 'The OTLP/HTTP traces URL, e.g. http://localhost:6006/v1/traces; a bare origin gets /v1/traces.' },
        headers: {
          type: 'object',
          description: 'Header name → { env: VARIABLE } (and an optional prefix). Values are read from the environment and never written to logs or reports.',
          additionalProperties: headerValue,
        },
        batchSize: { type: 'integer', minimum: 1, default: 50, description: 'Cases (traces) sent per request (default 50).' },
      },
      required: ['endpoint'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

/** `retriever:`: where the rag method's passages come from. One object; `type` says which keys apply (load.ts checks them). */
const retrieverSource: JsonSchema = {
  type: 'object',
  description: 'Where the rag method gets its passages: your own retriever script (command), your search service (http), or the passages already in the rows (dataset, the default). Answers are cached like model calls (key: the retriever, the question, k and params), so a rerun asks nothing again. The wire protocol is in README, "Retriever contract".',
  properties: {
    type: { enum: ['command', 'http', 'dataset'], default: 'dataset', description: 'command: your script, any language, JSON lines on stdin/stdout. http: a POST to your endpoint. dataset (default): the rows\' retrieved_contexts (ids from passages).' },
    command: {
      // A string is accepted here only for load.ts to say how to write it as a list (it is run without a shell).
      oneOf: [{ type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 }, { type: 'string' }],
      description: 'type: command. The program and its arguments as a list, run without a shell, e.g. [python, retrieve.py, --index, docs.idx].',
    },
    cwd: { type: 'string', minLength: 1, description: 'type: command. The folder the script runs in, relative to this file (default: this file\'s folder).' },
    mode: { enum: ['persistent', 'per-call'], default: 'persistent', description: 'type: command. persistent (default): started once, one JSON request per line, answers matched by id. per-call: started for each question, the request on stdin, the answer on stdout.' },
    env: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }, description: 'type: command. Environment variables passed to the script by name (their values are never written to the eval file or the logs).' },
    url: { type: 'string', pattern: '^https?://', description: 'type: http. The endpoint the question is POSTed to as { question, k, params }.' },
    headers: { type: 'object', description: 'type: http. Header name → { env: VARIABLE } (and an optional prefix); values read from the environment at call time.', additionalProperties: headerValue },
    response: {
      type: 'object',
      description: 'type: http. For a service whose answer has another shape: JSON pointers to the list of passages and, within each, to its fields.',
      properties: {
        items: { type: 'string', description: 'JSON pointer to the list, e.g. /data/hits.' },
        id: { type: 'string', description: 'Within an item, e.g. /_id.' },
        text: { type: 'string', description: 'Within an item, e.g. /_source/body.' },
        score: { type: 'string', description: 'Within an item, e.g. /_score.' },
        metadata: { type: 'string', description: 'Within an item, e.g. /_source/meta.' },
      },
      required: ['items'],
      additionalProperties: false,
    },
    timeoutMs: { type: 'integer', minimum: 1, default: 30000, description: 'Time limit of one retrieval in milliseconds (default 30000); a retrieval over it is a case error, retried by --resume <run> --retry-errors.' },
    params: { type: 'object', description: 'Passed to your retriever with every question, untouched (part of the cache key): an index name, filters, a hybrid weight…' },
  },
  additionalProperties: false,
};

/** `sweep:`: the retrieval settings to try, as a grid; `rag-inspector sweep` measures every cell (spec/sweepSpec.ts checks the rest). */
const sweepBlock: JsonSchema = {
  type: 'object',
  description: 'Retrieval settings to try, as a grid (every combination), measured by `rag-inspector sweep <eval file>`: recall, precision, hit rate, nDCG, MRR and R-precision at each cell\'s k, with intervals, over the questions of the rag suite — no model call. A key left out keeps the current value (the index\'s, or your retriever\'s params). Each question is retrieved once per chunking × embeddings × hybrid weight × reranker at the largest k, which serves every smaller k. With retriever: command or http, each cell\'s settings reach your retriever as params.',
  properties: {
    chunkSize: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1 }, description: 'Chunk sizes in tokens to try, e.g. [128, 256, 512].' },
    overlap: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 0 }, description: 'Overlaps in tokens between neighbouring chunks, e.g. [0, 32]; a cell whose overlap is not below its chunk size is left out.' },
    embeddings: { type: 'array', minItems: 1, items: { $ref: '#/definitions/modelRef' }, description: 'Embedding models to try (any OpenAI-compatible /v1/embeddings endpoint); a cell names one by its label, else provider:model.' },
    hybridWeight: { type: 'array', minItems: 1, items: { type: 'number', minimum: 0, maximum: 1 }, description: 'Weights of the dense list in hybrid search (BM25 gets 1 − weight), e.g. [0, 0.5, 1].' },
    rerank: { type: 'array', minItems: 1, items: { type: 'boolean' }, description: 'Reranker off and on: [false, true].' },
    k: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1 }, description: 'Top-k cut-offs, e.g. [1, 3, 5, 10]: one retrieval at the largest serves them all.' },
    metric: { enum: [...SWEEP_METRICS], default: 'ndcg', description: 'The measure the best cell is chosen by, at each cell\'s own k (default ndcg); the best cell is tested pair by pair against the current setting.' },
    suite: { type: 'string', minLength: 1, description: 'The rag suite whose questions are measured (default the first). Rows label relevance with relevant_spans: [{file, start, end, grade?}] (character offsets in the file: they survive a change of chunking), relevant_ids or graded relevance.' },
    endToEnd: {
      type: 'array',
      items: {
        type: 'object',
        description: 'A cell by its settings, e.g. { chunkSize: 256, k: 5 }.',
        properties: {
          chunkSize: { type: 'integer', minimum: 1, description: 'One of the sweep\'s chunk sizes.' },
          overlap: { type: 'integer', minimum: 0, description: 'One of the sweep\'s overlaps.' },
          embeddings: { type: 'string', minLength: 1, description: 'One of the sweep\'s embedding models: its label, else provider:model.' },
          hybridWeight: { type: 'number', minimum: 0, maximum: 1, description: 'One of the sweep\'s hybrid weights.' },
          rerank: { type: 'boolean', description: 'Reranker off (false) or on (true).' },
          k: { type: 'integer', minimum: 1, description: 'One of the sweep\'s k values.' },
        },
        minProperties: 1,
        additionalProperties: false,
      },
      description: 'Cells to also run end to end (your template, the models, the scorer) after the retrieval part.',
    },
  },
  additionalProperties: false,
};

/** Names of the id, text and vector columns of a team's own store (`existing: true`). */
const storeColumns: JsonSchema = {
  type: 'object',
  description: 'The names of the id, text and vector columns (fields) in your own table or collection.',
  properties: {
    id: { type: 'string', minLength: 1, default: 'id', description: 'The column holding each chunk\'s id (default id).' },
    text: { type: 'string', minLength: 1, default: 'text', description: 'The column holding each chunk\'s text (default text).' },
    vector: { type: 'string', minLength: 1, default: 'embedding', description: 'The column holding each chunk\'s embedding (default embedding).' },
  },
  additionalProperties: false,
};

const ENV_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';

/** `index:`: a folder the product indexes itself and searches as the rag method's retriever (retrieval/indexSpec.ts). */
const indexSource: JsonSchema = {
  type: 'object',
  description: 'A folder of documents the product indexes itself (chunked, searched by BM25, dense embeddings or both, optionally reranked) and uses as the rag method\'s retriever. Built incrementally under .rag-inspector/index/ (a changed file re-chunks and re-embeds only itself); `rag-inspector index <eval file>` builds it ahead of a run. Use index: or retriever:, not both.',
  properties: {
    folder: { type: 'string', minLength: 1, description: 'The folder of documents, relative to this file: Markdown, text, HTML, PDF (its text layer) and JSONL files ({ id?, text } per line).' },
    include: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, description: `Globs relative to the folder of the files to index (default: ${DEFAULT_CORPUS_INCLUDE.join(', ')}).` },
    exclude: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Globs relative to the folder of files to leave out, e.g. [drafts/**].' },
    chunking: {
      type: 'object',
      description: 'How documents are cut into chunks; sizes in tokens. Each chunk keeps its file and exact line and character range.',
      properties: {
        by: { enum: ['tokens', 'heading'], default: 'tokens', description: 'tokens (default): windows of `size` tokens overlapping by `overlap`. heading: one chunk per Markdown heading section, a section longer than `size` cut like tokens.' },
        size: { type: 'integer', minimum: 8, default: 256, description: 'Tokens per chunk (default 256).' },
        overlap: { type: 'integer', minimum: 0, default: 32, description: 'Tokens shared by consecutive chunks (default 32); less than size.' },
      },
      additionalProperties: false,
    },
    search: { enum: ['bm25', 'dense', 'hybrid'], default: 'bm25', description: 'bm25 (default): keyword search, no model. dense: nearest embeddings (needs embeddings:). hybrid: both, fused by weighted reciprocal-rank fusion.' },
    embeddings: { $ref: '#/definitions/modelRef', description: 'dense and hybrid: the embedding model, any OpenAI-compatible /v1/embeddings endpoint (OpenAI, llama.cpp, Ollama, vLLM, TEI). Vectors are cached by model and text, so unchanged chunks cost nothing.' },
    hybrid: {
      type: 'object',
      description: 'hybrid: how the BM25 and dense rankings are fused (weighted reciprocal-rank fusion).',
      properties: {
        weight: { type: 'number', minimum: 0, maximum: 1, default: 0.5, description: 'Weight of the dense ranking, 0..1 (default 0.5); BM25 gets 1 − weight.' },
        rrfK: { type: 'integer', minimum: 1, default: 60, description: 'The RRF constant k in 1 / (k + rank) (default 60, Cormack et al. 2009).' },
      },
      additionalProperties: false,
    },
    rerank: {
      type: 'object',
      description: 'Rerank the first-stage candidates with a /rerank endpoint (TEI: { query, texts }; Jina and Cohere: { model, query, documents, top_n }).',
      properties: {
        url: { type: 'string', pattern: '^https?://', description: 'The rerank endpoint, e.g. http://localhost:8080/rerank (TEI) or https://api.cohere.com/v2/rerank.' },
        model: { type: 'string', minLength: 1, description: 'The reranker model (Jina, Cohere); with it the request carries { model, query, documents, top_n }, without it TEI\'s { query, texts }.' },
        candidates: { type: 'integer', minimum: 1, default: 50, description: 'How many first-stage candidates the reranker sees (default 50).' },
        headers: { type: 'object', description: 'Header name → { env: VARIABLE } (and an optional prefix); values read from the environment at call time.', additionalProperties: headerValue },
        timeoutMs: { type: 'integer', minimum: 1, default: 30000, description: 'Time limit of one rerank call in milliseconds (default 30000).' },
      },
      required: ['url'],
      additionalProperties: false,
    },
    store: {
      type: 'object',
      description: 'Where the vectors live: embedded (default, under .rag-inspector/index/) or your own PostgreSQL + pgvector, Qdrant, Elasticsearch or OpenSearch. Connection strings and keys are environment variable names.',
      properties: {
        type: { enum: ['embedded', 'pgvector', 'qdrant', 'elasticsearch', 'opensearch'], default: 'embedded', description: 'embedded (default): the product\'s own store. pgvector, qdrant, elasticsearch, opensearch: your store through its official client.' },
        urlEnv: { type: 'string', pattern: ENV_NAME, description: 'pgvector: the environment variable holding the connection string (postgres://…).' },
        table: { type: 'string', minLength: 1, description: 'pgvector: the table (default rag_chunks).' },
        url: { type: 'string', pattern: '^https?://', description: 'qdrant, elasticsearch, opensearch: the server URL.' },
        apiKeyEnv: { type: 'string', pattern: ENV_NAME, description: 'qdrant, elasticsearch, opensearch: the environment variable holding the API key.' },
        collection: { type: 'string', minLength: 1, description: 'qdrant: the collection (default rag_chunks).' },
        index: { type: 'string', minLength: 1, description: 'elasticsearch, opensearch: the index (default rag_chunks).' },
        existing: { type: 'boolean', default: false, description: 'true: query a table/collection/index you built (columns mapped); rag-inspector index never writes to it. false (default): rag-inspector index writes the chunks there.' },
        columns: storeColumns,
      },
      additionalProperties: false,
    },
  },
  required: ['folder'],
  additionalProperties: false,
};

export const evalSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://rag-inspector.invalid/eval.schema.json',
  title: 'RAG Inspector eval file',
  description: 'Which suites to run, on which datasets and templates, with which models. Paths are relative to this file.',
  type: 'object',
  properties: {
    version: { const: 1, description: 'Format version of this eval file; 1.' },
    name: { type: 'string', description: 'Shown in reports and the panel. Defaults to the file name.' },
    description: { type: 'string', description: 'Free text shown with the run.' },
    models: {
      type: 'array',
      minItems: 1,
      items: { $ref: '#/definitions/modelRef' },
      description: 'The models under test; every suite runs on each.',
    },
    judge: { $ref: '#/definitions/modelRef', description: 'The model that grades answers for judge-based metrics; kept apart from the models under test. With it, classic needle suites without params.scoring are judge-scored (the reference\'s default); without it they use a substring check.' },
    judgeSamples: {
      description: 'Self-consistency of the judge: score each case k times, each judge call a separate sample (its own seed; samples after the first at the sampling temperature unless the method sets one), and report each metric as the reference aggregates it — the majority verdict, or the mean of a scale — with the spread per case and metric and unstable cases flagged. 1 (the default) scores once. Costs k times the judge calls.',
      oneOf: [
        { type: 'integer', minimum: 1, maximum: 20 },
        {
          type: 'object',
          properties: {
            k: { type: 'integer', minimum: 1, maximum: 20, description: 'Scorings per case.' },
            temperature: { type: 'number', minimum: 0, maximum: 2, default: 0.7, description: 'Temperature of samples 2..k when the method does not set its own (the first sample is the method\'s own call).' },
          },
          required: ['k'],
          additionalProperties: false,
        },
      ],
    },
    embeddings: { $ref: '#/definitions/modelRef', description: 'The embedding model for metrics that compare meanings (e.g. RAGAS answer relevancy).' },
    concurrency: { type: 'integer', minimum: 1, maximum: MAX_CONCURRENCY, default: DEFAULTS.concurrency, description: `Model calls in flight at once, per model (default 8, at most ${MAX_CONCURRENCY}). Lowered automatically on 429 responses and recovered after successes.` },
    rateLimit: {
      type: 'object',
      description: 'Client-side limits, shared by all calls of the run.',
      properties: {
        requestsPerMinute: { type: 'number', exclusiveMinimum: 0, description: 'At most this many requests per minute.' },
        tokensPerMinute: { type: 'number', exclusiveMinimum: 0, description: 'At most this many (estimated) tokens per minute.' },
      },
      additionalProperties: false,
    },
    timeoutMs: { type: 'integer', minimum: 1, default: DEFAULTS.timeoutMs, description: 'Per-attempt time limit of a model call, in milliseconds.' },
    maxRetries: { type: 'integer', minimum: 0, default: DEFAULTS.maxRetries, description: 'Retries of a failed call (429, 5xx, timeouts) before the case fails.' },
    seed: { type: 'integer', default: DEFAULTS.seed, description: 'Seed for every random choice (document sampling, haystack building), so runs repeat.' },
    prices: {
      type: 'object',
      description: 'USD per million tokens, keyed "provider:model" or "model"; merged over the built-in price table.',
      additionalProperties: {
        type: 'object',
        description: 'Prices of one model.',
        properties: {
          input: { type: 'number', minimum: 0, description: 'USD per million input (prompt) tokens.' },
          output: { type: 'number', minimum: 0, description: 'USD per million output (completion) tokens.' },
        },
        required: ['input', 'output'],
        additionalProperties: false,
      },
    },
    explain: {
      type: 'object',
      description: 'Explain cases right after the run: which document, position or instruction made the model answer as it did. Each variant is a model call (cached); see `rag-inspector explain` to do it later.',
      properties: {
        failed: { type: 'boolean', default: false, description: 'Explain every failed case (a failed verdict or a scoring error).' },
        variants: {
          type: 'array',
          minItems: 1,
          items: { enum: ['loo', 'subsets', 'position', 'instruction'] },
          description: 'Which variants to run: leave-one-out, random subsets with a sparse linear fit, the answer-bearing document moved through every position, template sections removed. All four by default.',
        },
        subsets: { type: 'integer', minimum: 4, description: 'Random subsets per case; by default 2 per document, between 16 and 64.' },
        segments: { type: 'integer', minimum: 2, description: 'Needle in a Haystack and LLM-Eval: how many pieces the haystack or context is cut into (default 8).' },
        maxCalls: { type: 'integer', minimum: 1, description: 'At most this many model calls for the explanation; cached answers are free and not counted.' },
      },
      additionalProperties: false,
    },
    template: { type: 'string', minLength: 1, description: 'Default prompt template for suites that name none, relative to this file.' },
    dataset: { type: 'string', minLength: 1, description: 'Default dataset for suites that name none, relative to this file.' },
    suites: { type: 'array', minItems: 1, items: { $ref: '#/definitions/suite' }, description: 'The evaluations to run.' },
    export: exportTargets,
    retriever: retrieverSource,
    sweep: sweepBlock,
    index: indexSource,
  },
  required: ['version', 'models', 'suites'],
  additionalProperties: false,
  definitions: { modelRef, threshold, suite },
};

/**
 * What the compiled validator checks (emitValidator.ts): the schema without the method list, which is fixed when the
 * validator is generated; `method` is checked against the registry when the file is loaded (methodChecks.ts). Params
 * are left to the methods (paramChecks.ts), whose messages say more than a schema error; the editor's schema has them
 * (methodParamsSchema.ts).
 */
export function validatorSchema(): JsonSchema {
  const { enum: _offered, ...method } = suite.properties!.method!;
  const checked: JsonSchema = { ...suite, properties: { ...suite.properties, method } };
  return { ...evalSchema, definitions: { ...evalSchema.definitions, suite: checked } };
}
