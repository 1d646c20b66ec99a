// The embedded vector store: a LanceDB table in the index's own folder (`<indexDir>/lancedb/chunks.lance`), searched
// by cosine distance — exactly (a scan of every vector) while the table is small, through an HNSW index with scalar
// quantization once optimize() finds it large (BENCHMARKS.md, "The embedded vector store", for why this index and
// threshold). Rows added after the index was built are scanned exactly beside it until the next optimize().
import * as path from 'node:path';
import type { Connection, Table, VectorQuery } from '@lancedb/lancedb';
import type { StoredChunk, StoreHit, VectorStore } from '../contract.js';
import { loadLanceDb } from './lanceModule.js';
import { checkQuery, hitOf, replacementDimension, unlessAborted } from './rows.js';

const TABLE = 'chunks';

/** How the approximate index is built and searched; the defaults are the ones the bench measured. */
export interface EmbeddedOptions {
  /** Rows from which optimize() builds the approximate index; below it every search is exact. */
  annMinRows: number;
  /**
   * The approximate index: HNSW over scalar-quantized vectors (the default), or IVF partitions holding the vectors
   * whole (ivf-flat) or product-quantized (ivf-pq); the last two are kept for the bench's comparison.
   */
  ann: 'hnsw-sq' | 'ivf-flat' | 'ivf-pq';
  /** HNSW graph degree and build breadth (LanceDB's m, ef_construction). */
  m: number;
  efConstruction: number;
  /** Candidates the HNSW search keeps (LanceDB's ef): the recall/latency trade. At least k is always used. */
  ef: number;
  /** IVF: partitions searched. */
  nprobes: number;
  /** How many times k candidates the index proposes are re-ranked by their full vectors (undoing quantization error). */
  refineFactor: number;
}

export const EMBEDDED_DEFAULTS: EmbeddedOptions = { annMinRows: 20_000, ann: 'hnsw-sq', m: 20, efConstruction: 300, ef: 600, nprobes: 20, refineFactor: 10 };

/** One row of the table: the chunk with its ranges, heading '' when none (a column of one type). */
type ChunkRow = Omit<StoredChunk, 'heading'> & { heading: string; [column: string]: unknown };

const RESULT_COLUMNS = ['id', 'file', 'text', 'startChar', 'endChar', 'startLine', 'endLine', 'heading', 'tokens', '_distance'];

export async function openEmbeddedStore(indexDir: string, options: Partial<EmbeddedOptions> = {}): Promise<EmbeddedStore> {
  const folder = path.join(indexDir, 'lancedb');
  const db = await loadLanceDb().connect(folder);
  const table = (await db.tableNames()).includes(TABLE) ? await db.openTable(TABLE) : undefined;
  return new EmbeddedStore(folder, db, table, { ...EMBEDDED_DEFAULTS, ...options });
}

export class EmbeddedStore implements VectorStore {
  readonly identity: string;

  constructor(private readonly folder: string, private readonly db: Connection, private table: Table | undefined, private options: EmbeddedOptions) {
    this.identity = `embedded:${folder}`;
  }

  async replaceFiles(files: readonly string[], chunks: readonly StoredChunk[], signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const dimension = replacementDimension(files, chunks);
    if (dimension !== undefined && this.table) {
      const existing = await this.dimension();
      if (existing !== undefined && existing !== dimension) throw new Error(`the index at ${this.folder} holds vectors of ${existing} numbers, the new chunks ${dimension}: an index is built with one embedding model (a new model makes a new index folder)`);
    }
    await this.removeFiles(files, signal);
    if (chunks.length === 0) return;
    const rows = chunks.map(rowOf);
    if (this.table) await unlessAborted(signal, this.table.add(rows));
    else this.table = await unlessAborted(signal, this.db.createTable(TABLE, rows));
  }

  async removeFiles(files: readonly string[], signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (!this.table || files.length === 0) return;
    // In batches, so a rebuild of thousands of files never makes one enormous predicate.
    for (let at = 0; at < files.length; at += 500) {
      await unlessAborted(signal, this.table.delete(`file IN (${files.slice(at, at + 500).map(sqlString).join(', ')})`));
    }
  }

  async search(vector: readonly number[], k: number, signal: AbortSignal): Promise<StoreHit[]> {
    checkQuery(vector, k);
    if (!this.table) return [];
    const dimension = await this.dimension();
    if (dimension !== vector.length) throw new Error(`the query vector has ${vector.length} numbers but the index at ${this.folder} holds vectors of ${dimension}: the question was embedded with another model than the chunks`);
    let query: VectorQuery = this.table.vectorSearch(Float32Array.from(vector)).distanceType('cosine').select(RESULT_COLUMNS).limit(k);
    if (await this.hasVectorIndex()) {
      const { ann, ef, nprobes, refineFactor } = this.options;
      query = (ann === 'hnsw-sq' ? query.ef(Math.max(k, ef)) : query.nprobes(nprobes)).refineFactor(refineFactor);
    }
    const rows = await unlessAborted(signal, query.toArray()) as (ChunkRow & { _distance: number })[];
    return rows.map((row) => hitOf(row.id, row.text, 1 - row._distance, { file: row.file, startChar: row.startChar, endChar: row.endChar, startLine: row.startLine, endLine: row.endLine, heading: row.heading, tokens: row.tokens }));
  }

  async count(signal: AbortSignal): Promise<number> {
    return this.table ? unlessAborted(signal, this.table.countRows()) : 0;
  }

  /**
   * Builds the HNSW index once the table has `annMinRows` rows; with an index, folds the rows added since into it.
   * Either way compacts the table and drops the versions earlier writes left behind (LanceDB keeps every version).
   */
  async optimize(signal: AbortSignal): Promise<void> {
    const table = this.table;
    if (!table) return;
    const { Index } = loadLanceDb();
    if (!(await this.hasVectorIndex()) && (await this.count(signal)) >= this.options.annMinRows) {
      const { ann, m, efConstruction } = this.options;
      // One partition: a single HNSW graph over the table (LanceDB's advice; more partitions only bound build memory).
      const config = ann === 'hnsw-sq' ? Index.hnswSq({ distanceType: 'cosine', numPartitions: 1, m, efConstruction })
        : ann === 'ivf-flat' ? Index.ivfFlat({ distanceType: 'cosine' }) : Index.ivfPq({ distanceType: 'cosine' });
      await unlessAborted(signal, table.createIndex('vector', { config, replace: true }));
      this.indexed = true;
    }
    await unlessAborted(signal, table.optimize({ cleanupOlderThan: new Date() }));
  }

  /** Changes how the approximate index is searched (the bench measures several settings on one build). */
  tuneSearch(settings: Partial<Pick<EmbeddedOptions, 'ef' | 'nprobes' | 'refineFactor'>>): void {
    this.options = { ...this.options, ...settings };
  }

  async close(): Promise<void> {
    this.table?.close();
    this.db.close();
  }

  private indexed: boolean | undefined;
  private vectorDimension: number | undefined;

  private async hasVectorIndex(): Promise<boolean> {
    if (this.indexed === undefined && this.table) this.indexed = (await this.table.listIndices()).some((index) => index.columns.includes('vector'));
    return this.indexed ?? false;
  }

  private async dimension(): Promise<number | undefined> {
    if (this.vectorDimension === undefined && this.table) {
      const field = (await this.table.schema()).fields.find((f) => f.name === 'vector');
      const type = field?.type as { listSize?: number } | undefined;
      this.vectorDimension = type?.listSize;
    }
    return this.vectorDimension;
  }
}

function rowOf(chunk: StoredChunk): ChunkRow {
  return { id: chunk.id, file: chunk.file, text: chunk.text, startChar: chunk.startChar, endChar: chunk.endChar, startLine: chunk.startLine, endLine: chunk.endLine, heading: chunk.heading ?? '', tokens: chunk.tokens, vector: chunk.vector };
}

/** A SQL string literal for LanceDB's filter (DataFusion): quotes doubled, nothing else is special. */
function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
