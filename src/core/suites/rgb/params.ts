// RGB suite parameters: their types, defaults per testbed, and validation with messages that name the bad key.
import { paramValueError, unknownParamError } from '../paramError.js';
import type { Markers } from './match.js';

export const TESTBEDS = ['noise_robustness', 'negative_rejection', 'information_integration', 'counterfactual_robustness'] as const;
export type Testbed = (typeof TESTBEDS)[number];

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Which judge passes run when the eval file configures a judge model. */
export interface RgbJudgeParams {
  /** Rej* on negative rejection (reference `reject_evalue.py`). */
  rejection: boolean;
  /** ED* / CR* on counterfactual robustness (reference `fact_evalue.py`). */
  factualError: boolean;
  /** The paper's error taxonomy as a label on wrong answers (off by default: one judge call per failure). */
  failureLabels: boolean;
}

export interface RgbParams {
  testbed: Testbed;
  /** zh removes spaces from responses before matching and selects the zh prompt, as the reference does for zh files. */
  language: Language;
  noiseRates: number[];
  passageNum: number;
  /** Counterfactual only: share of true positives mixed in with the counterfactual passages. */
  correctRate: number;
  /** false = the reference's scoring, flaws included; true = case-insensitive markers, Rej counting only rejections, and a Rej* or ED* judge answer that matches neither verdict a judge error. */
  strict: boolean;
  judge: RgbJudgeParams;
  /** Counterfactual only: also ask each question with no documents (the paper's Acc column). */
  withoutDocuments: boolean;
  /**
   * Not an eval-file key of rgb: the reference's markers apply there. The stress method scores through this same
   * code with the user's own refusal phrase, so it sets them here.
   */
  markers?: Markers;
}

/** The paper's ratios (Tables 1, 3, 5, 7). */
export const DEFAULT_NOISE_RATES: Readonly<Record<Testbed, readonly number[]>> = {
  noise_robustness: [0, 0.2, 0.4, 0.6, 0.8],
  negative_rejection: [1],
  information_integration: [0, 0.2, 0.4],
  counterfactual_robustness: [0],
};

const KNOWN_KEYS = ['testbed', 'language', 'noiseRates', 'passageNum', 'correctRate', 'strict', 'judge', 'withoutDocuments'];
const JUDGE_KEYS = ['rejection', 'factualError', 'failureLabels'];

/** Where a parameter sits, for its error: the eval file, and the method it belongs to (stress reuses RGB's judge passes). */
type Where = { file: string; method?: string };

function fail(where: Where, key: string, message: string, hint: string): never {
  throw paramValueError(where.file, where.method ?? 'rgb', key, message, hint);
}

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function asObject(raw: unknown, where: Where): Record<string, unknown> {
  if (raw === undefined || raw === null) {
    fail(where, 'testbed', 'missing', `set params.testbed to one of ${TESTBEDS.join(', ')}`);
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    fail(where, '(root)', `expected a mapping, got ${describe(raw)}`, 'e.g. params: { testbed: noise_robustness }');
  }
  return raw as Record<string, unknown>;
}

function rejectUnknownKeys(raw: Record<string, unknown>, where: Where): void {
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.includes(key)) throw unknownParamError(where.file, 'rgb', [key], KNOWN_KEYS, 'unknown parameter', `RGB accepts ${KNOWN_KEYS.join(', ')}`);
  }
}

function parseTestbed(value: unknown, where: Where): Testbed {
  if (value === undefined) fail(where, 'testbed', 'missing', `set it to one of ${TESTBEDS.join(', ')}`);
  if (!TESTBEDS.includes(value as Testbed)) fail(where, 'testbed', `unknown testbed ${describe(value)}`, `use one of ${TESTBEDS.join(', ')}`);
  return value as Testbed;
}

function parseLanguage(value: unknown, where: Where): Language {
  if (value === undefined) return 'en';
  if (!LANGUAGES.includes(value as Language)) fail(where, 'language', `expected "en" or "zh", got ${describe(value)}`, 'zh removes spaces from responses before matching, as the reference does for Chinese files');
  return value as Language;
}

function parseBoolean(value: unknown, key: string, fallback: boolean, where: Where): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(where, key, `expected true or false, got ${describe(value)}`, `write ${key}: true or ${key}: false`);
  return value;
}

function parsePassageNum(value: unknown, where: Where): number {
  if (value === undefined) return 5;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    fail(where, 'passageNum', `expected a whole number of at least 1, got ${describe(value)}`, 'the paper gives 5 passages per question');
  }
  return value;
}

function parseRate(value: unknown, key: string, where: Where): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    fail(where, key, `expected a number between 0 and 1, got ${describe(value)}`, 'ratios are shares of passageNum, e.g. 0.4');
  }
  return value;
}

function parseNoiseRates(value: unknown, testbed: Testbed, where: Where): number[] {
  const defaults = [...DEFAULT_NOISE_RATES[testbed]];
  if (value === undefined) return defaults;
  if (!Array.isArray(value) || value.length === 0) {
    fail(where, 'noiseRates', `expected a non-empty list of numbers, got ${describe(value)}`, `e.g. noiseRates: [${defaults.join(', ')}]`);
  }
  const rates = value.map((rate, i) => parseRate(rate, `noiseRates[${i}]`, where));
  const seen = new Set<number>();
  for (const rate of rates) {
    if (seen.has(rate)) fail(where, 'noiseRates', `${rate} is listed twice`, 'each ratio gives one case per row; list it once');
    seen.add(rate);
  }
  if (testbed === 'negative_rejection' && (rates.length !== 1 || rates[0] !== 1)) {
    fail(where, 'noiseRates', `negative rejection always uses noise ratio 1 (only noise documents), got ${describe(value)}`, 'remove noiseRates, or use testbed noise_robustness for other ratios');
  }
  return rates;
}

function parseCorrectRate(value: unknown, testbed: Testbed, where: Where): number {
  if (value === undefined) return 0;
  const rate = parseRate(value, 'correctRate', where);
  if (rate !== 0 && testbed !== 'counterfactual_robustness') {
    fail(where, 'correctRate', `only counterfactual_robustness mixes in correct passages (testbed is ${testbed})`, 'remove correctRate');
  }
  return rate;
}

/** RGB's judge passes (Rej*, ED*, failure labels); each on by default where its testbed reads it. */
export function parseJudgeParams(value: unknown, testbed: string, where: Where): RgbJudgeParams {
  const defaults: RgbJudgeParams = {
    rejection: testbed === 'negative_rejection',
    factualError: testbed === 'counterfactual_robustness',
    failureLabels: false,
  };
  if (value === undefined) return defaults;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(where, 'judge', `expected a mapping, got ${describe(value)}`, 'e.g. judge: { failureLabels: true }');
  }
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!JUDGE_KEYS.includes(key)) throw unknownParamError(where.file, where.method ?? 'rgb', ['judge', key], JUDGE_KEYS, 'unknown judge pass', `use ${JUDGE_KEYS.join(', ')}`);
  }
  return {
    rejection: parseBoolean(raw.rejection, 'judge.rejection', defaults.rejection, where),
    factualError: parseBoolean(raw.factualError, 'judge.factualError', defaults.factualError, where),
    failureLabels: parseBoolean(raw.failureLabels, 'judge.failureLabels', defaults.failureLabels, where),
  };
}

/**
 * The reference computes `passage_num - neg_num - correct_num` positives; a negative count makes Python's
 * random.sample raise. Catch it here, once, instead of on every row.
 */
function checkCounterfactualBudget(params: RgbParams, where: Where): void {
  if (params.testbed !== 'counterfactual_robustness') return;
  const correctNum = Math.ceil(params.passageNum * params.correctRate);
  for (const rate of params.noiseRates) {
    const negNum = Math.ceil(params.passageNum * rate);
    if (negNum + correctNum > params.passageNum) {
      fail(where, 'correctRate', `noise ${rate} (${negNum} passages) plus correctRate ${params.correctRate} (${correctNum}) exceed passageNum ${params.passageNum}`, 'lower correctRate or the noise ratio');
    }
  }
}

export function parseRgbParams(raw: unknown, where: Where): RgbParams {
  const object = asObject(raw, where);
  rejectUnknownKeys(object, where);
  const testbed = parseTestbed(object.testbed, where);
  const withoutDocuments = parseBoolean(object.withoutDocuments, 'withoutDocuments', false, where);
  if (withoutDocuments && testbed !== 'counterfactual_robustness') {
    fail(where, 'withoutDocuments', `only counterfactual_robustness reports accuracy without documents (testbed is ${testbed})`, 'remove withoutDocuments');
  }
  const params: RgbParams = {
    testbed,
    language: parseLanguage(object.language, where),
    noiseRates: parseNoiseRates(object.noiseRates, testbed, where),
    passageNum: parsePassageNum(object.passageNum, where),
    correctRate: parseCorrectRate(object.correctRate, testbed, where),
    strict: parseBoolean(object.strict, 'strict', false, where),
    judge: parseJudgeParams(object.judge, testbed, where),
    withoutDocuments,
  };
  checkCounterfactualBudget(params, where);
  return params;
}
