// Stress parameters: which testbed is built from the user's rows, its ratios or positions, where distractors come
// from, and the user's own refusal phrase. Every key is checked, with a message naming it.
import * as path from 'node:path';
import { paramValueError, unknownParamError } from '../paramError.js';
import type { ParamsWhere } from '../contract.js';
import { LANGUAGES, parseJudgeParams } from '../rgb/params.js';
import type { Language, RgbJudgeParams } from '../rgb/params.js';

export const STRESS_TESTBEDS = ['noise_robustness', 'negative_rejection', 'counterfactual_robustness', 'information_integration', 'position'] as const;
export type StressTestbed = (typeof STRESS_TESTBEDS)[number];

/**
 * match: RGB's lowercase substring per answer part. judge: the eval file's judge decides per passage, paraphrases
 * included, before the row's cases are built (judgedBearing.ts). A row's answer_bearing column wins over both.
 */
export const ANSWER_BEARING_MODES = ['match', 'judge'] as const;
export type AnswerBearingMode = (typeof ANSWER_BEARING_MODES)[number];

/** Where distractors come from: other rows' passages that bear no answer, or paragraphs of a folder of text files. */
export type DistractorSource = { kind: 'dataset' } | { kind: 'corpus'; folder: string };

/**
 * Noise robustness on a row with fewer answer-bearing passages than passageNum asks for: RGB fills the case up with
 * noise (its effective ratio rises, often to 0.8 on real retrievals of one or two relevant passages); keep_ratio
 * shows fewer passages so the requested ratio holds as closely as whole passages allow.
 */
export const SHORT_ROWS = ['keep_ratio', 'fill'] as const;
export type ShortRows = (typeof SHORT_ROWS)[number];

/** RGB's judge passes, parsed by RGB's own parser. */
export type StressJudgeParams = RgbJudgeParams;

export interface StressParams {
  testbed: StressTestbed;
  language: Language;
  answerBearing: AnswerBearingMode;
  distractors: DistractorSource;
  noiseRates: number[];
  passageNum: number;
  shortRows: ShortRows;
  /** Position testbed: distractors around the answer-bearing passage (positions 1…k+1). */
  k: number;
  correctRate: number;
  /** Phrases that mark a refusal in the user's prompt; matched as RGB matches its marker. */
  refusal: string[];
  /** Phrases that mark a detected factual error (counterfactual robustness). */
  factualError: string[];
  strict: boolean;
  judge: StressJudgeParams;
  withoutDocuments: boolean;
}

/** RGB's ratios for the testbeds RGB has; position uses none (its ratio follows from k). */
const DEFAULT_NOISE_RATES: Readonly<Record<StressTestbed, readonly number[]>> = {
  noise_robustness: [0, 0.2, 0.4, 0.6, 0.8],
  negative_rejection: [1],
  information_integration: [0, 0.2, 0.4],
  counterfactual_robustness: [0],
  position: [],
};

/** RGB's markers, so the built-in prompt (which asks for these sentences) works without any setting. */
export const DEFAULT_REFUSAL = ['insufficient information'];
export const DEFAULT_FACTUAL_ERROR = ['factual errors'];

const KNOWN_KEYS = ['testbed', 'language', 'answerBearing', 'distractors', 'noiseRates', 'passageNum', 'shortRows', 'k', 'correctRate', 'refusal', 'factualError', 'strict', 'judge', 'withoutDocuments'];
type Where = ParamsWhere;

function fail(where: Where, key: string, message: string, hint: string): never {
  throw paramValueError(where.file, 'stress', key, message, hint);
}

const describe = (value: unknown) => JSON.stringify(value) ?? String(value);

function parseEnum<T extends string>(value: unknown, key: string, allowed: readonly T[], fallback: T | undefined, where: Where, hint: string): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) fail(where, key, 'missing', `set params.${key} to one of ${allowed.join(', ')}`);
  if (!allowed.includes(value as T)) fail(where, key, `unknown value ${describe(value)}`, `use one of ${allowed.join(', ')}${hint}`);
  return value as T;
}

function parseBoolean(value: unknown, key: string, fallback: boolean, where: Where): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(where, key, `expected true or false, got ${describe(value)}`, `write ${key}: true or ${key}: false`);
  return value;
}

function parseCount(value: unknown, key: string, fallback: number, min: number, where: Where, hint: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) fail(where, key, `expected a whole number of at least ${min}, got ${describe(value)}`, hint);
  return value;
}

function parseRate(value: unknown, key: string, where: Where): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) fail(where, key, `expected a number between 0 and 1, got ${describe(value)}`, 'ratios are shares of passageNum, e.g. 0.4');
  return value;
}

function parseNoiseRates(value: unknown, testbed: StressTestbed, where: Where): number[] {
  const defaults = [...DEFAULT_NOISE_RATES[testbed]];
  if (value === undefined) return defaults;
  if (testbed === 'position') fail(where, 'noiseRates', 'the position testbed has no noise ratios', 'remove noiseRates; set k, the number of distractors around the answer-bearing passage');
  if (!Array.isArray(value) || value.length === 0) fail(where, 'noiseRates', `expected a non-empty list of numbers, got ${describe(value)}`, `e.g. noiseRates: [${defaults.join(', ')}]`);
  const rates = value.map((rate, i) => parseRate(rate, `noiseRates[${i}]`, where));
  if (new Set(rates).size !== rates.length) fail(where, 'noiseRates', 'a ratio is listed twice', 'each ratio gives one case per row; list it once');
  if (testbed === 'negative_rejection' && (rates.length !== 1 || rates[0] !== 1)) {
    fail(where, 'noiseRates', `negative rejection always uses noise ratio 1 (only distractors), got ${describe(value)}`, 'remove noiseRates, or use testbed noise_robustness for other ratios');
  }
  return rates;
}

function parsePhrases(value: unknown, key: string, fallback: string[], where: Where, hint: string): string[] {
  if (value === undefined) return [...fallback];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === 'string' && p.trim() !== '')) {
    fail(where, key, `expected a phrase or a non-empty list of phrases, got ${describe(value)}`, hint);
  }
  return list as string[];
}

/** `distractors: dataset` (default) or `distractors: { corpus: folder }`, the folder relative to the eval file. */
function parseDistractors(value: unknown, where: Where): DistractorSource {
  if (value === undefined || value === 'dataset') return { kind: 'dataset' };
  const hint = 'write distractors: dataset (other rows\' passages that bear no answer) or distractors: { corpus: <folder of .txt/.md files> }';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'distractors', `unknown value ${describe(value)}`, hint);
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (key !== 'corpus') throw unknownParamError(where.file, 'stress', ['distractors', key], ['corpus'], 'unknown distractor setting', hint);
  }
  if (typeof raw.corpus !== 'string' || raw.corpus.trim() === '') fail(where, 'distractors.corpus', `expected a folder path, got ${describe(raw.corpus)}`, hint);
  return { kind: 'corpus', folder: path.resolve(path.dirname(where.file), raw.corpus) };
}

function parseAnswerBearing(value: unknown, testbed: StressTestbed, where: Where): AnswerBearingMode {
  const mode = parseEnum(value, 'answerBearing', ANSWER_BEARING_MODES, 'match', where, ' (judge: the eval file\'s judge decides, for answers the passages paraphrase)');
  if (mode !== 'judge') return mode;
  // Known only when the eval file is loaded (where.judge); the count pass would otherwise build cases no run can.
  if (where.judge === false) {
    fail(where, 'answerBearing', 'judge needs a judge model, and the eval file sets none', 'add judge: at the top level of the eval file, e.g. judge: openai:gpt-4o-mini, or judge: { provider: openai-compatible, model: <name>, baseUrl: <url> }; or use answerBearing: match');
  }
  if (testbed === 'information_integration') {
    fail(where, 'answerBearing', 'information integration needs each answer part found in a passage of its own, and the judge decides per passage, not per part', 'use answerBearing: match and write answer_parts as the passages word them');
  }
  // The fake answer replaces the reference's words in each answer-bearing passage; a paraphrase has none to replace.
  if (testbed === 'counterfactual_robustness') {
    fail(where, 'answerBearing', 'counterfactual robustness replaces the reference answer word for word in each answer-bearing passage, and a passage only the judge finds paraphrases it', 'use answerBearing: match (a row\'s answer_bearing column still names paraphrasing passages, with counterfactual passages from rag-inspector generate-counterfactual)');
  }
  return mode;
}

function only(testbeds: readonly StressTestbed[], testbed: StressTestbed, raw: Record<string, unknown>, key: string, where: Where): void {
  if (raw[key] !== undefined && !testbeds.includes(testbed)) fail(where, key, `only ${testbeds.join(' and ')} use${testbeds.length === 1 ? 's' : ''} ${key} (testbed is ${testbed})`, `remove ${key}`);
}

export function parseStressParams(raw: unknown, where: Where): StressParams {
  if (raw === undefined || raw === null) fail(where, 'testbed', 'missing', `set params.testbed to one of ${STRESS_TESTBEDS.join(', ')}`);
  if (typeof raw !== 'object' || Array.isArray(raw)) fail(where, '(root)', `expected a mapping, got ${describe(raw)}`, 'e.g. params: { testbed: noise_robustness }');
  const object = raw as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (!KNOWN_KEYS.includes(key)) throw unknownParamError(where.file, 'stress', [key], KNOWN_KEYS, 'unknown parameter', `stress accepts ${KNOWN_KEYS.join(', ')}`);
  }
  const testbed = parseEnum(object.testbed, 'testbed', STRESS_TESTBEDS, undefined, where, '');
  only(['position'], testbed, object, 'k', where);
  only(['noise_robustness'], testbed, object, 'shortRows', where);
  only(['counterfactual_robustness'], testbed, object, 'correctRate', where);
  only(['counterfactual_robustness'], testbed, object, 'withoutDocuments', where);
  only(['counterfactual_robustness'], testbed, object, 'factualError', where);
  const passageNum = parseCount(object.passageNum, 'passageNum', 5, 1, where, 'RGB gives 5 passages per question');
  const params: StressParams = {
    testbed,
    language: parseEnum(object.language, 'language', LANGUAGES, 'en', where, ' (zh removes spaces from responses before matching)'),
    answerBearing: parseAnswerBearing(object.answerBearing, testbed, where),
    distractors: parseDistractors(object.distractors, where),
    noiseRates: parseNoiseRates(object.noiseRates, testbed, where),
    passageNum,
    shortRows: parseEnum(object.shortRows, 'shortRows', SHORT_ROWS, 'keep_ratio', where, ' (fill: RGB\'s rule, more noise when answer-bearing passages run short)'),
    k: parseCount(object.k, 'k', passageNum - 1, 1, where, 'k distractors give k+1 positions, e.g. k: 4'),
    correctRate: object.correctRate === undefined ? 0 : parseRate(object.correctRate, 'correctRate', where),
    refusal: parsePhrases(object.refusal, 'refusal', DEFAULT_REFUSAL, where, 'the phrase your prompt asks the model to say when the documents do not answer, e.g. refusal: "I don\'t know"'),
    factualError: parsePhrases(object.factualError, 'factualError', DEFAULT_FACTUAL_ERROR, where, 'the phrase your prompt asks for when documents contradict the facts, e.g. factualError: "factual errors"'),
    strict: parseBoolean(object.strict, 'strict', false, where),
    judge: parseJudgeParams(object.judge, testbed, { ...where, method: 'stress' }),
    withoutDocuments: parseBoolean(object.withoutDocuments, 'withoutDocuments', false, where),
  };
  if (testbed === 'counterfactual_robustness') {
    const correctNum = Math.ceil(passageNum * params.correctRate);
    for (const rate of params.noiseRates) {
      if (Math.ceil(passageNum * rate) + correctNum > passageNum) fail(where, 'correctRate', `noise ${rate} plus correctRate ${params.correctRate} exceed passageNum ${passageNum}`, 'lower correctRate or the noise ratio');
    }
  }
  return params;
}
