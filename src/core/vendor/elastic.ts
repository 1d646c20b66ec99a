// The official Elasticsearch client as a bundle of its own (dist/vendor/elastic.js): loaded by load.ts when an index's
// store is Elasticsearch (corpus/stores/elastic.ts).
export { Client as ElasticClient } from '@elastic/elasticsearch';
