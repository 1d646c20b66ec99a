// LanceDB's Node binding, required on first use. It is a native module (a .node file per platform, ~160 MB), so no
// bundle holds it: esbuild.mjs leaves `@lancedb/lancedb` external and Node finds it in the node_modules the CLI was
// installed with. The VS Code extension ships no node_modules, so there the require fails and the user is told to
// build the index with the CLI.
import type * as LanceDb from '@lancedb/lancedb';
import { StoreError } from './storeError.js';

let loaded: typeof LanceDb | undefined;

export function loadLanceDb(): typeof LanceDb {
  if (!loaded) {
    // LanceDB's own log goes to stderr at WARN ("No existing dataset … it will be created") unless told otherwise; the
    // variable is read once, when the module loads. A user's own LANCEDB_LOG wins.
    process.env.LANCEDB_LOG ??= 'error';
    try {
      // A plain require of an external package: resolved from node_modules at run time, never bundled.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = require('@lancedb/lancedb') as typeof LanceDb;
    } catch (error) {
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new StoreError('index.store', `the embedded vector store needs LanceDB's native module (@lancedb/lancedb), which could not be loaded (${why})`,
        'build and search the index with the rag-inspector CLI installed by npm (it brings the module for this platform); the VS Code extension does not ship native modules, or set index.store to pgvector, qdrant, elasticsearch or opensearch');
    }
  }
  return loaded;
}
