// LanceDB's Node binding (the embedded vector store, corpus/stores/embedded.ts) as a bundle of its own,
// dist/vendor/lancedb.js, with its peer apache-arrow inside. Its native module stays a file: the napi loader in the
// bundle requires `./lancedb.<platform>.node` beside it (what the platform-specific .vsix ships, scripts/packageVsix.ts)
// and else `@lancedb/lancedb-<platform>` from node_modules (the CLI installed by npm, a development checkout).
export { connect, Index } from '@lancedb/lancedb';
