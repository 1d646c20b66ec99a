// Stress parameters: which testbed is built from the user's rows, its ratios or positions, where distractors come
// from, and the user's own refusal phrase. Every key is checked, with a message naming it.
import * as path from 'node:path';
import type { ParamsWhere } from '../contract.js';
import { asList, choice, decimal, either, flag, items, list, mapping, paramsReader, phrases, readParams, required, requiredChoice, whole } from '../paramSchema.js';
import type { ParamsOf, ParamsReader } from '../paramSchema.js';
import { LANGUAGES, checkCounterfactualBudget, checkNegativeRejection, judgeDefaults, judgePasses } from '../rgb/params.js';
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

type Where = ParamsWhere;


const refusalHint = 'the phrase your prompt asks the model to say when the documents do not answer, e.g. refusal: "I don\'t know"';
const factualErrorHint = 'the phrase your prompt asks for when documents contradict the facts, e.g. factualError: "factual errors"';
const distractorsHint = 'write distractors: dataset (other rows\' passages that bear no answer) or distractors: { corpus: <folder of .txt/.md files> }';

const shape = {
  testbed: requiredChoice(STRESS_TESTBEDS, { description: 'Which testbed is built from your rows: RGB\'s four, or position (the answer-bearing passage moved through k+1 positions).', noun: 'value', missing: `set params.testbed to one of ${STRESS_TESTBEDS.join(', ')}` }),
  language: choice(LANGUAGES, { default: 'en', description: 'zh removes spaces from responses before matching.', hint: `use one of ${LANGUAGES.join(', ')} (zh removes spaces from responses before matching)` }),
  answerBearing: choice(ANSWER_BEARING_MODES, {
    default: 'match',
    description: 'Which retrieved passages bear the answer. match (default): RGB\'s rule, the reference (or any alternative of each part) as a lowercase substring. judge: before a row\'s cases are built, the eval file\'s judge is asked once per passage whether it states the reference answer, paraphrased or not (prompts/stress/judge-answer-bearing.prompt); needs judge:, verdicts are cached and recorded on each case, a row whose verdict cannot be read is reported at its line; not for information_integration or counterfactual_robustness. A row\'s answer_bearing column wins over both.',
    hint: `use one of ${ANSWER_BEARING_MODES.join(', ')} (judge: the eval file's judge decides, for answers the passages paraphrase)`,
  }),
  distractors: either([items.choice(['dataset']), mapping({ corpus: required(items.text(distractorsHint), 'A folder of .txt/.md files, relative to the eval file, whose paragraphs are the distractors.') }, { example: 'distractors: { corpus: corpus }', problem: 'unknown distractor setting', hint: distractorsHint })], {
    description: 'Where distractors come from: dataset (default: other rows\' passages that bear no answer) or { corpus: <folder> }.',
    expected: 'dataset or { corpus: <folder> }',
    hint: distractorsHint,
  }),
  noiseRates: list(items.decimal({ min: 0, max: 1 }, 'ratios are shares of passageNum, e.g. 0.4'), {
    description: 'Shares of passageNum that are distractors, one case per row and ratio; RGB\'s by default ([0, 0.2, 0.4, 0.6, 0.8] for noise robustness, [1] for negative rejection, [0, 0.2, 0.4] for information integration, [0] for counterfactual robustness). Not for position.',
    example: 'e.g. noiseRates: [0, 0.2, 0.4]',
    distinct: 'each ratio gives one case per row; list it once',
  }),
  passageNum: whole({ min: 1, default: 5, hint: 'RGB gives 5 passages per question', description: 'Passages shown per question.' }),
  shortRows: choice(SHORT_ROWS, { default: 'keep_ratio', description: 'Noise robustness on a row with fewer answer-bearing passages than a case wants: keep_ratio (default) shows fewer passages so the ratio holds; fill is RGB\'s rule (more distractors, a higher effective ratio).', hint: `use one of ${SHORT_ROWS.join(', ')} (fill: RGB's rule, more noise when answer-bearing passages run short)` }),
  k: whole({ min: 1, hint: 'k distractors give k+1 positions, e.g. k: 4', description: 'Position testbed: distractors around the answer-bearing passage (positions 1…k+1); passageNum − 1 by default.' }),
  correctRate: decimal({ min: 0, max: 1, default: 0, hint: 'ratios are shares of passageNum, e.g. 0.4', description: 'Counterfactual robustness only: share of true passages mixed in with the counterfactual ones.' }),
  refusal: phrases({ default: DEFAULT_REFUSAL, noun: 'phrase', hint: refusalHint, description: 'The phrase (or phrases) your prompt asks the model to say when the documents do not answer; matched as RGB matches its marker.' }),
  factualError: phrases({ default: DEFAULT_FACTUAL_ERROR, noun: 'phrase', hint: factualErrorHint, description: 'Counterfactual robustness only: the phrase (or phrases) that mark a detected factual error.' }),
  strict: flag({ default: false, description: 'false: RGB\'s scoring, flaws included; true: case-insensitive markers and Rej counting only rejections.' }),
  judge: judgePasses,
  withoutDocuments: flag({ default: false, description: 'Counterfactual robustness only: also ask each question with no documents.' }),
};

/** The stress params as the eval file writes them. */
export const stressParamsSchema = mapping(shape, { example: 'params: { testbed: noise_robustness }', hint: `stress accepts ${Object.keys(shape).join(', ')}` });

export type StressParams = Omit<ParamsOf<typeof stressParamsSchema>, 'testbed' | 'language' | 'answerBearing' | 'shortRows' | 'distractors' | 'noiseRates' | 'k' | 'refusal' | 'factualError' | 'judge'> & {
  testbed: StressTestbed;
  language: Language;
  answerBearing: AnswerBearingMode;
  distractors: DistractorSource;
  noiseRates: number[];
  shortRows: ShortRows;
  k: number;
  refusal: string[];
  factualError: string[];
  judge: StressJudgeParams;
};

function checkAnswerBearing(mode: AnswerBearingMode, testbed: StressTestbed, where: Where, reader: ParamsReader): void {
  if (mode !== 'judge') return;
  // Known only when the eval file is loaded (where.judge); the count pass would otherwise build cases no run can.
  if (where.judge === false) {
    reader.fail('answerBearing', 'judge needs a judge model, and the eval file sets none', 'add judge: at the top level of the eval file, e.g. judge: openai:gpt-4o-mini, or judge: { provider: openai-compatible, model: <name>, baseUrl: <url> }; or use answerBearing: match');
  }
  if (testbed === 'information_integration') {
    reader.fail('answerBearing', 'information integration needs each answer part found in a passage of its own, and the judge decides per passage, not per part', 'use answerBearing: match and write answer_parts as the passages word them');
  }
  // The fake answer replaces the reference's words in each answer-bearing passage; a paraphrase has none to replace.
  if (testbed === 'counterfactual_robustness') {
    reader.fail('answerBearing', 'counterfactual robustness replaces the reference answer word for word in each answer-bearing passage, and a passage only the judge finds paraphrases it', 'use answerBearing: match (a row\'s answer_bearing column still names paraphrasing passages, with counterfactual passages from rag-inspector generate-counterfactual)');
  }
}

export function parseStressParams(raw: unknown, where: Where): StressParams {
  const read = readParams(stressParamsSchema, raw, where.file, 'stress');
  const reader = paramsReader(where.file, 'stress');
  const { testbed, passageNum } = read;
  const given = (raw ?? {}) as Record<string, unknown>;
  const only = (testbeds: readonly StressTestbed[], key: string) => {
    if (given[key] !== undefined && !testbeds.includes(testbed)) reader.fail(key, `only ${testbeds.join(' and ')} use${testbeds.length === 1 ? 's' : ''} ${key} (testbed is ${testbed})`, `remove ${key}`);
  };
  only(['position'], 'k');
  only(['noise_robustness'], 'shortRows');
  only(['counterfactual_robustness'], 'correctRate');
  only(['counterfactual_robustness'], 'withoutDocuments');
  only(['counterfactual_robustness'], 'factualError');
  checkAnswerBearing(read.answerBearing, testbed, where, reader);
  if (read.noiseRates && testbed === 'position') reader.fail('noiseRates', 'the position testbed has no noise ratios', 'remove noiseRates; set k, the number of distractors around the answer-bearing passage');
  const noiseRates = read.noiseRates ?? [...DEFAULT_NOISE_RATES[testbed]];
  if (testbed === 'negative_rejection') checkNegativeRejection(noiseRates, reader, 'distractors');
  const distractors: DistractorSource = read.distractors === undefined || read.distractors === 'dataset'
    ? { kind: 'dataset' }
    : { kind: 'corpus', folder: path.resolve(path.dirname(where.file), read.distractors.corpus) };
  const params: StressParams = {
    ...read,
    distractors,
    noiseRates,
    k: read.k ?? passageNum - 1,
    refusal: asList(read.refusal),
    factualError: asList(read.factualError),
    judge: judgeDefaults(read.judge, testbed),
  };
  if (testbed === 'counterfactual_robustness') checkCounterfactualBudget(params, reader);
  return params;
}
