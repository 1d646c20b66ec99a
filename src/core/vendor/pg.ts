// node-postgres as a bundle of its own (dist/vendor/pg.js): loaded by load.ts when an index's store is PostgreSQL +
// pgvector (corpus/stores/pgvector.ts), so nothing else parses it.
export { Pool } from 'pg';
