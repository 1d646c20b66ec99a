// Reads a RAGAS dataset row: the ragas column names and their older aliases, checked with messages that name the field.
import { InputError } from '../../errors.js';
import { rowId } from '../../data/rowIds.js';
import { aliasedField } from '../../data/rowFields.js';
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

/** ragas ≥ 0.2 names first; the 0.1 names (question, contexts, answer, ground_truth) are accepted too. */
const FIELDS = {
  userInput: ['user_input', 'question'],
  retrievedContexts: ['retrieved_contexts', 'contexts'],
  referenceContexts: ['reference_contexts'],
  response: ['response', 'answer'],
  reference: ['reference', 'ground_truth'],
} as const;

class RowReader {
  constructor(private readonly row: DatasetRow) {}

  fail(field: string, message: string, hint?: string): never {
    throw new InputError({ file: this.row.ref.file, line: this.row.ref.line }, `row ${this.row.ref.index + 1}: ${field}: ${message}`, hint);
  }

  /** The value under the first alias present; two aliases with different values are refused (data/rowFields.ts). */
  pick(names: readonly string[]): { name: string; value: unknown } | undefined {
    return aliasedField(this.row, names);
  }

  string(names: readonly string[], required: true): string;
  string(names: readonly string[], required: false): string | undefined;
  string(names: readonly string[], required: boolean): string | undefined {
    const found = this.pick(names);
    if (!found) {
      if (required) this.fail(names[0] as string, 'missing', `add ${names.join(' or ')} to the row`);
      return undefined;
    }
    if (typeof found.value !== 'string') this.fail(found.name, `expected a string, got ${typeof found.value}`);
    if (required && found.value.trim() === '') this.fail(found.name, 'is empty');
    return found.value;
  }

  strings(names: readonly string[], required: true): string[];
  strings(names: readonly string[], required: false): string[] | undefined;
  strings(names: readonly string[], required: boolean): string[] | undefined {
    const found = this.pick(names);
    if (!found) {
      if (required) this.fail(names[0] as string, 'missing', `add ${names[0]}: a list of the passages the retriever returned`);
      return undefined;
    }
    if (!Array.isArray(found.value)) this.fail(found.name, `expected a list of strings, got ${typeof found.value}`, 'in CSV write the list as a JSON array');
    if (required && found.value.length === 0) this.fail(found.name, 'is an empty list', 'every RAGAS metric reads at least one retrieved context');
    return found.value.map((item, i) => {
      if (typeof item !== 'string') this.fail(`${found.name}[${i}]`, `expected a string, got ${typeof item}`);
      return item;
    });
  }
}

export function readRagasRow(row: DatasetRow): RagasRow {
  const reader = new RowReader(row);
  const human = readHumanScores(row.data);
  const problem = human.problems[0];
  if (problem) reader.fail(problem.field, problem.message, 'human scores are numbers, e.g. human_scores: { faithfulness: 0.8 }');
  return {
    id: rowId(row),
    userInput: reader.string(FIELDS.userInput, true),
    retrievedContexts: reader.strings(FIELDS.retrievedContexts, true),
    referenceContexts: reader.strings(FIELDS.referenceContexts, false),
    response: reader.string(FIELDS.response, false),
    reference: reader.string(FIELDS.reference, false),
    humanScores: human.scores,
    ...retrievedOf(row.data.passages, reader.strings(FIELDS.retrievedContexts, true)),
  };
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
