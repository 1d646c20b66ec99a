// Reads an LLM-Eval dataset row and builds its case: the context, the given response or dialogue, the reference, human scores.
import { InputError } from '../../errors.js';
import { rowKey } from '../../data/rowIds.js';
import { aliasedField, readFields } from '../../data/rowFields.js';
import type { FieldsOf, FieldsSpec, RowFormat } from '../../data/rowFields.js';
import type { DatasetRow, EvalCase } from '../../model.js';
import type { SuiteBuildContext } from '../contract.js';
import { readHumanScores } from '../metaEval.js';
import type { Level, LlmEvalParams } from './params.js';

import { LLM_EVAL_METHOD } from './view.js';
export { LLM_EVAL_METHOD };

/** What the judge is shown besides the response (EvalCase.expected). */
export interface LlmEvalExpected {
  /** The conversation so far (or the question) the response answers; the dialogue itself at dialogue level. */
  context: string;
  reference?: string;
  humanScores: Record<string, number>;
}

export interface LlmEvalCaseParams extends Record<string, unknown> {
  level: Level;
  withReference: boolean;
  givenResponse: boolean;
}

const FORMAT: RowFormat = { field: (name, row) => `row ${row.ref.index + 1}: ${name}`, hint: 'an LLM-Eval row has context (or question), and optionally response, reference, dialog and human scores' };

const FIELDS = {
  context: { names: ['context'], kind: 'string' },
  question: { names: ['question'], kind: 'string' },
  response: { names: ['response'], kind: 'string' },
  reference: { names: ['reference'], kind: 'string' },
} as const satisfies FieldsSpec;

type Fields = FieldsOf<typeof FIELDS>;

class RowReader {
  readonly fields: Fields;

  constructor(private readonly row: DatasetRow) {
    this.fields = readFields(row, FIELDS, FORMAT);
  }

  fail(field: string, message: string, hint?: string): never {
    throw new InputError({ file: this.row.ref.file, line: this.row.ref.line }, `${FORMAT.field(field, this.row)}: ${message}`, hint);
  }

  /** A dialogue as text: a string as it is, or turns (strings, or {speaker|role, text|content}) one per line. */
  dialog(): string | undefined {
    // dialog or dialogue; the two with different values are refused (data/rowFields.ts).
    const value = aliasedField(this.row, ['dialog', 'dialogue'])?.value;
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (!Array.isArray(value)) this.fail('dialog', `expected a string or a list of turns, got ${typeof value}`);
    return value.map((turn, i) => {
      if (typeof turn === 'string') return turn;
      const t = (turn ?? {}) as Record<string, unknown>;
      const speaker = t.speaker ?? t.role;
      const text = t.text ?? t.content;
      if (typeof text !== 'string') this.fail(`dialog[${i}]`, 'expected a string or { speaker, text }');
      return typeof speaker === 'string' ? `${speaker}: ${text}` : text;
    }).join('\n');
  }
}

interface Built {
  context: string;
  /** The dataset's response (response level) or the dialogue (dialogue level); undefined: the model under test answers. */
  given?: string;
  question: string;
}

function responseLevel(reader: RowReader): Built {
  const { context, question, response } = reader.fields;
  const shown = context ?? question;
  if (shown === undefined || shown.trim() === '') reader.fail('context', 'missing', 'add context (the conversation so far) or question to the row');
  return { context: shown, question: question ?? shown, ...(response === undefined ? {} : { given: response }) };
}

function dialogueLevel(reader: RowReader): Built {
  const dialog = reader.dialog();
  if (dialog === undefined || dialog.trim() === '') reader.fail('dialog', 'missing', 'level: dialogue scores the whole dialogue in each row\'s dialog field');
  return { context: dialog, question: dialog, given: dialog };
}

export function expandLlmEvalRow(row: DatasetRow, params: LlmEvalParams, context: SuiteBuildContext): EvalCase[] {
  const reader = new RowReader(row);
  const built = params.level === 'dialogue' ? dialogueLevel(reader) : responseLevel(reader);
  const { reference } = reader.fields;
  if (params.withReference && (reference === undefined || reference.trim() === '')) {
    reader.fail('reference', 'missing', 'withReference: true shows the judge each row\'s reference response; add it or set withReference: false');
  }
  const human = readHumanScores(row.data);
  const problem = human.problems[0];
  if (problem) reader.fail(problem.field, problem.message, 'human scores are numbers, e.g. human_scores: { content: 3 }');
  const expected: LlmEvalExpected = { context: built.context, humanScores: human.scores, ...(reference === undefined ? {} : { reference }) };
  const caseParams: LlmEvalCaseParams = { level: params.level, withReference: params.withReference, givenResponse: built.given !== undefined };
  const evalCase: EvalCase = {
    id: `${context.suiteId}/${rowKey(row)}`,
    suiteId: context.suiteId,
    method: LLM_EVAL_METHOD,
    testbed: params.level,
    row: row.ref,
    question: built.question,
    documents: [],
    expected,
    params: caseParams,
    // The default answer prompt reads context; question is offered for templates written around questions.
    variables: { context: built.context, question: built.question, ...(reference === undefined ? {} : { reference }) },
    messages: [],
  };
  if (built.given !== undefined) evalCase.givenResponse = built.given;
  return [evalCase];
}

export function llmEvalExpected(evalCase: EvalCase): LlmEvalExpected {
  return evalCase.expected as LlmEvalExpected;
}
