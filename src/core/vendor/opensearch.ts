// The official OpenSearch client as a bundle of its own (dist/vendor/opensearch.js): loaded by load.ts when an index's
// store is OpenSearch (corpus/stores/elastic.ts).
export { Client as OpenSearchClient } from '@opensearch-project/opensearch';
