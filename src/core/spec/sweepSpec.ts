// `sweep:` of the eval file: the checks the schema cannot make (a grid with no cell, end-to-end cells the grid does not
// have, a sweep with nothing to ask) each at its line, and the loaded SweepSpec.
import { InputError } from '../errors.js';
import type { SweepCellRef, SweepSpec } from '../retrieval/indexSpec.js';
import type { ModelSpec } from '../providers/contract.js';
import { asRecord } from './checks.js';
import { retrievalQuestionMethods } from '../suites/registry.js';
import type { YamlLocator } from './yamlPositions.js';

type Raw = Record<string, unknown>;

const AXES = ['chunkSize', 'overlap', 'embeddings', 'hybridWeight', 'rerank', 'k'] as const;

/** An embedding model as a sweep cell names it: its label, else provider:model (the mapping or the string form). */
function embeddingsNameOf(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  const spec = asRecord(raw);
  if (!spec) return undefined;
  return typeof spec.label === 'string' ? spec.label : `${String(spec.provider)}:${String(spec.model)}`;
}

/** Problems of `sweep:` beyond its schema, each at its line. */
export function sweepProblems(data: Raw, locator: YamlLocator): InputError[] {
  const raw = asRecord(data.sweep);
  if (!raw) return [];
  const problems: InputError[] = [];
  const listed = AXES.filter((axis) => Array.isArray(raw[axis]));
  if (listed.length === 0) {
    problems.push(new InputError(locator.valueAt(['sweep']), 'the sweep lists no setting to try', `list values for one or more of ${AXES.join(', ')}, e.g. sweep: { chunkSize: [128, 256], k: [1, 3, 5] }`));
  }
  const retriever = asRecord(data.retriever);
  const asks = data.index !== undefined || retriever?.type === 'command' || retriever?.type === 'http';
  if (!asks) {
    problems.push(new InputError(locator.keyAt([], 'sweep'), 'a sweep needs something to search: an index: block, or a retriever: of type command or http that takes the cell\'s settings as params', 'add retriever: { type: command, command: [node, retrieve.mjs] } (your script reads params.chunkSize, params.k…), or index: { folder: docs }'));
  }
  const index = asRecord(data.index);
  if (index) {
    const search = typeof index.search === 'string' ? index.search : 'bm25';
    if (Array.isArray(raw.rerank) && raw.rerank.includes(true) && index.rerank === undefined) {
      problems.push(new InputError(locator.valueAt(['sweep', 'rerank']), 'sweep.rerank tries the reranker on, but index: has no rerank:', 'add index.rerank: { url: … } (the reranker the cells switch on), or sweep rerank: [false]'));
    }
    if (Array.isArray(raw.hybridWeight) && search !== 'hybrid') {
      problems.push(new InputError(locator.valueAt(['sweep', 'hybridWeight']), `sweep.hybridWeight applies to hybrid search, and the index searches by ${search}`, 'set index.search: hybrid (with embeddings), or leave hybridWeight out of the sweep'));
    }
    if (Array.isArray(raw.embeddings) && search === 'bm25') {
      problems.push(new InputError(locator.valueAt(['sweep', 'embeddings']), 'sweep.embeddings tries embedding models, and the index searches by bm25 (no embeddings)', 'set index.search: dense or hybrid, or leave embeddings out of the sweep'));
    }
  }
  const sizes = Array.isArray(raw.chunkSize) ? (raw.chunkSize as unknown[]).filter((v): v is number => typeof v === 'number') : [];
  const overlaps = Array.isArray(raw.overlap) ? (raw.overlap as unknown[]).filter((v): v is number => typeof v === 'number') : [];
  if (sizes.length > 0 && overlaps.length > 0 && overlaps.every((o) => sizes.every((size) => o >= size))) {
    problems.push(new InputError(locator.valueAt(['sweep', 'overlap']), 'every overlap is at least every chunk size: the grid has no cell', 'an overlap must be below the chunk size, e.g. chunkSize: [256], overlap: [0, 32]'));
  }
  const values: Partial<Record<string, unknown[]>> = {};
  for (const axis of listed) values[axis] = axis === 'embeddings' ? (raw[axis] as unknown[]).map(embeddingsNameOf) : (raw[axis] as unknown[]);
  const cells = Array.isArray(raw.endToEnd) ? (raw.endToEnd as unknown[]) : [];
  cells.forEach((cell, i) => {
    const ref = asRecord(cell);
    if (!ref) return;
    for (const [axis, value] of Object.entries(ref)) {
      const offered = values[axis];
      if (offered && !offered.includes(value)) {
        problems.push(new InputError(locator.valueAt(['sweep', 'endToEnd', i, axis]), `sweep.endToEnd[${i}].${axis}: ${JSON.stringify(value)} is not one of the sweep's ${axis} values`, `the sweep tries ${axis}: ${offered.map((v) => JSON.stringify(v)).join(', ')}`));
      }
    }
  });
  if (raw.suite !== undefined && Array.isArray(data.suites) && !(data.suites as unknown[]).some((suite) => asRecord(suite)?.id === raw.suite)) {
    problems.push(new InputError(locator.valueAt(['sweep', 'suite']), `sweep.suite: no suite "${String(raw.suite)}" in this file`, `name a suite with method: ${retrievalQuestionMethods().join(' or ')}, or leave suite out for the first`));
  }
  return problems;
}

/** The checked `sweep:` as a SweepSpec; `toModel` reads each embedding model as the file's other model references. */
export function toSweepSpec(raw: unknown, toModel: (raw: unknown) => ModelSpec): SweepSpec | undefined {
  const source = asRecord(raw);
  if (!source) return undefined;
  const list = <T>(key: string) => (Array.isArray(source[key]) ? { [key]: source[key] as T[] } : {});
  return {
    ...list<number>('chunkSize'),
    ...list<number>('overlap'),
    ...(Array.isArray(source.embeddings) ? { embeddings: (source.embeddings as unknown[]).map(toModel) } : {}),
    ...list<number>('hybridWeight'),
    ...list<boolean>('rerank'),
    ...list<number>('k'),
    ...(Array.isArray(source.endToEnd) ? { endToEnd: source.endToEnd as SweepCellRef[] } : {}),
    ...(typeof source.metric === 'string' ? { metric: source.metric as NonNullable<SweepSpec['metric']> } : {}),
    ...(typeof source.suite === 'string' ? { suite: source.suite } : {}),
  };
}
