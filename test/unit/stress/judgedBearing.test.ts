// answerBearing: judge — the preparation step (one judge verdict per passage, before a row's cases are built) through
// the real OpenAI SDK to the fixture server with scripted verdicts: the cases built from a paraphrased answer, an
// unreadable verdict reported at its row, a rerun answered from the cache, a cancel during preparation, and the
// load-time error when the eval file has no judge.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InputError, InputErrors } from '../../../src/core/errors.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { DatasetRow, EvalCase } from '../../../src/core/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { createJudge } from '../../../src/core/suites/judging.js';
import { expandStressRow, stressCaseParams } from '../../../src/core/suites/stress/cases.js';
import { prepareStressRow } from '../../../src/core/suites/stress/judgedBearing.js';
import { parseStressParams } from '../../../src/core/suites/stress/params.js';
import type { DistractorPool } from '../../../src/core/suites/stress/pool.js';
import { caseRequests, fixtureTokenCount } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { fixtureClients } from '../ragas/builders.js';

let server: FixtureServer;
let dir: string;

useFixtureServer((started) => { server = started; });
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'stress-judged-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const SUN = {
  id: 'sun', user_input: 'How long does sunlight take to reach Earth?', reference: '8 minutes',
  // No passage holds "8 minutes": RGB's rule finds none; the first paraphrases it.
  retrieved_contexts: ['Sunlight needs roughly eight minutes to travel to our planet.', 'The Sun is a G-type main-sequence star.'],
};
const MOON = {
  id: 'moon', user_input: 'How far away is the Moon?', reference: '384,400 km',
  retrieved_contexts: ['The Moon orbits at about three hundred eighty-four thousand kilometres from Earth.', 'The Moon has no atmosphere.'],
};
const TIDES = {
  id: 'tides', user_input: 'What causes the tides?', reference: 'the Moon\'s gravity',
  retrieved_contexts: ['Tides are studied by oceanographers.', 'High tide comes twice a day.'],
};

/** Per reference, the words that state it (paraphrased): the judge says yes to a passage with them, no to any other. */
const BEARING: Record<string, string[]> = {
  '8 minutes': ['eight minutes'],
  '384,400 km': ['three hundred eighty-four thousand'],
  '40 minutes': ['forty minutes', 'two-thirds of an hour'],
};
const isJudge = (req: RecordedRequest) => req.model === 'judge';
/** A field of the input asked about: the prompt's last one (its examples come first; a repair request follows it). */
const fieldOf = (req: RecordedRequest, name: string) => [...req.text.matchAll(new RegExp(`"${name}": ("(?:[^"\\\\]|\\\\.)*")`, 'g'))].at(-1)?.[1] ?? '';
const passageOf = (req: RecordedRequest) => fieldOf(req, 'passage');
const verdict = (req: RecordedRequest) => {
  const words = BEARING[JSON.parse(fieldOf(req, 'reference') || '""') as string];
  const yes = words !== undefined && words.some((w) => passageOf(req).includes(w));
  return JSON.stringify({ reason: yes ? 'states the answer in words' : 'does not state it', verdict: yes ? 'yes' : 'no' });
};
const judgeRequests = () => caseRequests(server.requests).filter(isJudge);

function datasetRow(data: object, line = 1): DatasetRow {
  return { ref: { file: '/data/mine.jsonl', line, index: line - 1 }, data: data as Record<string, unknown> };
}

const PARAMS = parseStressParams({ testbed: 'noise_robustness', noiseRates: [0, 0.5], passageNum: 2, answerBearing: 'judge' }, { file: '/data/x.eval.yaml', judge: true });
const POOL: DistractorPool = { items: [{ text: 'Mars has two moons.', source: 'rows[5].contexts[1]', rowIndex: 5 }] };
const CONTEXT = { suiteId: 's', seed: 2333, models: [] };

function judgeFor(signal = new AbortController().signal) {
  return createJudge(fixtureClients(server.openaiBaseUrl).judge, signal);
}

describe('the answer-bearing judge, as a preparation step', () => {
  it('finds the paraphrased answer RGB\'s rule misses, and the cases are built from its verdicts exactly as written here', async () => {
    server.addRule({ match: isJudge, reply: verdict });
    const row = datasetRow(SUN);
    assert.throws(() => expandStressRow(row, { ...PARAMS, answerBearing: 'match' }, CONTEXT, POOL), /none of the 2 retrieved passages contains the reference answer "8 minutes"/);

    const prepared = await prepareStressRow(row, PARAMS, { ...CONTEXT, judge: judgeFor(), signal: new AbortController().signal }, POOL);
    const verdicts = [
      { index: 0, verdict: 'yes', reason: 'states the answer in words' },
      { index: 1, verdict: 'no', reason: 'does not state it' },
    ];
    // One answer-bearing passage: at noise 0.5 keep_ratio shows one distractor, so one candidate is asked about.
    assert.deepEqual(prepared, { kind: 'judged', judge: 'openai-compatible:judge', verdicts, distractors: { drawn: POOL.items, passedOver: [] } });
    assert.equal(judgeRequests().length, 3, 'one call per passage, one per distractor candidate');
    assert.ok(judgeRequests().every((r) => /"reference": "8 minutes"/.test(r.lastUserMessage)));
    assert.deepEqual(judgeRequests().map(passageOf).sort(), [...SUN.retrieved_contexts, 'Mars has two moons.'].map((p) => JSON.stringify(p)).sort());

    const cases = expandStressRow(row, PARAMS, CONTEXT, POOL, prepared);
    const shape = (c: EvalCase) => ({
      id: c.id,
      documents: c.documents.map((d) => ({ role: d.role, text: d.text, source: d.source })).sort((a, b) => a.role.localeCompare(b.role)),
      answerBearing: stressCaseParams(c).answerBearing,
      rule: stressCaseParams(c).answerBearingRule,
      judged: stressCaseParams(c).answerBearingJudge,
    });
    const judged = { judge: 'openai-compatible:judge', verdicts, distractorsPassedOver: [] };
    // noise 0: one answer-bearing passage, and keep_ratio shows it alone; noise 0.5: it and the one distractor.
    assert.deepEqual(cases.map(shape), [
      {
        id: 's/sun/noise=0', answerBearing: [0], rule: 'judge', judged,
        documents: [{ role: 'positive', text: SUN.retrieved_contexts[0], source: 'contexts[0]' }],
      },
      {
        id: 's/sun/noise=0.5', answerBearing: [0], rule: 'judge', judged,
        documents: [
          { role: 'negative', text: 'Mars has two moons.', source: 'rows[5].contexts[1]' },
          { role: 'positive', text: SUN.retrieved_contexts[0], source: 'contexts[0]' },
        ],
      },
    ]);
    // Pure in (row, verdicts, params, seed): built again, the same cases.
    assert.deepEqual(expandStressRow(row, PARAMS, CONTEXT, POOL, prepared), cases);
  });

  it('an unreadable verdict leaves the row reported at its line, never counted as bearing or not', async () => {
    server.addRule({ match: (req) => isJudge(req) && passageOf(req).includes('G-type'), reply: 'Yes.' });
    server.addRule({ match: isJudge, reply: verdict });
    const row = datasetRow(SUN, 7);
    await assert.rejects(
      prepareStressRow(row, PARAMS, { ...CONTEXT, judge: judgeFor(), signal: new AbortController().signal }, POOL),
      (e: unknown) => e instanceof InputError && e.position.file === '/data/mine.jsonl' && e.position.line === 7
        && /no readable answer-bearing verdict for passage 1 \(judge output is not valid \(not JSON/.test(e.message),
    );
    // The judge step's one repair, then undetermined: 1 call for passage 0, 2 for passage 1.
    assert.equal(judgeRequests().length, 3);
  });

  it('an unreadable verdict on a distractor candidate leaves the row reported at its line: an uncleared passage may state the answer', async () => {
    server.addRule({ match: (req) => isJudge(req) && passageOf(req).includes('Mars'), reply: 'Maybe.' });
    server.addRule({ match: isJudge, reply: verdict });
    await assert.rejects(
      prepareStressRow(datasetRow(SUN, 4), PARAMS, { ...CONTEXT, judge: judgeFor(), signal: new AbortController().signal }, POOL),
      (e: unknown) => e instanceof InputError && e.position.line === 4
        && /no readable answer-bearing verdict for distractor rows\[5\]\.contexts\[1\] \(judge output is not valid/.test(e.message)
        && /a distractor the judge has not cleared may state the answer/.test(e.message),
    );
  });

  it('a row whose answer_bearing column names its passages asks the judge about its distractors only; without a judge (a plan only counted) every passage is assumed', async () => {
    server.addRule({ match: isJudge, reply: verdict });
    const marked = datasetRow({ ...SUN, answer_bearing: [0] });
    assert.deepEqual(await prepareStressRow(marked, PARAMS, { ...CONTEXT, judge: judgeFor(), signal: new AbortController().signal }, POOL), { kind: 'judged', judge: 'openai-compatible:judge', distractors: { drawn: POOL.items, passedOver: [] } });
    assert.deepEqual(judgeRequests().map(passageOf), [JSON.stringify('Mars has two moons.')]);
    server.requests.length = 0;
    assert.deepEqual(await prepareStressRow(datasetRow(SUN), PARAMS, { ...CONTEXT, signal: new AbortController().signal }, POOL), { kind: 'assumed' });
    assert.equal(judgeRequests().length, 0);
  });
});

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const credentials = envCredentials({});

/** A workspace of its own (its own cache), the three rows, model-a answering from the documents it is shown. */
function workspace(judge = true): string {
  const ws = mkdtempSync(path.join(dir, 'ws-'));
  // The tides row first: it is rejected before any case runs, so every progress event already has the corrected total.
  writeFileSync(path.join(ws, 'mine.jsonl'), jsonl([TIDES, SUN, MOON]));
  const model = (name: string) => `{ provider: openai-compatible, model: ${name}, baseUrl: ${server.openaiBaseUrl} }`;
  const file = path.join(ws, 'judged.eval.yaml');
  writeFileSync(file, `version: 1
models:
  - ${model('model-a')}
${judge ? `judge: ${model('judge')}\n` : ''}maxRetries: 0
suites:
  - id: bearing
    method: stress
    dataset: mine.jsonl
    params:
      testbed: noise_robustness
      noiseRates: [0.5]
      passageNum: 2
      answerBearing: judge
`);
  return file;
}

describe('answerBearing: judge in a run', () => {
  it('judges each row once; the row the judge finds no answer in is reported at its line; a rerun asks the judge nothing', async () => {
    server.addRule({ match: isJudge, reply: verdict });
    server.addRule({ match: { model: 'model-a' }, reply: 'About eight minutes.' });
    const file = workspace();
    const totals: number[] = [];
    const first = await runEvaluation(file, { signal: new AbortController().signal, credentials, onEvent: (e) => { if (e.type === 'case-finished') totals.push(e.total); } });
    assert.equal(first.status, 'success');
    // One verdict per passage of the three rows, and one per distractor the two built rows need (noise 0.5 with one
    // answer-bearing passage: one distractor); the rejected row asks for none.
    assert.equal(judgeRequests().length, 6 + 2);
    const problem = first.problems.find((p) => p.line === 1);
    assert.ok(problem && problem.file.endsWith('mine.jsonl') && /found none of the 2 retrieved passages to contain the reference answer "the Moon's gravity"/.test(problem.message), JSON.stringify(first.problems));
    const log = await readRunLog(first.logFile);
    assert.deepEqual(log.cases.map((c) => c.case.id).sort(), ['bearing/moon/noise=0.5', 'bearing/sun/noise=0.5']);
    const sun = log.cases.find((c) => c.case.id === 'bearing/sun/noise=0.5')!.case;
    assert.equal(sun.documents.find((d) => d.role === 'positive')!.text, SUN.retrieved_contexts[0]);
    assert.deepEqual(stressCaseParams(sun).answerBearingJudge?.verdicts.map((v) => v.verdict), ['yes', 'no']);
    // The count pass counted the tides row's case; once the judge rejected it the total says 2, as many as ran.
    assert.deepEqual(totals, [2, 2]);
    assert.equal(first.totals.judgeCalls, 8);
    // The verdicts' tokens belong to no case: the run's totals add them to what the cases used.
    const caseTokens = log.cases.reduce((sum, c) => sum + (c.result.response?.usage.inputTokens ?? 0), 0);
    const judgeTokens = judgeRequests().reduce((sum, r) => sum + fixtureTokenCount(r.text), 0);
    assert.equal(first.totals.inputTokens, caseTokens + judgeTokens);

    server.requests.length = 0;
    const again = await runEvaluation(file, { signal: new AbortController().signal, credentials });
    assert.equal(again.status, 'success');
    assert.equal(judgeRequests().length, 0, 'every verdict came from the cache');
    assert.equal(caseRequests(server.requests).length, 0);
    assert.deepEqual((await readRunLog(again.logFile)).cases.map((c) => c.case.id).sort(), ['bearing/moon/noise=0.5', 'bearing/sun/noise=0.5']);
    assert.ok(again.problems.some((p) => p.line === 1), 'the rejected row is reported again');
  });

  it('rows are prepared at once, as many as the judge takes calls (their order kept: mapOrdered, test/unit/pool.test.ts)', async () => {
    server.addRule({ match: isJudge, reply: verdict, fault: { kind: 'slow', ms: 150 } });
    server.addRule({ match: { model: 'model-a' }, reply: 'About eight minutes.' });
    const outcome = await runEvaluation(workspace(), { signal: new AbortController().signal, credentials, noCache: true });
    assert.equal(outcome.status, 'success');
    const judged = judgeRequests();
    assert.equal(judged.length, 6 + 2);
    // Every row's verdicts on its own passages were asked before the first came back: three rows in flight, not one
    // after another (a row's distractor candidates follow its own verdicts, which say how many it needs).
    const own = judged.filter((r) => [TIDES, SUN, MOON].some((row) => fieldOf(r, 'reference') === JSON.stringify(row.reference) && row.retrieved_contexts.some((p) => passageOf(r) === JSON.stringify(p))));
    assert.equal(own.length, 6);
    const firstAnswer = Math.min(...judged.map((r) => r.answeredAt ?? Infinity));
    assert.ok(own.every((r) => r.receivedAt <= firstAnswer), JSON.stringify(own.map((r) => [r.receivedAt, r.answeredAt])));
    assert.equal(outcome.totals.cases, 2);
  });

  it('a rerun of one case asks the judge about its row only, even without the cache', async () => {
    server.addRule({ match: isJudge, reply: verdict });
    server.addRule({ match: { model: 'model-a' }, reply: 'About 384,400 km.' });
    const outcome = await runEvaluation(workspace(), { signal: new AbortController().signal, credentials, noCache: true, caseFilter: (id) => id === 'bearing/moon/noise=0.5' });
    assert.equal(outcome.status, 'success');
    // Its two passages and the one distractor candidate it needs, all against its own answer.
    assert.equal(judgeRequests().length, 3);
    assert.ok(judgeRequests().every((r) => fieldOf(r, 'reference') === JSON.stringify(MOON.reference)));
    assert.deepEqual(judgeRequests().map((r) => passageOf(r)).filter((p) => MOON.retrieved_contexts.includes(JSON.parse(p) as string)).sort(), MOON.retrieved_contexts.map((p) => JSON.stringify(p)).sort());
    assert.deepEqual((await readRunLog(outcome.logFile)).cases.map((c) => c.case.id), ['bearing/moon/noise=0.5']);
  });

  it('a cancel during the preparation ends the run as cancelled with nothing of the row logged; --resume judges and runs it', async () => {
    const controller = new AbortController();
    server.addRule({
      match: (req) => {
        if (!isJudge(req)) return false;
        setImmediate(() => controller.abort());
        return true;
      },
      fault: { kind: 'hang' },
    });
    const file = workspace();
    const cancelled = await runEvaluation(file, { signal: controller.signal, credentials });
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(judgeRequests().length >= 1);
    assert.equal(server.requests.filter((r) => r.model === 'model-a' && !r.lastUserMessage.includes('ping')).length, 0, 'no case was sent');
    assert.deepEqual((await readRunLog(cancelled.logFile)).cases, []);
    assert.deepEqual(cancelled.problems, [], 'a cancelled preparation is no problem of the row');

    server.clearRules();
    server.addRule({ match: isJudge, reply: verdict });
    server.addRule({ match: { model: 'model-a' }, reply: 'About eight minutes.' });
    const resumed = await runEvaluation(file, { signal: new AbortController().signal, credentials, resume: cancelled.logFile });
    assert.equal(resumed.status, 'success');
    assert.deepEqual((await readRunLog(cancelled.logFile)).cases.map((c) => c.case.id).sort(), ['bearing/moon/noise=0.5', 'bearing/sun/noise=0.5']);
  });

  it('without judge: in the eval file, answerBearing: judge is an error at its line naming how to configure one', async () => {
    const file = workspace(false);
    await assert.rejects(loadEvalSpec(file), (e: unknown) => {
      const error = e instanceof InputErrors ? e.errors.find((x) => /answerBearing/.test(x.message)) : undefined;
      return error !== undefined && error.position.file === file && error.position.line === 13
        && /judge needs a judge model/.test(error.message) && /add judge: at the top level of the eval file/.test(error.hint ?? '');
    });
  });
});

/** Two rows with one answer, each paraphrasing it in its own way: each row's paraphrase is the other's hidden answer. */
const FERRY = {
  id: 'ferry', user_input: 'How long is the crossing on the Brisk ferry?', reference: '40 minutes',
  retrieved_contexts: ['The crossing on the Brisk ferry lasts forty minutes.', 'The Brisk ferry carries two hundred cars.'],
};
const BAY = {
  id: 'bay', user_input: 'How long does the Brisk take to cross the bay?', reference: '40 minutes',
  retrieved_contexts: ['Crossing the bay on the Brisk takes two-thirds of an hour.', 'Brisk ferries leave every hour.'],
};

describe('distractors under answerBearing: judge', () => {
  it('a passage that paraphrases the row\'s answer is never drawn as its distractor: the judge is asked, and says why it passed it over', async () => {
    server.addRule({ match: isJudge, reply: verdict });
    server.addRule({ match: { model: 'model-a' }, reply: 'insufficient information' });
    const ws = mkdtempSync(path.join(dir, 'ws-'));
    writeFileSync(path.join(ws, 'mine.jsonl'), jsonl([FERRY, SUN, BAY, MOON]));
    const file = path.join(ws, 'rejection.eval.yaml');
    const model = (name: string) => `{ provider: openai-compatible, model: ${name}, baseUrl: ${server.openaiBaseUrl} }`;
    // passageNum 10: more than the pool holds, so every passage not ruled out is drawn.
    writeFileSync(file, `version: 1
models:
  - ${model('model-a')}
judge: ${model('judge')}
maxRetries: 0
suites:
  - { id: rej, method: stress, dataset: mine.jsonl, params: { testbed: negative_rejection, passageNum: 10, answerBearing: judge } }
`);
    const outcome = await runEvaluation(file, { signal: new AbortController().signal, credentials });
    assert.equal(outcome.status, 'success');
    const cases = new Map((await readRunLog(outcome.logFile)).cases.map((line) => [line.case.id, line.case]));
    const texts = (id: string) => cases.get(id)!.documents.map((d) => d.text).sort();
    const others = (...rows: { retrieved_contexts: string[] }[]) => rows.flatMap((r) => r.retrieved_contexts);
    // RGB's word-for-word rule finds "40 minutes" in none of these; the judge finds it paraphrased in one of each.
    assert.deepEqual(texts('rej/ferry/noise=1'), [...others(SUN, MOON), BAY.retrieved_contexts[1]!].sort());
    assert.deepEqual(texts('rej/bay/noise=1'), [...others(SUN, MOON), FERRY.retrieved_contexts[1]!].sort());
    assert.deepEqual(stressCaseParams(cases.get('rej/ferry/noise=1')!).answerBearingJudge?.distractorsPassedOver, [{ source: 'rows[2].contexts[0]', reason: 'states the answer in words' }]);
    assert.deepEqual(stressCaseParams(cases.get('rej/bay/noise=1')!).answerBearingJudge?.distractorsPassedOver, [{ source: 'rows[0].contexts[0]', reason: 'states the answer in words' }]);
    // Rows with other answers take both: a passage stating 40 minutes is no answer to how far the Moon is.
    assert.ok(texts('rej/moon/noise=1').includes(FERRY.retrieved_contexts[0]!));
    assert.equal(stressCaseParams(cases.get('rej/moon/noise=1')!).distractorsDrawn, 6);
    assert.match(outcome.reports[0]!.notes.join('\n'), /never mentioning the row's answer word for word, nor stating it paraphrased by the judge's verdict/);
  });
});
