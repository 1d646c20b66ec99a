// Expands one RGB dataset row into its cases: one per noise ratio (plus a no-document case when asked).
import type { CaseDocument, DatasetRow, EvalCase } from '../../model.js';
import type { SuiteBuildContext } from '../contract.js';
import { rowKey } from '../../data/rowIds.js';
import type { RgbParams } from './params.js';
import { selectPassages } from './processData.js';
import type { Selection } from './processData.js';
import { caseSeed, mulberry32 } from '../../random.js';
import { dataKindFor, readRgbRow } from './rows.js';
import type { AnswerParts, RgbRow } from './rows.js';
import { documentSpans } from './spans.js';

import { RGB_METHOD } from './view.js';
export { RGB_METHOD };

/** What an RGB case expects; `fakeanswer` only on counterfactual rows. */
export interface RgbExpected {
  answer: AnswerParts;
  fakeanswer?: AnswerParts;
}

/** The parameters and effective values recorded in every RGB case (EvalCase.params). */
export interface RgbCaseParams extends Record<string, unknown> {
  /** Requested ratio; null on the no-document case. */
  noiseRate: number | null;
  /** negatives / passages actually used (null with no passages): differs from noiseRate when a row ran short. */
  effectiveNoiseRate: number | null;
  positives: number;
  negatives: number;
  counterfactuals: number;
  passageNum: number;
  correctRate: number;
  seed: number;
  strict: boolean;
  language: 'en' | 'zh';
  /** The paper's "Acc" variant of counterfactual robustness: the question alone. */
  noDocuments: boolean;
  /** Document sources in the order shown, e.g. ["negative[0]", "positive_wrong[2]", …]. */
  order: string[];
}

function expectedOf(rgbRow: RgbRow): RgbExpected {
  return rgbRow.kind === 'counterfactual' ? { answer: rgbRow.answer, fakeanswer: rgbRow.fakeanswer } : { answer: rgbRow.answer };
}

function toDocuments(selection: Selection, expected: RgbExpected): CaseDocument[] {
  return selection.passages.map((passage, i) => ({
    id: `d${i}`,
    role: passage.role,
    text: passage.text,
    source: passage.source,
    spans: documentSpans(passage.text, passage.role, expected.answer, expected.fakeanswer),
  }));
}

/** The variables the RGB templates use: `question` and `documents` ({id, text, role}). */
function templateVariables(question: string, documents: readonly CaseDocument[]): Record<string, unknown> {
  return { question, documents: documents.map(({ id, text, role }) => ({ id, text, role })) };
}

interface CaseInput {
  id: string;
  row: DatasetRow;
  rgbRow: RgbRow;
  params: RgbParams;
  context: SuiteBuildContext;
  noiseRate: number | null;
}

function buildCase({ id, row, rgbRow, params, context, noiseRate }: CaseInput): EvalCase {
  const seed = caseSeed(context.seed, id);
  const expected = expectedOf(rgbRow);
  const selection: Selection = noiseRate === null
    ? { passages: [], positives: 0, negatives: 0, counterfactuals: 0, effectiveNoiseRate: null }
    : selectPassages(rgbRow, { noiseRate, passageNum: params.passageNum, correctRate: params.correctRate }, mulberry32(seed));
  const documents = toDocuments(selection, expected);
  const caseParams: RgbCaseParams = {
    noiseRate,
    effectiveNoiseRate: selection.effectiveNoiseRate,
    positives: selection.positives,
    negatives: selection.negatives,
    counterfactuals: selection.counterfactuals,
    passageNum: params.passageNum,
    correctRate: params.correctRate,
    seed,
    strict: params.strict,
    language: params.language,
    noDocuments: noiseRate === null,
    order: documents.map((d) => d.source ?? d.id),
  };
  return {
    id,
    suiteId: context.suiteId,
    method: RGB_METHOD,
    testbed: params.testbed,
    row: row.ref,
    question: rgbRow.query,
    documents,
    expected,
    params: caseParams,
    seed,
    variables: templateVariables(rgbRow.query, documents),
    messages: [],
  };
}

/** Validate the row for the testbed, then one case per noise ratio, ids `${suiteId}/${row id}/noise=${rate}`. */
export function expandRgbRow(row: DatasetRow, params: RgbParams, context: SuiteBuildContext): EvalCase[] {
  const rgbRow = readRgbRow(row, dataKindFor(params.testbed));
  const base = `${context.suiteId}/${rowKey(row)}`;
  const cases = params.noiseRates.map((noiseRate) => buildCase({ id: `${base}/noise=${noiseRate}`, row, rgbRow, params, context, noiseRate }));
  if (params.withoutDocuments) cases.push(buildCase({ id: `${base}/nodocs`, row, rgbRow, params, context, noiseRate: null }));
  return cases;
}

/** The recorded RGB parameters of a case built by this suite. */
export function rgbCaseParams(evalCase: Pick<EvalCase, 'params'>): RgbCaseParams {
  return evalCase.params as RgbCaseParams;
}

export function rgbExpected(evalCase: EvalCase): RgbExpected {
  return evalCase.expected as RgbExpected;
}
