// Expands one of the user's rows into a testbed's cases. The row becomes an RGB row (answer-bearing passages as
// positives, drawn distractors as negatives, substituted passages as counterfactuals) and RGB's own passage selection
// builds the noise, rejection, integration and counterfactual cases; the position testbed places the answer-bearing
// passage at every position among k distractors with the placement Explain uses.
import { InputError } from '../../errors.js';
import type { CaseDocument, DatasetRow, EvalCase } from '../../model.js';
import { everyPlacement } from '../../placement.js';
import { caseSeed, mulberry32 } from '../../random.js';
import type { SuiteBuildContext } from '../contract.js';
import type { RgbCaseParams, RgbExpected } from '../rgb/cases.js';
import { selectPassages } from '../rgb/processData.js';
import type { SelectedPassage, Selection } from '../rgb/processData.js';
import type { RgbRow } from '../rgb/rows.js';
import { documentSpans } from '../rgb/spans.js';
import { bearingOf, integrationGroups } from './bearing.js';
import type { BearingRule, PassageBearing } from './bearing.js';
import { distractorBudget, distractorsNeeded } from './budget.js';
import { counterfactualOf } from './counterfactual.js';
import type { PassageVerdict, PassedOverDistractor, StressPrepared } from './judgedBearing.js';
import type { Counterfactual } from './counterfactual.js';
import type { StressParams, StressTestbed } from './params.js';
import { drawDistractors } from './pool.js';
import type { Distractor, DistractorPool } from './pool.js';
import { ROW_FORMAT, readStressRow, stressRowKey } from './rows.js';
import type { StressRow } from './rows.js';

import { STRESS_METHOD } from './view.js';
export { STRESS_METHOD };

/** RGB's recorded parameters (the scorer and tables read them) plus what the stress build decided. */
export interface StressCaseParams extends RgbCaseParams {
  testbed: StressTestbed;
  /** Row passages found answer-bearing (indexes into contexts) and by which rule. */
  answerBearing: number[];
  answerBearingRule: BearingRule;
  /**
   * answerBearing: judge — the judge's verdict and reason for every passage of the row (none when its answer_bearing
   * column named them): why each was taken or not; and the distractor candidates it found to state the answer.
   */
  answerBearingJudge?: { judge: string; verdicts: PassageVerdict[]; distractorsPassedOver: PassedOverDistractor[] };
  /** Position testbed: 0-based position of the answer-bearing passage, and the distractors around it. */
  position: number | null;
  k: number | null;
  /** Distractors asked of the pool for the row, and how many it could give. */
  distractorsRequested: number;
  distractorsDrawn: number;
  /** Counterfactual testbed: where the fake answer came from. */
  fakeAnswerOrigin?: 'column' | 'generated';
  generatedBy?: unknown;
}

interface Built {
  row: DatasetRow;
  stressRow: StressRow;
  bearing: PassageBearing[];
  rule: BearingRule;
  prepared?: StressPrepared;
  distractors: Distractor[];
  counterfactual?: Counterfactual;
  params: StressParams;
  context: SuiteBuildContext;
  base: string;
}

function fail(row: DatasetRow, message: string, hint: string = ROW_FORMAT): never {
  throw new InputError({ file: row.ref.file, line: row.ref.line }, message, hint);
}

const quote = (s: string) => `"${s}"`;

/** The row as RGB's selection reads it: sources are indexes into these lists, mapped back to the row afterwards. */
function asRgbRow(built: Built): RgbRow {
  const { stressRow, bearing, distractors, counterfactual } = built;
  const base = { query: stressRow.question, answer: stressRow.answer, negative: distractors.map((d) => d.text) };
  const positive = bearing.map((b) => stressRow.contexts[b.index] as string);
  if (built.params.testbed === 'information_integration') {
    const groups = integrationGroups(bearing, stressRow.answer.length);
    return { ...base, kind: 'integration', positive: groups.map((g) => g.map((i) => stressRow.contexts[i] as string)) };
  }
  if (counterfactual) return { ...base, kind: 'counterfactual', positive, positiveWrong: counterfactual.passages, fakeanswer: counterfactual.fakeanswer };
  return { ...base, kind: 'plain', positive };
}

/** "positive[1]" → "contexts[4]"; "negative[0]" → "rows[7].contexts[2]"; "positive_wrong[0]" → "contexts[4] (fake answer)". */
function rowSource(built: Built, source: string): string {
  const [, list, first, second] = /^(\w+)\[(\d+)\](?:\[(\d+)\])?$/.exec(source) ?? [];
  const index = Number(first);
  if (list === 'negative') return (built.distractors[index] as Distractor).source;
  if (list === 'positive' && second !== undefined) {
    const groups = integrationGroups(built.bearing, built.stressRow.answer.length);
    return `contexts[${(groups[index] as number[])[Number(second)]}]`;
  }
  const contextIndex = (built.bearing[index] as PassageBearing).index;
  return list === 'positive_wrong' ? `contexts[${contextIndex}] (fake answer)` : `contexts[${contextIndex}]`;
}

function toDocuments(built: Built, passages: readonly SelectedPassage[], expected: RgbExpected): CaseDocument[] {
  return passages.map((passage, i) => ({
    id: `d${i}`,
    role: passage.role,
    text: passage.text,
    source: rowSource(built, passage.source),
    spans: documentSpans(passage.text, passage.role, expected.answer, expected.fakeanswer),
  }));
}

interface Variant {
  id: string;
  noiseRate: number | null;
  position: number | null;
  selection: Selection;
}

function makeCase(built: Built, variant: Variant, seed: number): EvalCase {
  const { stressRow, params, context } = built;
  const expected: RgbExpected = built.counterfactual ? { answer: stressRow.answer, fakeanswer: built.counterfactual.fakeanswer } : { answer: stressRow.answer };
  const documents = toDocuments(built, variant.selection.passages, expected);
  const caseParams: StressCaseParams = {
    testbed: params.testbed,
    noiseRate: variant.noiseRate,
    effectiveNoiseRate: variant.selection.effectiveNoiseRate,
    positives: variant.selection.positives,
    negatives: variant.selection.negatives,
    counterfactuals: variant.selection.counterfactuals,
    passageNum: params.passageNum,
    correctRate: params.correctRate,
    seed,
    strict: params.strict,
    language: params.language,
    noDocuments: documents.length === 0 && variant.noiseRate === null && variant.position === null,
    order: documents.map((d) => d.source ?? d.id),
    answerBearing: built.bearing.map((b) => b.index),
    answerBearingRule: built.rule,
    position: variant.position,
    k: params.testbed === 'position' ? built.distractors.length : null,
    distractorsRequested: distractorsNeeded(built.bearing.length, params),
    distractorsDrawn: built.distractors.length,
  };
  if (built.prepared?.kind === 'judged') {
    const { judge, verdicts, distractors } = built.prepared;
    caseParams.answerBearingJudge = { judge, verdicts: verdicts ?? [], distractorsPassedOver: distractors.passedOver };
  }
  if (built.counterfactual) {
    caseParams.fakeAnswerOrigin = built.counterfactual.origin;
    if (built.counterfactual.generatedBy !== undefined) caseParams.generatedBy = built.counterfactual.generatedBy;
  }
  return {
    id: variant.id,
    suiteId: context.suiteId,
    method: STRESS_METHOD,
    testbed: params.testbed,
    row: built.row.ref,
    question: stressRow.question,
    documents,
    expected,
    params: caseParams,
    seed,
    variables: { question: stressRow.question, documents: documents.map(({ id, text, role }) => ({ id, text, role })), refusal: params.refusal[0] },
    messages: [],
  };
}

/** One case per noise ratio, RGB's selection and shuffle with the case's own seed (plus the no-document case). */
function ratioCases(built: Built): EvalCase[] {
  const rgbRow = asRgbRow(built);
  const cases = built.params.noiseRates.map((noiseRate) => {
    const id = `${built.base}/noise=${noiseRate}`;
    const seed = caseSeed(built.context.seed, id);
    // RGB's selection takes the first negatives of the row, so a shorter list is a smaller budget, same prefix.
    const budget = distractorBudget(built.bearing.length, noiseRate, built.params);
    const row = { ...rgbRow, negative: rgbRow.negative.slice(0, budget) } as RgbRow;
    const selection = selectPassages(row, { noiseRate, passageNum: built.params.passageNum, correctRate: built.params.correctRate }, mulberry32(seed));
    return makeCase(built, { id, noiseRate, position: null, selection }, seed);
  });
  if (built.params.withoutDocuments) {
    const id = `${built.base}/nodocs`;
    const empty: Selection = { passages: [], positives: 0, negatives: 0, counterfactuals: 0, effectiveNoiseRate: null };
    cases.push(makeCase(built, { id, noiseRate: null, position: null, selection: empty }, caseSeed(built.context.seed, id)));
  }
  return cases;
}

/** The first answer-bearing passage at every position among the k distractors, which keep their drawn order. */
function positionCases(built: Built): EvalCase[] {
  const first = built.bearing[0] as PassageBearing;
  const bearingPassage: SelectedPassage = { text: built.stressRow.contexts[first.index] as string, role: 'positive', source: 'positive[0]' };
  const others = built.distractors.map((d, i): SelectedPassage => ({ text: d.text, role: 'negative', source: `negative[${i}]` }));
  const k = others.length;
  return everyPlacement(others, bearingPassage).map((passages, position) => {
    const id = `${built.base}/position=${position}`;
    const selection: Selection = { passages, positives: 1, negatives: k, counterfactuals: 0, effectiveNoiseRate: k / (k + 1) };
    return makeCase(built, { id, noiseRate: null, position, selection }, caseSeed(built.context.seed, id));
  });
}

function describeAnswer(stressRow: StressRow): string {
  return stressRow.answer.map((alts) => alts.map(quote).join(' / ')).join(' and ');
}

/** Checks the testbed can be built from the row; each failure names the row's problem and what to change. */
function checkRow(row: DatasetRow, stressRow: StressRow, bearing: PassageBearing[], params: StressParams): void {
  if (bearing.length === 0) {
    fail(row, `stress row: none of the ${stressRow.contexts.length} retrieved passages contains the reference answer ${describeAnswer(stressRow)} (RGB's rule: lowercase substring of any alternative); the row cannot be stressed`, 'write the reference as the passages word it (a list gives alternatives, e.g. reference: ["8 minutes", "eight minutes"]; a long reference sentence: the short answer in answer_parts), or name the passages that bear it: answer_bearing: [0]');
  }
  if (params.testbed !== 'information_integration') return;
  if (stressRow.answer.length < 2) fail(row, 'stress row: information integration needs an answer in several parts, each found in a different passage; this reference has one part', 'write answer_parts: ["part one", "part two"] (RGB\'s form) for rows whose answer combines facts');
  const groups = integrationGroups(bearing, stressRow.answer.length);
  const missing = groups.flatMap((g, part) => (g.length === 0 ? [part] : []));
  if (missing.length > 0) {
    const names = missing.map((part) => (stressRow.answer[part] as string[]).map(quote).join(' / ')).join(', ');
    fail(row, `stress row: information integration needs every answer part in a passage of its own; ${names} ${missing.length === 1 ? 'is' : 'are'} found in no passage, or only together with another part`);
  }
}

/** What a row's case ids start with: the suite and the row's key. */
function rowCaseBase(row: DatasetRow, stressRow: StressRow, context: Pick<SuiteBuildContext, 'suiteId'>): string {
  return `${context.suiteId}/${stressRowKey(row, stressRow)}`;
}

/** The seed a row ranks the distractor pool with: the run seed and the row's key, never its neighbours. */
export function rowDrawSeed(row: DatasetRow, stressRow: StressRow, context: Pick<SuiteBuildContext, 'suiteId' | 'seed'>): number {
  return caseSeed(context.seed, `${rowCaseBase(row, stressRow, context)}/distractors`);
}

/**
 * Suite.expandRow for stress: a pure function of (row, params, run seed, the pool's content, and the judge's verdicts
 * and cleared distractors when answerBearing is judge: prepareStressRow). The pool's order and the other rows play no
 * part: distractors are the row's first candidates by rank (rank.ts), so editing one row leaves every row that drew
 * none of its passages exactly as it was.
 */
export function expandStressRow(row: DatasetRow, params: StressParams, context: SuiteBuildContext, pool: DistractorPool, prepared?: StressPrepared): EvalCase[] {
  const stressRow = readStressRow(row);
  const { bearing, rule } = bearingOf(stressRow, prepared);
  checkRow(row, stressRow, bearing, params);
  const base = rowCaseBase(row, stressRow, context);
  let counterfactual: Counterfactual | undefined;
  if (params.testbed === 'counterfactual_robustness') {
    const found = counterfactualOf(stressRow, bearing.map((b) => stressRow.contexts[b.index] as string));
    if (typeof found === 'string') fail(row, `stress row: ${found}`);
    counterfactual = found;
  }
  // With the judge, the distractors it cleared; else the first candidates that do not mention the answer word for word.
  const distractors = prepared?.kind === 'judged'
    ? prepared.distractors.drawn
    : drawDistractors(pool, { seed: rowDrawSeed(row, stressRow, context), rowIndex: row.ref.index, answer: stressRow.answer, own: stressRow.contexts, count: distractorsNeeded(bearing.length, params) }).distractors;
  if (params.testbed === 'position' && distractors.length === 0) fail(row, 'stress row: no distractor could be drawn for the position testbed (every other passage mentions this answer, or the pool is empty)', 'add rows, or name a corpus folder: distractors: { corpus: <folder> }');
  const built: Built = { row, stressRow, bearing, rule, ...(prepared ? { prepared } : {}), distractors, params, context, base, ...(counterfactual ? { counterfactual } : {}) };
  return params.testbed === 'position' ? positionCases(built) : ratioCases(built);
}

export function stressCaseParams(evalCase: Pick<EvalCase, 'params'>): StressCaseParams {
  return evalCase.params as StressCaseParams;
}
