// Scores one RGB response: the reference's exact-match verdicts per testbed, then the configured judge passes.
import type { EvalCase, Score } from '../../model.js';
import type { ScoreContext } from '../contract.js';
import { rgbCaseParams, rgbExpected } from './cases.js';
import type { Judge } from '../judging.js';
import { judgeFactualError, judgeFailureLabel, judgeRejection } from './judge.js';
import { REFERENCE_MARKERS, judgeResponse } from './match.js';
import type { PartCheck, RgbJudgement } from './match.js';
import type { RgbParams } from './params.js';
import { responseSpans } from './spans.js';

const quote = (text: string) => `'${text}'`;

/** RGB's own markers unless the params carry a user's phrases (the stress method passes its refusal phrase). */
const markersOf = (params: RgbParams) => params.markers ?? REFERENCE_MARKERS;

function describePart(part: PartCheck, index: number, total: number): string {
  const which = `answer part ${index + 1} of ${total}`;
  if (part.alternatives.length === 1) return `${which} (${quote(part.alternatives[0] as string)}) ${part.label ? 'found' : 'not found'}`;
  return part.matched !== undefined
    ? `${which}: alternative ${quote(part.matched)} found`
    : `${which}: none of the alternatives (${part.alternatives.map(quote).join(', ')}) found`;
}

function spaceNote(params: RgbParams): string {
  return params.language === 'zh' ? ' (spaces removed from the response first, as the reference does for Chinese)' : '';
}

/** "…; rejection marker 'insufficient information' found" — what matched, in plain words. */
function explainCorrect(judgement: RgbJudgement, params: RgbParams): string {
  if (judgement.rejection.hit !== undefined) {
    return `Rejection marker ${quote(judgement.rejection.hit)} found, so the answer was not checked: labels [-1], not correct.`;
  }
  const parts = judgement.parts.map((part, i, all) => describePart(part, i, all.length)).join('; ');
  const caseNote = judgement.rejection.caseOnly !== undefined
    ? ` The text has ${quote(judgement.rejection.caseOnly)} in another case: the reference matches case-sensitively, so it is no rejection (strict mode would count it).`
    : '';
  return `${judgement.correct ? 'Correct' : 'Wrong'}: ${parts}${spaceNote(params)}.${caseNote}`;
}

function correctLabel(judgement: RgbJudgement): string {
  if (judgement.labels[0] === -1) return 'rejected';
  return judgement.correct ? 'correct' : 'incorrect';
}

/** The `correct` score every case has; its pass counts except on negative rejection, where rejecting is the goal. */
function correctScore(evalCase: EvalCase, response: string, judgement: RgbJudgement, params: RgbParams): Score {
  const expected = rgbExpected(evalCase);
  const score: Score = {
    metric: 'correct',
    value: judgement.correct ? 1 : 0,
    label: correctLabel(judgement),
    explanation: explainCorrect(judgement, params),
    details: {
      labels: judgement.labels,
      factlabel: judgement.factlabel,
      responseSpans: responseSpans(response, expected.answer, params.language, expected.fakeanswer),
    },
  };
  if (params.testbed !== 'negative_rejection') score.pass = judgement.correct;
  return score;
}

/** Rej: a rejection marker, or (reference, RGB issue #9) a correct answer; strict counts rejections only. */
function rejectedScore(judgement: RgbJudgement, params: RgbParams): Score {
  const byMarker = judgement.labels[0] === -1;
  const byCorrect = !params.strict && judgement.correct;
  const rejected = byMarker || byCorrect;
  let explanation: string;
  if (byMarker) explanation = `Rejection marker ${quote(judgement.rejection.hit as string)} found.`;
  else if (byCorrect) explanation = 'No rejection marker, but the answer is correct, and the reference counts correct answers as rejections at noise 1 (RGB issue #9; strict mode does not).';
  else {
    const caseNote = judgement.rejection.caseOnly !== undefined
      ? ` ${quote(judgement.rejection.caseOnly)} appears in another case: not a rejection in reference mode (strict mode counts it).`
      : '';
    const mode = params.strict ? 'any case' : 'case-sensitive';
    explanation = `No rejection marker found (${markersOf(params).rejection.map(quote).join(', ')}; ${mode}).${caseNote}`;
  }
  return { metric: 'rejected', value: rejected ? 1 : 0, pass: rejected, label: rejected ? 'rejected' : 'not-rejected', explanation, details: { labels: judgement.labels, byMarker, byCorrect } };
}

/** ED: the factual-error marker, case-sensitive in the reference. */
function factualErrorScore(judgement: RgbJudgement, params: RgbParams): Score {
  const detected = judgement.factlabel === 1;
  let explanation: string;
  if (detected) explanation = `Factual-error marker ${quote(judgement.factualError.hit as string)} found.`;
  else {
    const caseNote = judgement.factualError.caseOnly !== undefined
      ? ` ${quote(judgement.factualError.caseOnly)} appears in another case: not counted in reference mode (strict mode counts it).`
      : '';
    explanation = `No factual-error marker found (${markersOf(params).factualError.map(quote).join(', ')}; ${params.strict ? 'any case' : 'case-sensitive'}).${caseNote}`;
  }
  return { metric: 'factual_error_detected', value: detected ? 1 : 0, pass: detected, label: detected ? 'factual-error-detected' : 'not-detected', explanation, details: { factlabel: judgement.factlabel } };
}

/** Rule-based scores for the case's testbed. The no-document case of counterfactual robustness only checks the answer. */
export function ruleScores(evalCase: EvalCase, response: string, params: RgbParams): { scores: Score[]; judgement: RgbJudgement } {
  const judgement = judgeResponse(response, rgbExpected(evalCase).answer, params.language, params.strict, markersOf(params));
  const scores = [correctScore(evalCase, response, judgement, params)];
  const noDocuments = rgbCaseParams(evalCase).noDocuments;
  if (params.testbed === 'negative_rejection') scores.push(rejectedScore(judgement, params));
  if (params.testbed === 'counterfactual_robustness' && !noDocuments) scores.push(factualErrorScore(judgement, params));
  return { scores, judgement };
}

/** Was this case a failure the taxonomy can label? (Wrong answer; on negative rejection: no rejection.) */
function failedForLabelling(scores: readonly Score[], params: RgbParams): boolean {
  if (params.testbed === 'counterfactual_robustness') return false;
  const metric = params.testbed === 'negative_rejection' ? 'rejected' : 'correct';
  return scores.find((s) => s.metric === metric)?.value === 0;
}

/** Judge passes the params ask for; none without a judge model (the report says they need one). */
export async function judgeScores(evalCase: EvalCase, response: string, params: RgbParams, ruled: { scores: Score[]; judgement: RgbJudgement }, judge: Judge): Promise<Score[]> {
  const scores: Score[] = [];
  const noDocuments = rgbCaseParams(evalCase).noDocuments;
  if (params.testbed === 'negative_rejection' && params.judge.rejection) {
    scores.push(await judgeRejection(judge, evalCase.question, ruled.judgement.text, params.strict));
  }
  if (params.testbed === 'counterfactual_robustness' && params.judge.factualError && !noDocuments) {
    scores.push(await judgeFactualError(judge, evalCase.question, ruled.judgement.text, params.strict));
  }
  if (params.judge.failureLabels && failedForLabelling(ruled.scores, params)) {
    scores.push(await judgeFailureLabel(judge, evalCase, response, rgbExpected(evalCase).answer));
  }
  return scores;
}

/** Suite.score for RGB. */
export async function scoreRgbCase(evalCase: EvalCase, response: string, params: RgbParams, context: ScoreContext): Promise<Score[]> {
  const ruled = ruleScores(evalCase, response, params);
  if (!context.judge) return ruled.scores;
  const judged = await judgeScores(evalCase, response, params, ruled, context.judge);
  return [...ruled.scores, ...judged];
}
