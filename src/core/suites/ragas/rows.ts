// Reads a RAGAS dataset row: the ragas column names and their older aliases, checked with messages that name the field.
import { InputError } from '../../errors.js';
import { rowId } from '../../data/rowIds.js';
import { aliasedField, readFields } from '../../data/rowFields.js';
import type { FieldsSpec, RowFormat } from '../../data/rowFields.js';
import { readHumanScores } from '../metaEval.js';
import type { DatasetRow, RetrievedPassage } from '../../model.js';

/** One RAGAS sample (ragas `SingleTurnSample`), plus the optional human scores used for meta-evaluation. */
export interface RagasRow {
  id?: string | number;
  userInput: string;
  retrievedContexts: string[];
  referenceContexts?: string[];
  /** Present: the dataset's answer is scored and the model under test is not called. */
  response?: string;
  reference?: string;
  humanScores: Record<string, number>;
  /** The retriever's ids, scores and metadata, one per retrieved context (`passages`, as import-traces writes them). */
  retrieved?: (RetrievedPassage | undefined)[];
}

const FORMAT: RowFormat = { field: (name, row) => `row ${row.ref.index + 1}: ${name}`, hint: 'a RAGAS row has user_input (or question), retrieved_contexts (or contexts), and optionally reference_contexts, response (or answer), reference (or ground_truth)' };
const LIST_HINT = 'in CSV write the list as a JSON array';

/** ragas ≥ 0.2 names first; the 0.1 names (question, contexts, answer, ground_truth) are accepted too. */
const FIELDS = {
  userInput: { names: ['user_input', 'question'], kind: 'text', required: true, missing: 'add user_input or question to the row' },
  retrievedContexts: { names: ['retrieved_contexts', 'contexts'], kind: 'strings', required: true, missing: 'add retrieved_contexts: a list of the passages the retriever returned', hint: LIST_HINT },
  referenceContexts: { names: ['reference_contexts'], kind: 'strings', hint: LIST_HINT },
  response: { names: ['response', 'answer'], kind: 'string' },
  reference: { names: ['reference', 'ground_truth'], kind: 'string' },
} as const satisfies FieldsSpec;

export function readRagasRow(row: DatasetRow): RagasRow {
  const fail = (field: string, message: string, hint: string): never => {
    throw new InputError({ file: row.ref.file, line: row.ref.line }, `${FORMAT.field(field, row)}: ${message}`, hint);
  };
  const human = readHumanScores(row.data);
  const problem = human.problems[0];
  if (problem) fail(problem.field, problem.message, 'human scores are numbers, e.g. human_scores: { faithfulness: 0.8 }');
  const fields = readFields(row, FIELDS, FORMAT);
  if (fields.retrievedContexts.length === 0) fail(aliasedField(row, FIELDS.retrievedContexts.names)?.name ?? 'retrieved_contexts', 'is an empty list', 'every RAGAS metric reads at least one retrieved context');
  return { id: rowId(row), ...fields, humanScores: human.scores, ...retrievedOf(row.data.passages, fields.retrievedContexts) };
}

/**
 * `passages` ({ id, content, score, metadata }) matched to the retrieved contexts by content, in order; a row whose
 * passages do not line up with its contexts keeps the contexts alone.
 */
function retrievedOf(passages: unknown, contexts: readonly string[]): { retrieved?: (RetrievedPassage | undefined)[] } {
  if (!Array.isArray(passages) || passages.length !== contexts.length) return {};
  const retrieved = passages.map((passage: unknown, i): RetrievedPassage | undefined | null => {
    if (typeof passage !== 'object' || passage === null || (passage as { content?: unknown }).content !== contexts[i]) return null;
    const { id, score, metadata } = passage as { id?: unknown; score?: unknown; metadata?: unknown };
    const kept: RetrievedPassage = {
      ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}),
      ...(typeof score === 'number' ? { score } : {}),
      ...(typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? { metadata: metadata as Record<string, unknown> } : {}),
    };
    return Object.keys(kept).length ? kept : undefined;
  });
  return retrieved.includes(null) ? {} : { retrieved: retrieved as (RetrievedPassage | undefined)[] };
}
