// Expands one IF-RAG row into a case per data kind: its evidence plus seeded irrelevant passages, shuffled, labelled.
import { InputError } from '../../errors.js';
import type { CaseDocument, DatasetRow, DocumentRole, EvalCase } from '../../model.js';
import type { SuiteBuildContext } from '../contract.js';
import { caseSeed, mulberry32, shuffled } from '../../random.js';
import type { Random } from '../../random.js';
import { documentSpans } from '../rgb/spans.js';
import { documentLabel } from './citations.js';
import { emptyAfterNormalising, findAlias } from './normalise.js';
import type { DataKind, IfRagParams, Instruction, Normalisation } from './params.js';
import type { PassagePool, PoolPassage } from './pool.js';
import { randomOrder } from './randomOrder.js';
import { ROW_FORMAT, readIfRagRow } from './rows.js';
import { rowKey } from '../../data/rowIds.js';
import type { IfRagRow } from './rows.js';

import { IFRAG_METHOD } from './view.js';
export { IFRAG_METHOD };

/** One answer the case accepts, with the documents that support it. */
export interface GoldAnswer {
  /** Which evidence it comes from: the true answer or the counterfactual one. */
  source: 'factual' | 'counterfactual';
  /** Any one alias suffices. */
  aliases: string[];
  /** Case document ids of its evidence: what instruction B must cite. */
  helpful: string[];
}

export interface IfRagExpected {
  kind: DataKind;
  /** factual: the true answer; counterfactual: the substituted one; multi: both (C needs both, A and B either). */
  gold: GoldAnswer[];
}

export interface SkippedKind {
  kind: DataKind;
  reason: string;
}

/** Where an irrelevant passage came from, so a case can be traced back to the other row. */
export interface IrrelevantSource {
  rowIndex: number;
  rowId?: string | number;
  passageIndex: number;
}

/** What every IF-RAG case records (EvalCase.params). */
export interface IfRagCaseParams extends Record<string, unknown> {
  kind: DataKind;
  instruction: Instruction;
  k: number;
  idFormat: string;
  normalise: Normalisation;
  /** Draws the irrelevant passages: from the run seed and the row only, so suites A, B and C show the same passages. */
  sampleSeed: number;
  /** Shuffles this kind's documents (also EvalCase.seed): from the run seed, the row and the kind. */
  orderSeed: number;
  evidence: number;
  /** Irrelevant passages shown, and how many k asked for (fewer when other rows ran short). */
  irrelevant: number;
  requestedIrrelevant: number;
  /** Other rows' passages there were to draw from, and those drawn but passed over for mentioning this row's answers. */
  available: number;
  passedOver: number;
  /** Labels in display order ("[Document 1]"…), and those of the helpful documents. */
  documentLabels: string[];
  helpfulLabels: string[];
  /** Document sources in display order: "passages[0]", "counterfactual.passages[1]", "rows[7].passages[2]". */
  order: string[];
  irrelevantSources: IrrelevantSource[];
  /** Kinds the suite asked for that this row could not give (no counterfactual data). */
  skippedKinds: SkippedKind[];
  popularity?: number;
}

interface Passage {
  text: string;
  role: DocumentRole;
  source: string;
  irrelevant?: IrrelevantSource;
}

// ——— validation ———

function checkNormalisable(row: DatasetRow, aliases: string[], field: string, mode: Normalisation): void {
  const empty = emptyAfterNormalising(aliases, mode);
  if (empty.length === aliases.length) {
    throw new InputError({ file: row.ref.file, line: row.ref.line }, `IF-RAG row field "${field}": ${empty.map((a) => JSON.stringify(a)).join(', ')} is empty after ${mode} normalisation and would match any response`, ROW_FORMAT);
  }
}

function readRow(row: DatasetRow, params: IfRagParams): IfRagRow {
  const ifragRow = readIfRagRow(row);
  checkNormalisable(row, ifragRow.answer, 'answer', params.normalise);
  if (ifragRow.counterfactual) checkNormalisable(row, ifragRow.counterfactual.answer, 'counterfactual.answer', params.normalise);
  return ifragRow;
}

// ——— which kinds ———

function skipReason(ifragRow: IfRagRow): string {
  return ifragRow.counterfactualError !== undefined
    ? `counterfactual generation failed for this row: ${ifragRow.counterfactualError}`
    : 'the row has no counterfactual data (rag-inspector generate-counterfactual writes it)';
}

function splitKinds(ifragRow: IfRagRow, kinds: readonly DataKind[]): { built: DataKind[]; skipped: SkippedKind[] } {
  if (ifragRow.counterfactual) return { built: [...kinds], skipped: [] };
  const reason = skipReason(ifragRow);
  return {
    built: kinds.filter((kind) => kind === 'factual'),
    skipped: kinds.filter((kind) => kind !== 'factual').map((kind) => ({ kind, reason })),
  };
}

// ——— passages ———

function evidenceOf(ifragRow: IfRagRow, kind: DataKind): Passage[] {
  const factual = ifragRow.passages.map((text, i): Passage => ({ text, role: 'positive', source: `passages[${i}]` }));
  const counterfactual = (ifragRow.counterfactual?.passages ?? []).map((text, i): Passage => ({ text, role: 'counterfactual', source: `counterfactual.passages[${i}]` }));
  if (kind === 'factual') return factual;
  if (kind === 'counterfactual') return counterfactual;
  return [...factual, ...counterfactual];
}

function allAliases(ifragRow: IfRagRow): string[] {
  return [...ifragRow.answer, ...(ifragRow.counterfactual?.answer ?? [])];
}

interface Draw {
  drawn: PoolPassage[];
  /** Other rows' passages there were to draw from. */
  available: number;
  /** Drawn but passed over because they mention one of this row's answers. */
  passedOver: number;
}

/**
 * Draws `needed` irrelevant passages from the other rows, in a seeded random order, lazily, so a large dataset costs
 * only the passages looked at. A passage that mentions one of this row's answers (true or counterfactual) is passed
 * over: shown as "irrelevant" it would hand the model the answer, or a rival one, from an unmarked document.
 */
function drawIrrelevant(row: DatasetRow, ifragRow: IfRagRow, pool: PassagePool, needed: number, mode: Normalisation, random: Random): Draw {
  const own = new Set([...ifragRow.passages, ...(ifragRow.counterfactual?.passages ?? [])]);
  const aliases = allAliases(ifragRow);
  const draw: Draw = { drawn: [], available: pool.passages.length - (pool.countByRow.get(row.ref.index) ?? 0), passedOver: 0 };
  for (const index of randomOrder(pool.passages.length, random)) {
    if (draw.drawn.length >= needed) break;
    const passage = pool.passages[index] as PoolPassage;
    if (passage.rowIndex === row.ref.index || own.has(passage.text)) continue;
    if (findAlias(passage.text, aliases, mode) !== undefined) draw.passedOver++;
    else draw.drawn.push(passage);
  }
  return draw;
}

function toIrrelevant(passage: PoolPassage): Passage {
  const irrelevant: IrrelevantSource = { rowIndex: passage.rowIndex, passageIndex: passage.passageIndex, ...(passage.rowId !== undefined ? { rowId: passage.rowId } : {}) };
  return { text: passage.text, role: 'negative', source: `rows[${passage.rowIndex}].passages[${passage.passageIndex}]`, irrelevant };
}

// ——— documents and expectations ———

function toDocuments(passages: readonly Passage[], ifragRow: IfRagRow): CaseDocument[] {
  const fake = ifragRow.counterfactual ? [ifragRow.counterfactual.answer] : undefined;
  return passages.map((passage, i) => ({
    id: `d${i}`,
    role: passage.role,
    text: passage.text,
    source: passage.source,
    spans: documentSpans(passage.text, passage.role, [ifragRow.answer], fake),
  }));
}

function goldFor(kind: DataKind, ifragRow: IfRagRow, documents: readonly CaseDocument[]): GoldAnswer[] {
  const idsOf = (role: DocumentRole) => documents.filter((d) => d.role === role).map((d) => d.id);
  const factual: GoldAnswer = { source: 'factual', aliases: ifragRow.answer, helpful: idsOf('positive') };
  const counterfactual: GoldAnswer = { source: 'counterfactual', aliases: ifragRow.counterfactual?.answer ?? [], helpful: idsOf('counterfactual') };
  if (kind === 'factual') return [factual];
  if (kind === 'counterfactual') return [counterfactual];
  return [factual, counterfactual];
}

/** The variables the IF-RAG templates use: `question` and `documents` ({id, number, label, text, role}). */
function templateVariables(question: string, documents: readonly CaseDocument[], idFormat: string): Record<string, unknown> {
  return {
    question,
    documents: documents.map(({ id, text, role }, i) => ({ id, number: i + 1, label: documentLabel(idFormat, i + 1), text, role })),
  };
}

// ——— one case ———

interface KindInput {
  row: DatasetRow;
  ifragRow: IfRagRow;
  key: string;
  kind: DataKind;
  params: IfRagParams;
  context: SuiteBuildContext;
  draw: Draw;
  sampleSeed: number;
  skipped: SkippedKind[];
}

function buildCase(input: KindInput): EvalCase {
  const { row, ifragRow, key, kind, params, context, draw } = input;
  const id = `${context.suiteId}/${key}/${kind}`;
  const orderSeed = caseSeed(context.seed, `${IFRAG_METHOD}/${key}/${kind}`);
  const evidence = evidenceOf(ifragRow, kind);
  const requestedIrrelevant = Math.max(0, params.k - evidence.length);
  const irrelevant = draw.drawn.slice(0, requestedIrrelevant).map(toIrrelevant);
  const passages = shuffled([...evidence, ...irrelevant], mulberry32(orderSeed));
  const documents = toDocuments(passages, ifragRow);
  const gold = goldFor(kind, ifragRow, documents);
  const labelOf = (docId: string) => documentLabel(params.idFormat, documents.findIndex((d) => d.id === docId) + 1);
  const caseParams: IfRagCaseParams = {
    kind,
    instruction: params.instruction,
    k: params.k,
    idFormat: params.idFormat,
    normalise: params.normalise,
    sampleSeed: input.sampleSeed,
    orderSeed,
    evidence: evidence.length,
    irrelevant: irrelevant.length,
    requestedIrrelevant,
    available: draw.available,
    passedOver: draw.passedOver,
    documentLabels: documents.map((_, i) => documentLabel(params.idFormat, i + 1)),
    helpfulLabels: gold.flatMap((g) => g.helpful.map(labelOf)),
    order: documents.map((d) => d.source ?? d.id),
    irrelevantSources: passages.flatMap((p) => (p.irrelevant ? [p.irrelevant] : [])),
    skippedKinds: input.skipped,
    ...(ifragRow.popularity !== undefined ? { popularity: ifragRow.popularity } : {}),
  };
  const expected: IfRagExpected = { kind, gold };
  return {
    id,
    suiteId: context.suiteId,
    method: IFRAG_METHOD,
    testbed: kind,
    row: row.ref,
    question: ifragRow.question,
    documents,
    expected,
    params: caseParams,
    seed: orderSeed,
    variables: templateVariables(ifragRow.question, documents, params.idFormat),
    messages: [],
  };
}

/**
 * Suite.expandRow for IF-RAG, with the pool of the row's dataset file: one case per requested data kind the row
 * supports, ids `${suiteId}/${row id}/${kind}`. The irrelevant passages are one seeded draw per row; each kind
 * takes as many as it needs from the front of that draw, so the kinds of a row differ only in their evidence.
 */
export function expandIfRagRow(row: DatasetRow, params: IfRagParams, context: SuiteBuildContext, pool: PassagePool): EvalCase[] {
  const ifragRow = readRow(row, params);
  const key = rowKey(row);
  const { built, skipped } = splitKinds(ifragRow, params.kinds);
  const sampleSeed = caseSeed(context.seed, `${IFRAG_METHOD}/${key}`);
  const needed = Math.max(0, ...built.map((kind) => params.k - evidenceOf(ifragRow, kind).length));
  const draw = drawIrrelevant(row, ifragRow, pool, needed, params.normalise, mulberry32(sampleSeed));
  return built.map((kind) => buildCase({ row, ifragRow, key, kind, params, context, draw, sampleSeed, skipped }));
}

export function ifragCaseParams(evalCase: Pick<EvalCase, 'params'>): IfRagCaseParams {
  return evalCase.params as IfRagCaseParams;
}

export function ifragExpected(evalCase: EvalCase): IfRagExpected {
  return evalCase.expected as IfRagExpected;
}
