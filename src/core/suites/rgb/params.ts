// RGB suite parameters: their types, defaults per testbed, and validation with messages that name the bad key.
import { choice, decimal, flag, items, list, mapping, paramsReader, readParams, requiredChoice, section, whole } from '../paramSchema.js';
import type { ParamsOf, ParamsReader } from '../paramSchema.js';
import type { Markers } from './match.js';

export const TESTBEDS = ['noise_robustness', 'negative_rejection', 'information_integration', 'counterfactual_robustness'] as const;
export type Testbed = (typeof TESTBEDS)[number];

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The paper's ratios (Tables 1, 3, 5, 7). */
export const DEFAULT_NOISE_RATES: Readonly<Record<Testbed, readonly number[]>> = {
  noise_robustness: [0, 0.2, 0.4, 0.6, 0.8],
  negative_rejection: [1],
  information_integration: [0, 0.2, 0.4],
  counterfactual_robustness: [0],
};

/** Which judge passes run when the eval file configures a judge model; each on by default where its testbed reads it. */
export const judgePasses = section({
  rejection: flag({ description: 'Rej*: the judge decides whether a negative-rejection answer refuses (reference reject_evalue.py). On by default for negative_rejection.' }),
  factualError: flag({ description: 'ED* / CR*: the judge decides whether a counterfactual answer points out the factual error (reference fact_evalue.py). On by default for counterfactual_robustness.' }),
  failureLabels: flag({ default: false, description: 'The paper\'s error taxonomy as a label on each wrong answer (one judge call per failure).' }),
}, { description: 'Which judge passes run when the eval file sets judge:.', example: 'judge: { failureLabels: true }', problem: 'unknown judge pass' });

const shape = {
  testbed: requiredChoice(TESTBEDS, { description: 'Which of RGB\'s four abilities the suite tests.', noun: 'testbed', missing: `set it to one of ${TESTBEDS.join(', ')}` }),
  language: choice(LANGUAGES, { default: 'en', description: 'zh removes spaces from responses before matching and selects the zh prompt, as the reference does for Chinese files.', hint: 'zh removes spaces from responses before matching, as the reference does for Chinese files' }),
  noiseRates: list(items.decimal({ min: 0, max: 1 }, 'ratios are shares of passageNum, e.g. 0.4'), {
    description: 'Shares of passageNum that are noise, one case per row and ratio. The paper\'s by default: [0, 0.2, 0.4, 0.6, 0.8] for noise robustness, [1] for negative rejection, [0, 0.2, 0.4] for information integration, [0] for counterfactual robustness.',
    example: 'e.g. noiseRates: [0, 0.2, 0.4]',
    distinct: 'each ratio gives one case per row; list it once',
  }),
  passageNum: whole({ min: 1, default: 5, hint: 'the paper gives 5 passages per question', description: 'Passages shown per question.' }),
  correctRate: decimal({ min: 0, max: 1, default: 0, hint: 'ratios are shares of passageNum, e.g. 0.4', description: 'Counterfactual robustness only: share of true passages mixed in with the counterfactual ones.' }),
  strict: flag({ default: false, description: 'false: the reference\'s scoring, flaws included; true: case-insensitive markers, Rej counting only rejections, and a Rej* or ED* judge answer that matches neither verdict a judge error.' }),
  judge: judgePasses,
  withoutDocuments: flag({ default: false, description: 'Counterfactual robustness only: also ask each question with no documents (the paper\'s Acc column).' }),
};

/** RGB's params as the eval file writes them (the editor's schema and the validator both come from it). */
export const rgbParamsSchema = mapping(shape, { example: 'params: { testbed: noise_robustness }', hint: `RGB accepts ${Object.keys(shape).join(', ')}` });

/** Which judge passes run (each on where its testbed reads it, unless the eval file says). */
export type RgbJudgeParams = Required<ParamsOf<typeof judgePasses>>;

export type RgbParams = Omit<ParamsOf<typeof rgbParamsSchema>, 'noiseRates' | 'judge' | 'testbed' | 'language'> & {
  testbed: Testbed;
  language: Language;
  noiseRates: number[];
  judge: RgbJudgeParams;
  /**
   * Not an eval-file key of rgb: the reference's markers apply there. The stress method scores through this same
   * code with the user's own refusal phrase, so it sets them here.
   */
  markers?: Markers;
};

/** The judge passes with their defaults for `testbed`. */
export function judgeDefaults(judge: ParamsOf<typeof judgePasses>, testbed: string): RgbJudgeParams {
  return {
    rejection: judge.rejection ?? testbed === 'negative_rejection',
    factualError: judge.factualError ?? testbed === 'counterfactual_robustness',
    failureLabels: judge.failureLabels,
  };
}

/** Negative rejection shows only noise: ratio 1 and nothing else. */
export function checkNegativeRejection(rates: readonly number[], reader: ParamsReader, noise: string): void {
  if (rates.length !== 1 || rates[0] !== 1) {
    reader.fail('noiseRates', `negative rejection always uses noise ratio 1 (only ${noise}), got ${JSON.stringify(rates)}`, 'remove noiseRates, or use testbed noise_robustness for other ratios');
  }
}

/**
 * The reference computes `passage_num - neg_num - correct_num` positives; a negative count makes Python's
 * random.sample raise. Catch it here, once, instead of on every row.
 */
export function checkCounterfactualBudget(params: { passageNum: number; correctRate: number; noiseRates: readonly number[] }, reader: ParamsReader): void {
  const correctNum = Math.ceil(params.passageNum * params.correctRate);
  for (const rate of params.noiseRates) {
    const negNum = Math.ceil(params.passageNum * rate);
    if (negNum + correctNum > params.passageNum) {
      reader.fail('correctRate', `noise ${rate} (${negNum} passages) plus correctRate ${params.correctRate} (${correctNum}) exceed passageNum ${params.passageNum}`, 'lower correctRate or the noise ratio');
    }
  }
}

export function parseRgbParams(raw: unknown, where: { file: string }): RgbParams {
  const read = readParams(rgbParamsSchema, raw, where.file, 'rgb');
  const reader = paramsReader(where.file, 'rgb');
  const { testbed } = read;
  const counterfactualOnly = (key: string, set: boolean, why: string) => {
    if (set && testbed !== 'counterfactual_robustness') reader.fail(key, `only counterfactual_robustness ${why} (testbed is ${testbed})`, `remove ${key}`);
  };
  counterfactualOnly('withoutDocuments', read.withoutDocuments, 'reports accuracy without documents');
  const noiseRates = read.noiseRates ?? [...DEFAULT_NOISE_RATES[testbed]];
  if (testbed === 'negative_rejection') checkNegativeRejection(noiseRates, reader, 'noise documents');
  counterfactualOnly('correctRate', read.correctRate !== 0, 'mixes in correct passages');
  const params: RgbParams = { ...read, noiseRates, judge: judgeDefaults(read.judge, testbed) };
  if (testbed === 'counterfactual_robustness') checkCounterfactualBudget(params, reader);
  return params;
}
