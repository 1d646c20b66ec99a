// The chunks questions are generated from: the eval file's `index:` folder read and cut as the index cuts it, so a
// question's relevant ids are the ids the index retriever returns.
import type { InputError } from '../../errors.js';
import type { IndexSpec } from '../../retrieval/indexSpec.js';
import { chunkTokenizer } from '../build.js';
import { chunkDocument } from '../chunker.js';
import type { Chunk, CorpusDocument } from '../contract.js';
import { readCorpus } from '../documents.js';
import type { PdfTextCache } from '../pdfTextCache.js';

export interface CorpusChunks {
  documents: CorpusDocument[];
  chunks: Chunk[];
  /** Files that could not be read (each naming its file and line); the rest are still used. */
  problems: InputError[];
}

/** `pdfCache`: where PDFs' texts are kept (the index's, so a PDF the index read is not read again). */
export async function corpusChunks(index: IndexSpec, signal: AbortSignal, pdfCache?: PdfTextCache): Promise<CorpusChunks> {
  const { documents, problems } = await readCorpus({ folder: index.folder, include: index.include, exclude: index.exclude }, { signal, ...(pdfCache ? { pdfCache } : {}) });
  const tokenizer = chunkTokenizer(index);
  const chunks = documents.flatMap((document) => chunkDocument(document, index.chunking, tokenizer));
  return { documents, chunks, problems };
}
