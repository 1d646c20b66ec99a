// Scoring modes: the reference judge (and its errors), substring without a judge, Arize rails, needles retrieved of k.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EvalCase, ModelClient, Score } from '../../../src/core/model.js';
import { needleCaseParams } from '../../../src/core/suites/needle/cases.js';
import type { NeedleParams } from '../../../src/core/suites/needle/params.js';
import { needleSuite } from '../../../src/core/suites/needle/suite.js';
import { SPEC_FILE, params, scoreContext, scriptedJudge } from './builders.js';

async function cases(p: NeedleParams): Promise<EvalCase[]> {
  return needleSuite.generateCases!(p, { suiteId: 't', seed: 7, models: [], specFile: SPEC_FILE });
}

async function scoreOne(evalCase: EvalCase, response: string, p: NeedleParams, judge?: ModelClient): Promise<Score> {
  const scores = await needleSuite.score(evalCase, response, p, scoreContext(judge));
  assert.equal(scores.length, 1);
  return scores[0]!;
}

describe('classic', () => {
  const p = params({ contextLengths: [1000], depths: [50] });
  let evalCase: EvalCase;
  before(async () => {
    evalCase = (await cases(p))[0]!;
  });

  it('with a judge: the reference prompt, temperature 0, the needle as ground truth, and the rating kept with its reason', async () => {
    const judge = scriptedJudge(() => 'The response gives the activity from the needle. Rating: [[8]]');
    const score = await scoreOne(evalCase, 'Eat a sandwich in Dolores Park.', p, judge);
    assert.equal(score.metric, 'judge_score');
    assert.equal(score.value, 8);
    assert.equal(score.pass, true);
    assert.equal(score.explanation, 'The response gives the activity from the needle. Rating: [[8]]');
    assert.deepEqual(judge.temperatures, [0]);
    const prompt = judge.prompts[0]!;
    assert.ok(prompt.startsWith('system: You are a helpful assistant.\nuser: [Instruction]\nPlease act as an impartial judge'));
    assert.ok(prompt.includes('[Ground truth]\n\nThe best thing to do in San Francisco is eat a sandwich and sit in Dolores Park on a sunny day.\n\nBegin your evaluation'));
    assert.ok(prompt.endsWith("[Question]\nWhat is the best thing to do in San Francisco?\n\n[The Start of Assistant's Answer]\nEat a sandwich in Dolores Park.\n[The End of Assistant's Answer]"));
  });

  it('each score says which scoring applied and why: judge: in the eval file picks the judge by default, params.scoring overrides', async () => {
    const judged = await scoreOne(evalCase, 'Eat a sandwich.', p, scriptedJudge(() => 'Rating: [[8]]'));
    assert.deepEqual([judged.metric, (judged.details as { scoring: string }).scoring], ['judge_score', 'default: the eval file sets judge:']);
    const plain = await scoreOne(evalCase, 'Eat a sandwich.', p);
    assert.deepEqual([plain.metric, (plain.details as { scoring: string }).scoring], ['found', 'default: no judge: in the eval file']);
    const forced = await scoreOne(evalCase, 'Eat a sandwich.', params({ contextLengths: [1000], depths: [50], scoring: 'substring' }), scriptedJudge(() => 'Rating: [[8]]'));
    assert.deepEqual([forced.metric, (forced.details as { scoring: string }).scoring], ['found', 'params.scoring: substring']);
  });

  it('a judge rating below 7 is a miss; a bare "10" or a failing call is a judge error with no value', async () => {
    const low = await scoreOne(evalCase, 'Visit a museum.', p, scriptedJudge(() => 'Unrelated. Rating: [[3]]'));
    assert.deepEqual([low.value, low.pass], [3, false]);
    const bare = await scoreOne(evalCase, 'Eat a sandwich.', p, scriptedJudge(() => '10'));
    assert.equal(bare.value, null);
    assert.equal(bare.pass, undefined);
    assert.match(bare.judgeError ?? '', /no \[\[rating\]\]/);
    assert.equal(bare.explanation, '10', 'what the judge said stays visible');
    const broken = await scoreOne(evalCase, 'Eat a sandwich.', p, scriptedJudge(() => {
      throw new Error('503 overloaded');
    }));
    assert.equal(broken.value, null);
    assert.match(broken.judgeError ?? '', /judge call failed: 503 overloaded/);
  });

  it('without a judge: the answer phrase, case-insensitive, with the match highlighted', async () => {
    const hit = await scoreOne(evalCase, 'You should EAT A SANDWICH AND SIT IN DOLORES PARK.', p);
    assert.deepEqual([hit.metric, hit.value, hit.pass, hit.label], ['found', 1, true, 'found']);
    assert.deepEqual((hit.details as { responseSpans: { start: number; end: number }[] }).responseSpans.map((s) => [s.start, s.end]), [[11, 49]]);
    const miss = await scoreOne(evalCase, 'Dolores Park is nice.', p);
    assert.deepEqual([miss.value, miss.pass, miss.label], [0, false, 'missed']);
    assert.match(miss.explanation ?? '', /no judge model/);
  });

  it('scoring: judge without a judge model is a judge error, never a silent substring score', async () => {
    const forced = params({ contextLengths: [1000], depths: [50], scoring: 'judge' });
    const score = await scoreOne(evalCase, 'Eat a sandwich and sit in Dolores Park.', forced);
    assert.equal(score.value, null);
    assert.match(score.judgeError ?? '', /set judge in the eval file/);
  });

  it('scoring: rail on a classic needle uses [answer, UNANSWERABLE]', async () => {
    const railed = params({ contextLengths: [1000], depths: [50], scoring: 'rail', needle: 'The vault code is 4412.', answer: '4412' });
    const [railCase] = await cases(railed);
    assert.equal((await scoreOne(railCase!, 'The code is 4412.', railed)).label, 'pass');
    assert.equal((await scoreOne(railCase!, 'UNANSWERABLE', railed)).label, 'refusal');
    assert.equal((await scoreOne(railCase!, '4412, or UNANSWERABLE', railed)).label, 'miss');
  });
});

describe('arize', () => {
  const p = params({ variant: 'arize', contextLengths: [1000, 2000], depths: [0, 50] });
  let built: EvalCase[];
  before(async () => {
    built = await cases(p);
  });

  it('each cell has its own seeded city and 7-digit number, in the needle and the question; the same on a rebuild', async () => {
    const positives = built.filter((c) => !needleCaseParams(c).negative);
    assert.equal(positives.length, 4);
    assert.equal(built.length, 6, 'plus one negative cell per length');
    for (const evalCase of positives) {
      const { city, number } = needleCaseParams(evalCase);
      assert.match(number ?? '', /^[1-9]\d{6}$/);
      assert.equal(evalCase.question, `What is the special magic ${city} number?`);
      assert.equal(evalCase.documents[0]!.spans[0]!.text, `\nThe special magic ${city} number is: ${number}\n`);
    }
    assert.equal(new Set(positives.map((c) => needleCaseParams(c).number)).size, 4, 'no number reused across cells');
    const again = await cases(p);
    assert.deepEqual(again.map((c) => needleCaseParams(c).number), built.map((c) => needleCaseParams(c).number));
  });

  it('rails label pass, refusal and miss; a negative cell passes on UNANSWERABLE only', async () => {
    const evalCase = built.find((c) => !needleCaseParams(c).negative)!;
    const number = needleCaseParams(evalCase).number!;
    const pass = await scoreOne(evalCase, `The number is: ${number}.`, p);
    assert.deepEqual([pass.metric, pass.label, pass.pass, (pass.details as { referenceScore: number }).referenceScore], ['rail', 'pass', true, 1]);
    const refusal = await scoreOne(evalCase, 'unanswerable', p);
    assert.deepEqual([refusal.label, refusal.pass, (refusal.details as { referenceScore: number }).referenceScore], ['refusal', false, 10]);
    const negative = built.find((c) => needleCaseParams(c).negative)!;
    assert.equal(negative.documents[0]!.spans.length, 0, 'nothing inserted');
    assert.equal(negative.id, 't/L=1000/negative');
    assert.deepEqual([(await scoreOne(negative, 'UNANSWERABLE', p)).pass, (await scoreOne(negative, 'It is 1234567.', p)).pass], [true, false]);
  });
});

describe('multi', () => {
  it('retrieved / k, each answer a case-insensitive substring', async () => {
    const p = params({ variant: 'multi', contextLengths: [2000], depths: [20] });
    const [evalCase] = await cases(p);
    assert.deepEqual(evalCase!.documents[0]!.spans.map((s) => s.label), ['needle 1', 'needle 2', 'needle 3']);
    const insertion = needleCaseParams(evalCase!).insertionPercentages;
    assert.equal(insertion.length, 3);
    const [atEnd] = await cases(params({ variant: 'multi', contextLengths: [2000], depths: [100] }));
    assert.deepEqual(needleCaseParams(atEnd!).insertionPercentages, [], 'depth 100: the reference logs no insertion percentage');
    const score = await scoreOne(evalCase!, 'Figs and goat cheese.', p);
    assert.deepEqual([score.metric, score.value, score.pass, score.label], ['retrieved', 2 / 3, false, '2/3']);
    assert.match(score.explanation ?? '', /'prosciutto' missing/);
  });
});
