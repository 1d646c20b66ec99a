// Qdrant's official REST client as a bundle of its own (dist/vendor/qdrant.js): loaded by load.ts when an index's store
// is Qdrant (corpus/stores/qdrant.ts).
export { QdrantClient } from '@qdrant/js-client-rest';
