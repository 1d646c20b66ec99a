// Counterfactual passages for a user's row: the answer span in each answer-bearing passage replaced by a fake answer
// given in a column, or the passages the IF-RAG generator wrote (`generate-counterfactual`), checked by the
// generator's own check before any case uses them.
import type { DatasetRow } from '../../model.js';
import { generationProblem } from '../ifrag/counterfactual.js';
import type { IfRagRow } from '../ifrag/rows.js';
import type { AnswerParts } from '../rgb/rows.js';
import { bearingOf, mentionsAnswer } from './bearing.js';
import { COLUMNS, readStressRow } from './rows.js';
import type { StressRow } from './rows.js';

export interface Counterfactual {
  fakeanswer: AnswerParts;
  /** Index-aligned with the answer-bearing passages. */
  passages: string[];
  origin: 'column' | 'generated';
  generatedBy?: unknown;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every occurrence of every alternative of each part replaced, longest first so "New York City" wins over "New York". */
export function substituteAnswer(text: string, answer: AnswerParts, fake: AnswerParts): string {
  const pairs = answer.flatMap((alternatives, part) => alternatives.map((alt) => ({ alt, fake: (fake[part] as string[])[0] as string })));
  pairs.sort((a, b) => b.alt.length - a.alt.length);
  const pattern = new RegExp(pairs.map((p) => escape(p.alt)).join('|'), 'giu');
  const lookup = new Map(pairs.map((p) => [p.alt.toLowerCase(), p.fake]));
  return text.replace(pattern, (found) => lookup.get(found.toLowerCase()) ?? found);
}

/** The IF-RAG generator's view of a stress row: one answer's aliases and the passages bearing it. */
export function asGeneratorRow(stressRow: StressRow, passages: string[]): IfRagRow {
  return { question: stressRow.question, answer: stressRow.answer.flat(), passages, ...(stressRow.id !== undefined ? { id: stressRow.id } : {}) };
}

/**
 * What `generate-counterfactual` reads from a stress row (its reader option): single-part answers only, since the
 * generator writes one substitute; the passages are the answer-bearing ones, in row order, as the cases align them.
 */
export function stressRowForGeneration(row: DatasetRow): IfRagRow {
  const stressRow = readStressRow(row);
  if (stressRow.answer.length !== 1) throw new Error('the answer has several parts: give fake_answer (one fake per part) instead');
  const passages = bearingOf(stressRow).bearing.map((b) => stressRow.contexts[b.index] as string);
  if (passages.length === 0) throw new Error('no retrieved passage contains the reference answer');
  const generatorRow = asGeneratorRow(stressRow, passages);
  // A row that already has counterfactual data is kept as it is, as the generator keeps IF-RAG rows.
  if (stressRow.counterfactual) generatorRow.counterfactual = { answer: stressRow.counterfactual.answer, passages: stressRow.counterfactual.passages };
  return generatorRow;
}

/** A RAGAS-style row (retrieved_contexts or contexts, no IF-RAG `passages`): generate-counterfactual reads it as stress does. */
export function looksLikeStressRow(data: Record<string, unknown>): boolean {
  return data.passages === undefined && COLUMNS.contexts.some((name) => data[name] !== undefined);
}

/** The row's counterfactual passages, or why it has none usable (the caller reports it at the row's line). */
export function counterfactualOf(stressRow: StressRow, bearingPassages: string[]): Counterfactual | string {
  const given = stressRow.counterfactual;
  if (given) {
    if (stressRow.answer.length !== 1) return 'counterfactual data is for one-part answers; give fake_answer with one fake per answer part instead';
    const problem = generationProblem({ answer: given.answer[0] as string, passages: given.passages }, asGeneratorRow(stressRow, bearingPassages));
    if (problem !== undefined) return `the counterfactual data fails the generator's check: ${problem}`;
    return { fakeanswer: [given.answer], passages: given.passages, origin: 'generated', ...(given.generatedBy !== undefined ? { generatedBy: given.generatedBy } : {}) };
  }
  const fake = stressRow.fakeAnswer;
  if (!fake) return 'counterfactual_robustness needs a fake answer: add a fake_answer column, or counterfactual data written by `rag-inspector generate-counterfactual`';
  const overlapping = fake.flat().find((f) => mentionsAnswer(f, stressRow.answer) || stressRow.answer.flat().some((a) => f.toLowerCase().includes(a.toLowerCase()) || a.toLowerCase().includes(f.toLowerCase())));
  if (overlapping !== undefined) return `the fake answer "${overlapping}" is or overlaps the reference answer, so a passage would still bear it`;
  const passages = bearingPassages.map((text) => substituteAnswer(text, stressRow.answer, fake));
  // A passage marked answer-bearing that paraphrases the answer has no span to replace; it would stay true.
  const unchanged = passages.findIndex((text, i) => text === bearingPassages[i]);
  if (unchanged !== -1) return `answer-bearing passage ${unchanged + 1} does not contain the reference word for word, so the fake answer cannot replace it: give counterfactual passages (rag-inspector generate-counterfactual writes them)`;
  return { fakeanswer: fake, passages, origin: 'column' };
}
