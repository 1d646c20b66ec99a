// Scores a stress case with RGB's scorer, one code path: the case carries RGB's expected answer and parameters, and
// the stress params become RGB params whose markers are the user's own refusal and factual-error phrases.
import type { EvalCase, Score } from '../../model.js';
import type { ScoreContext } from '../contract.js';
import type { RgbParams, Testbed } from '../rgb/params.js';
import { scoreRgbCase } from '../rgb/score.js';
import type { StressParams, StressTestbed } from './params.js';

/** Position cases are scored as noise robustness is: answer correct or not (the table groups them by position). */
const RGB_TESTBED: Readonly<Record<StressTestbed, Testbed>> = {
  noise_robustness: 'noise_robustness',
  negative_rejection: 'negative_rejection',
  counterfactual_robustness: 'counterfactual_robustness',
  information_integration: 'information_integration',
  position: 'noise_robustness',
};

export function rgbParamsFor(params: StressParams): RgbParams {
  return {
    testbed: RGB_TESTBED[params.testbed],
    language: params.language,
    noiseRates: params.noiseRates,
    passageNum: params.passageNum,
    correctRate: params.correctRate,
    strict: params.strict,
    judge: params.judge,
    withoutDocuments: params.withoutDocuments,
    markers: { rejection: params.refusal, factualError: params.factualError },
  };
}

export function scoreStressCase(evalCase: EvalCase, response: string, params: StressParams, context: ScoreContext): Promise<Score[]> {
  return scoreRgbCase(evalCase, response, rgbParamsFor(params), context);
}
