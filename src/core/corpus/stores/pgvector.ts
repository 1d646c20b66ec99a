// PostgreSQL + pgvector through node-postgres (`pg`): the team's own database. With `existing: false` the product
// writes its own table (the extension, the table and, once large, an HNSW index with vector_cosine_ops are created as
// needed); with `existing: true` it only reads a table the team built, through the mapped id/text/vector columns.
// Search is `ORDER BY vector <=> query` (cosine distance), exact until the HNSW index exists.
import type { Pool, PoolClient } from 'pg';
import type { StoreColumns, StoreSpec } from '../../retrieval/indexSpec.js';
import { loadVendor } from '../../vendor/load.js';
import type { StoredChunk, StoreHit, VectorStore } from '../contract.js';
import { checkQuery, dimensionOf, hitOf, unlessAborted } from './rows.js';
import { StoreError } from './storeError.js';

type PgvectorSpec = Extract<StoreSpec, { type: 'pgvector' }>;

export interface PgvectorOptions {
  /** Rows from which optimize() creates the HNSW index (as the embedded store); below it every search is exact. */
  annMinRows: number;
  /** HNSW candidates kept while searching (pgvector's hnsw.ef_search, default 40 there); never fewer than k. */
  efSearch: number;
}

export const PGVECTOR_DEFAULTS: PgvectorOptions = { annMinRows: 20_000, efSearch: 100 };

/** Rows per INSERT: 10 parameters a row stays far below PostgreSQL's 65,535. */
const INSERT_BATCH = 500;

export async function openPgvectorStore(spec: PgvectorSpec, env: NodeJS.ProcessEnv, options: Partial<PgvectorOptions> = {}): Promise<PgvectorStore> {
  const url = env[spec.urlEnv];
  if (!url) throw new StoreError('index.store.urlEnv', `the environment variable ${spec.urlEnv} is not set`, `set it to the PostgreSQL connection string, e.g. export ${spec.urlEnv}=postgres://user:password@host:5432/database`);
  const { Pool } = loadVendor('pg');
  const pool = new Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000 });
  // A dropped connection is reported by the next query; without a listener the pool's error event would end the process.
  pool.on('error', () => undefined);
  const store = new PgvectorStore(spec, pool, hostOf(url, spec.urlEnv), { ...PGVECTOR_DEFAULTS, ...options });
  try {
    await store.check();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return store;
}

export class PgvectorStore implements VectorStore {
  readonly identity: string;
  private readonly table: string;
  private readonly columns: StoreColumns;
  private vectorDimension: number | undefined;
  private indexed = false;

  /** `host`: the server's host:port, for messages (never the credentials). */
  constructor(private readonly spec: PgvectorSpec, private readonly pool: Pool, private readonly host: string, private readonly options: PgvectorOptions) {
    this.identity = `pgvector:${spec.table}`;
    this.table = spec.table.split('.').map(quoteIdent).join('.');
    this.columns = spec.columns;
  }

  /** Reaches the server and finds what the spec names: the team's table and columns, or the pgvector extension. */
  async check(): Promise<void> {
    const where = `PostgreSQL at ${this.host}`;
    try {
      await this.pool.query('SELECT 1');
    } catch (error) {
      throw new StoreError('index.store.urlEnv', `cannot reach ${where} (${messageOf(error)})`, `check that the server is running and that ${this.spec.urlEnv} holds the right connection string`);
    }
    const { id, text, vector } = this.columns;
    if (this.spec.existing) {
      try {
        await this.pool.query(`SELECT ${[id, text, vector].map(quoteIdent).join(', ')} FROM ${this.table} LIMIT 0`);
      } catch (error) {
        throw new StoreError('index.store.columns', `cannot read the columns ${id}, ${text}, ${vector} of the table ${this.spec.table} (${messageOf(error)})`, 'set table: and columns: { id, text, vector } to the names in your database');
      }
    } else {
      try {
        await this.pool.query('CREATE EXTENSION IF NOT EXISTS vector');
      } catch (error) {
        throw new StoreError('index.store', `the pgvector extension is not available on ${where} (${messageOf(error)})`, 'install pgvector on the server (https://github.com/pgvector/pgvector) or ask an administrator to run CREATE EXTENSION vector');
      }
    }
    this.vectorDimension = await this.tableDimension();
    this.indexed = await this.hasHnswIndex();
  }

  async replaceFiles(files: readonly string[], chunks: readonly StoredChunk[], signal: AbortSignal): Promise<void> {
    this.refuseWrites();
    signal.throwIfAborted();
    const replaced = new Set(files);
    const stray = chunks.find((chunk) => !replaced.has(chunk.file));
    if (stray) throw new Error(`chunk ${stray.id} is of ${stray.file}, which is not among the files being replaced`);
    const dimension = dimensionOf(chunks);
    if (dimension !== undefined) {
      if (this.vectorDimension === undefined) await this.createTable(dimension);
      else if (this.vectorDimension !== dimension) throw new Error(`the table ${this.spec.table} holds vectors of ${this.vectorDimension} numbers, the new chunks ${dimension}: an index is built with one embedding model (use another table for another model)`);
    }
    if (this.vectorDimension === undefined) return; // no table yet and nothing to write
    await this.inTransaction(signal, async (client) => {
      await client.query(`DELETE FROM ${this.table} WHERE file = ANY($1::text[])`, [files]);
      const { id, text, vector } = this.columns;
      const names = [id, 'file', text, 'start_char', 'end_char', 'start_line', 'end_line', 'heading', 'tokens', vector].map(quoteIdent).join(', ');
      for (let at = 0; at < chunks.length; at += INSERT_BATCH) {
        signal.throwIfAborted();
        const batch = chunks.slice(at, at + INSERT_BATCH);
        const values = batch.map((_, row) => `(${Array.from({ length: 10 }, (__, col) => `$${row * 10 + col + 1}`).join(', ')}::vector)`).join(', ');
        const parameters = batch.flatMap((c) => [c.id, c.file, c.text, c.startChar, c.endChar, c.startLine, c.endLine, c.heading ?? null, c.tokens, vectorLiteral(c.vector)]);
        await client.query(`INSERT INTO ${this.table} (${names}) VALUES ${values}`, parameters);
      }
    });
  }

  async removeFiles(files: readonly string[], signal: AbortSignal): Promise<void> {
    this.refuseWrites();
    if (this.vectorDimension === undefined || files.length === 0) return;
    await unlessAborted(signal, this.pool.query(`DELETE FROM ${this.table} WHERE file = ANY($1::text[])`, [files]));
  }

  async search(vector: readonly number[], k: number, signal: AbortSignal): Promise<StoreHit[]> {
    checkQuery(vector, k);
    if (this.vectorDimension === undefined) return [];
    if (this.vectorDimension > 0 && vector.length !== this.vectorDimension) throw new Error(`the query vector has ${vector.length} numbers but the table ${this.spec.table} holds vectors of ${this.vectorDimension}: the question was embedded with another model than the chunks`);
    const { id, text } = this.columns;
    const distance = `${quoteIdent(this.columns.vector)} <=> $1::vector`;
    const place = this.spec.existing ? '' : ', file, start_char, end_char, start_line, end_line, heading, tokens';
    const sql = `SELECT ${quoteIdent(id)}::text AS id, ${quoteIdent(text)} AS text${place}, 1 - (${distance}) AS score FROM ${this.table} ORDER BY ${distance} LIMIT $2`;
    const rows = await this.withClient(signal, async (client) => {
      // pgvector's HNSW scan returns at most ef_search rows: never fewer than k.
      if (this.indexed) await client.query(`SET hnsw.ef_search = ${Math.max(k, this.options.efSearch)}`);
      return (await client.query<PgHit>(sql, [vectorLiteral(vector), k])).rows;
    });
    return rows.map((row) => hitOf(row.id, row.text, Number(row.score), this.spec.existing ? undefined : {
      file: row.file, startChar: row.start_char, endChar: row.end_char, startLine: row.start_line, endLine: row.end_line, heading: row.heading ?? undefined, tokens: row.tokens,
    }));
  }

  async count(signal: AbortSignal): Promise<number> {
    if (this.vectorDimension === undefined) return 0;
    const result = await unlessAborted(signal, this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table}`));
    return Number(result.rows[0]?.n ?? 0);
  }

  /** Creates the HNSW index (vector_cosine_ops) on the product's own table once it has `annMinRows` rows. */
  async optimize(signal: AbortSignal): Promise<void> {
    if (this.spec.existing || this.indexed || this.vectorDimension === undefined) return;
    if ((await this.count(signal)) < this.options.annMinRows) return;
    const name = quoteIdent(`${this.spec.table.split('.').pop()}_${this.columns.vector}_hnsw`);
    await unlessAborted(signal, this.pool.query(`CREATE INDEX IF NOT EXISTS ${name} ON ${this.table} USING hnsw (${quoteIdent(this.columns.vector)} vector_cosine_ops)`));
    this.indexed = true;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private refuseWrites(): void {
    if (this.spec.existing) throw new StoreError('index.store.existing', `the table ${this.spec.table} is your own (existing: true), so rag-inspector only reads it`, 'build it with your own pipeline, or set existing: false and a table of its own for rag-inspector index to write');
  }

  private async createTable(dimension: number): Promise<void> {
    const { id, text, vector } = this.columns;
    await this.pool.query(`CREATE TABLE IF NOT EXISTS ${this.table} (${quoteIdent(id)} text PRIMARY KEY, file text NOT NULL, ${quoteIdent(text)} text NOT NULL, start_char integer NOT NULL, end_char integer NOT NULL, start_line integer NOT NULL, end_line integer NOT NULL, heading text, tokens integer NOT NULL, ${quoteIdent(vector)} vector(${dimension}) NOT NULL)`);
    await this.pool.query(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${this.spec.table.split('.').pop()}_file`)} ON ${this.table} (file)`);
    this.vectorDimension = await this.tableDimension();
  }

  /** The vector column's declared dimension; undefined when the table does not exist, 0 when it declares none. */
  private async tableDimension(): Promise<number | undefined> {
    const result = await this.pool.query<{ typmod: number }>('SELECT a.atttypmod AS typmod FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attname = $2 AND NOT a.attisdropped', [this.table, this.columns.vector]);
    const row = result.rows[0];
    return row ? Math.max(0, row.typmod) : undefined;
  }

  private async hasHnswIndex(): Promise<boolean> {
    if (this.vectorDimension === undefined) return false;
    const result = await this.pool.query('SELECT 1 FROM pg_indexes WHERE format(\'%I.%I\', schemaname, tablename)::regclass = to_regclass($1) AND indexdef ILIKE \'%USING hnsw%\'', [this.table]);
    return result.rows.length > 0;
  }

  private async withClient<T>(signal: AbortSignal, work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await unlessAborted(signal, this.pool.connect());
    let failed: unknown;
    try {
      return await unlessAborted(signal, work(client));
    } catch (error) {
      failed = error;
      throw error;
    } finally {
      // A client given up on mid-query (cancelled) is destroyed rather than handed to the next search.
      client.release(signal.aborted && failed !== undefined);
    }
  }

  private async inTransaction(signal: AbortSignal, work: (client: PoolClient) => Promise<void>): Promise<void> {
    await this.withClient(signal, async (client) => {
      await client.query('BEGIN');
      try {
        await work(client);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }
}

interface PgHit {
  id: string;
  text: string;
  score: number | string;
  file?: string;
  start_char?: number;
  end_char?: number;
  start_line?: number;
  end_line?: number;
  heading?: string | null;
  tokens?: number;
}

/** A PostgreSQL identifier, quoted: any name the user maps is taken literally. */
function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** pgvector's text form, '[0.1,0.2,…]'. */
function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}

/** host:port of the connection string, never its credentials. */
function hostOf(url: string, urlEnv: string): string {
  try {
    return new URL(url).host || `the address in ${urlEnv}`;
  } catch {
    return `the address in ${urlEnv}`;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}
