// Builds the grid's cases: one per (context length, depth), plus the Arize negative test, from one tokenised haystack.
import * as path from 'node:path';
import { packageRoot } from '../../assets.js';
import { InputError } from '../../errors.js';
import type { CaseDocument, EvalCase, Span } from '../../model.js';
import type { SuiteBuildContext } from '../contract.js';
import { caseSeed } from '../../random.js';
import { setLayout } from '../../textLayout.js';
import { drawCell, fillPlaceholders } from './arize.js';
import { HaystackError, haystackFiles, loadHaystack } from './haystack.js';
import { CellTooSmallError, buildCell } from './insert.js';
import type { Cell } from './insert.js';
import { classicAnswer } from './params.js';
import type { NeedleParams } from './params.js';
import { indexText } from './tokenIndex.js';
import type { IndexedText } from './tokenIndex.js';
import { haystackTokenizerFor } from './tokenizer.js';
import type { HaystackTokenizer } from './tokenizer.js';

import { NEEDLE_METHOD } from './view.js';
export { NEEDLE_METHOD };

/** What a needle case expects: the inserted needles, the phrases scoring looks for, the judge's ground truth. */
export interface NeedleExpected {
  needles: string[];
  answers: string[];
  /** The judge's [Ground truth]: the needle itself, as the reference passes it. */
  reference: string;
  /** Arize negative test: nothing inserted, UNANSWERABLE expected. */
  negative: boolean;
}

/** The parameters and effective placement recorded in every needle case (EvalCase.params). */
export interface NeedleCaseParams extends Record<string, unknown> {
  variant: NeedleParams['variant'];
  contextLength: number;
  /** null on a negative-test cell. */
  requestedDepth: number | null;
  /** Where the (first) needle really went, as a percent of the haystack kept; null without a needle. */
  actualDepthPercent: number | null;
  actualDepthPercents: number[];
  needleTokenIndex: number | null;
  needleTokenIndexes: number[];
  /**
   * The multi-needle reference's logged percentages (insertion point over the length just after it); empty at depth
   * 100, where the reference appends every needle without logging one.
   */
  insertionPercentages: number[];
  haystackTokens: number;
  contextTokens: number;
  buffer: number;
  tokenizer: string;
  approximateTokenizer: boolean;
  tokenizerModel: string;
  boundary: NeedleParams['boundary'];
  negative: boolean;
  city?: string;
  number?: string;
  seed?: number;
}

export function needleCaseParams(evalCase: Pick<EvalCase, 'params'>): NeedleCaseParams {
  return evalCase.params as NeedleCaseParams;
}

export function needleExpected(evalCase: EvalCase): NeedleExpected {
  return evalCase.expected as NeedleExpected;
}

/** The eval file's haystack (relative to it), else the example haystack shipped with RAG Inspector. */
export function haystackLocation(params: NeedleParams, specFile: string): string {
  return params.haystack === undefined ? path.join(packageRoot(), 'examples', 'needle', 'haystack') : path.resolve(path.dirname(specFile), params.haystack);
}

/** What one cell inserts and asks; Arize draws its city and number from the cell's own seed. */
interface CellPlan {
  id: string;
  contextLength: number;
  depth: number | null;
  needles: { text: string; answer: string; index: IndexedText }[];
  question: string;
  draw?: { city: string; number: string; seed: number };
}

function cellId(suiteId: string, contextLength: number, depth: number | null): string {
  return `${suiteId}/L=${contextLength}/${depth === null ? 'negative' : `d=${depth}`}`;
}

/** Cells in the reference's order: lengths outer, depths inner; the Arize negative test after the grid. */
function planCells(params: NeedleParams, context: SuiteBuildContext, tokenizer: HaystackTokenizer): CellPlan[] {
  const fixed = fixedNeedles(params, tokenizer);
  const plans: CellPlan[] = [];
  for (const contextLength of params.contextLengths) {
    for (const depth of params.depths) {
      const id = cellId(context.suiteId, contextLength, depth);
      plans.push(params.variant === 'arize' ? arizeCell(id, contextLength, depth, params, context, tokenizer) : { id, contextLength, depth, needles: fixed, question: params.question });
    }
  }
  if (params.variant === 'arize' && params.negativeTest) {
    for (const contextLength of params.contextLengths) {
      const id = cellId(context.suiteId, contextLength, null);
      plans.push({ ...arizeCell(id, contextLength, null, params, context, tokenizer), needles: [] });
    }
  }
  return plans;
}

/** Classic and multi cells share their needles: index them once. */
function fixedNeedles(params: NeedleParams, tokenizer: HaystackTokenizer): CellPlan['needles'] {
  if (params.variant === 'arize') return [];
  const specs = params.variant === 'multi' ? params.needles : [{ text: params.needle, answer: classicAnswer(params) }];
  return specs.map((spec) => ({ ...spec, index: indexText(spec.text, tokenizer, params.boundary) }));
}

function arizeCell(id: string, contextLength: number, depth: number | null, params: NeedleParams, context: SuiteBuildContext, tokenizer: HaystackTokenizer): CellPlan {
  const seed = caseSeed(context.seed, id);
  const draw = drawCell(seed);
  const needle = fillPlaceholders(params.needle, draw);
  return {
    id,
    contextLength,
    depth,
    needles: [{ text: needle, answer: draw.number, index: indexText(needle, tokenizer, params.boundary) }],
    question: fillPlaceholders(params.question, draw),
    draw: { ...draw, seed },
  };
}

function needleSpans(cell: Cell, plan: CellPlan): Span[] {
  const many = plan.needles.length > 1;
  return cell.spans.map((span) => ({
    kind: 'needle',
    start: span.start,
    end: span.end,
    text: cell.context.slice(span.start, span.end),
    label: many ? `needle ${span.needle + 1}` : 'needle',
  }));
}

function haystackDocument(cell: Cell, plan: CellPlan, files: readonly string[]): CaseDocument {
  const document: CaseDocument = {
    id: 'haystack',
    role: 'haystack',
    text: cell.context,
    spans: needleSpans(cell, plan),
    source: `first ${cell.haystackTokens} tokens of ${files.length} haystack file${files.length === 1 ? '' : 's'}`,
  };
  setLayout(document, cell.layout);
  return document;
}

function caseParams(cell: Cell, plan: CellPlan, params: NeedleParams, tokenizer: HaystackTokenizer): NeedleCaseParams {
  const first = cell.placed[0];
  return {
    variant: params.variant,
    contextLength: plan.contextLength,
    requestedDepth: plan.depth,
    actualDepthPercent: first ? first.actualDepthPercent : null,
    actualDepthPercents: cell.placed.map((p) => p.actualDepthPercent),
    needleTokenIndex: first ? first.tokenIndex : null,
    needleTokenIndexes: cell.placed.map((p) => p.tokenIndex),
    insertionPercentages: cell.placed.flatMap((p) => (p.insertionPercent === null ? [] : [p.insertionPercent])),
    haystackTokens: cell.haystackTokens,
    contextTokens: cell.contextTokens,
    buffer: params.buffer,
    tokenizer: tokenizer.name,
    approximateTokenizer: tokenizer.approximate,
    tokenizerModel: params.tokenizerModel,
    boundary: params.boundary,
    negative: plan.depth === null,
    ...(plan.draw ? { city: plan.draw.city, number: plan.draw.number, seed: plan.draw.seed } : {}),
  };
}

function toCase(plan: CellPlan, index: number, cell: Cell, params: NeedleParams, context: SuiteBuildContext & { specFile: string }, tokenizer: HaystackTokenizer, files: readonly string[]): EvalCase {
  const needles = plan.needles.map((n) => n.text);
  const expected: NeedleExpected = {
    needles,
    answers: plan.depth === null ? ['UNANSWERABLE'] : plan.needles.map((n) => n.answer),
    reference: needles.join(''),
    negative: plan.depth === null,
  };
  return {
    id: plan.id,
    suiteId: context.suiteId,
    method: NEEDLE_METHOD,
    testbed: params.variant,
    row: { file: context.specFile, line: 1, index },
    question: plan.question,
    documents: [haystackDocument(cell, plan, files)],
    expected,
    params: caseParams(cell, plan, params, tokenizer),
    ...(plan.draw ? { seed: plan.draw.seed } : {}),
    // The context string is shared with the document, not copied.
    variables: { context: cell.context, question: plan.question, needle: needles.join('\n') },
    messages: [],
  };
}

/** Suite.generateCases: the haystack tokenised once for the tokenizer, every cell sliced from it. */
export async function generateNeedleCases(params: NeedleParams, context: SuiteBuildContext & { specFile: string }): Promise<EvalCase[]> {
  const location = haystackLocation(params, context.specFile);
  const where = { file: context.specFile };
  let files: string[];
  try {
    files = await haystackFiles(location);
    if (files.length === 0) throw new HaystackError(`no .txt files in ${location}`);
  } catch (error) {
    if (error instanceof HaystackError) throw new InputError(where, `needle params.haystack: ${error.message}`, 'give a folder of .txt files, a glob such as docs/**/*.md, or one file, relative to the eval file');
    throw error;
  }
  const tokenizer = haystackTokenizerFor(params.tokenizerModel);
  const haystack = await loadHaystack(files, tokenizer, Math.max(...params.contextLengths), params.boundary).catch((error: unknown) => {
    if (error instanceof HaystackError) throw new InputError(where, `needle params.haystack: ${error.message}`, `check the files under ${location}`);
    throw error;
  });
  return planCells(params, context, tokenizer).map((plan, index) => {
    let cell: Cell;
    try {
      cell = buildCell(haystack, { contextLength: plan.contextLength, depthPercent: plan.depth ?? 0, buffer: params.buffer, needles: plan.needles.map((n) => n.index) });
    } catch (error) {
      if (error instanceof CellTooSmallError) throw new InputError(where, `needle params.contextLengths: ${error.message}`, 'raise the smallest context length or lower buffer');
      throw error;
    }
    return toCase(plan, index, cell, params, context, tokenizer, files);
  });
}
