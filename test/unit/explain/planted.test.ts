// Explanations of cases whose cause is planted: the fixture server's scripted models answer from the documents
// actually present (a marker passage quoted, a planted distractor that changes the answer, an answer found only
// in first position), so leave-one-out and the subsets surrogate must name exactly the planted documents.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { explainRun, readExplanation } from '../../../src/core/explain/explainRun.js';
import { ATTRIBUTION_THRESHOLD } from '../../../src/core/explain/attribute.js';
import { scriptedReplies } from '../ragas/builders.js';
import type { CaseExplanation } from '../../../src/core/explain/model.js';

let server: FixtureServer;
let dir: string;
useFixtureServer((started) => { server = started; });
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'explain-planted-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const credentials = envCredentials({});
const REFUSAL = 'I can not answer the question because of the insufficient information in documents.';
const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** The documents as the RGB template shows them: one per line between "Document:" and the question. */
function rgbDocuments(req: RecordedRequest): string[] {
  const body = /Document:\n([\s\S]*?) \n\nQuestion:/.exec(req.lastUserMessage)?.[1] ?? '';
  return body.split('\n').filter((line) => line !== '');
}

/** The scripted model under test: it reads the documents present, like a model would. */
function rgbModel(req: RecordedRequest): string {
  const docs = rgbDocuments(req);
  if (req.lastUserMessage.includes('(distractor)')) {
    if (docs.some((d) => d.includes('DISTRACTOR'))) return 'It was held in Glendale, Arizona.';
    return docs.some((d) => d.includes('Tampa')) ? 'It was held in Tampa, Florida.' : REFUSAL;
  }
  if (req.lastUserMessage.includes('(decisive)')) return docs.some((d) => d.includes('MARKER-ALPHA')) ? 'Tampa, Florida, as MARKER-ALPHA says.' : REFUSAL;
  if (req.lastUserMessage.includes('(position)')) return docs[0]?.includes('MARKER-POS') ? 'Tampa, Florida.' : REFUSAL;
  return REFUSAL;
}

function writeWorkspace(name: string, files: Record<string, string>, suites: string, judge = false): string {
  const ws = path.join(dir, name);
  rmSync(ws, { recursive: true, force: true });
  mkdirSync(ws, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(ws, file), text);
  const model = (m: string) => `{ provider: openai-compatible, model: ${m}, baseUrl: ${server.openaiBaseUrl} }`;
  writeFileSync(path.join(ws, 'x.eval.yaml'), `version: 1\nname: planted\nmodels:\n  - ${model('model-a')}\n${judge ? `judge: ${model('judge')}\n` : ''}maxRetries: 0\ntimeoutMs: 10000\nseed: 7\nsuites:\n${suites}`);
  return path.join(ws, 'x.eval.yaml');
}

async function runAndExplain(evalFile: string, options: { caseIds?: string[]; failed?: boolean } = {}) {
  const run = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials });
  const explained = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, ...options });
  return { run, explained: explained.explanation! };
}

const byId = (explanation: { cases: CaseExplanation[] }, caseId: string) => {
  const found = explanation.cases.find((c) => c.caseId === caseId);
  assert.ok(found, `${caseId} explained`);
  return found;
};
/** Sources whose removal flips the verdict (leave-one-out). */
const flips = (e: CaseExplanation) => e.attributions.filter((a) => a.effect === 'decisive' || (a.effect === 'harms' && a.withoutIt !== null)).map((a) => a.sourceId).sort();
/** Sources the subsets surrogate weighs clearly, by sign. */
const weighed = (e: CaseExplanation, sign: 1 | -1) => e.attributions.filter((a) => a.attribution !== null && sign * a.attribution >= ATTRIBUTION_THRESHOLD).map((a) => a.sourceId).sort();
const docWith = (e: CaseExplanation, marker: string) => e.sources.filter((s) => s.preview.includes(marker)).map((s) => s.id);

describe('RGB', () => {
  const rows = [
    { id: 'distractor', query: 'Where was Super Bowl 2021 played (distractor)?', answer: 'Tampa, Florida', positive: ['Super Bowl LV was played in Tampa, Florida.'], negative: ['DISTRACTOR notice: the 2021 game moved to Glendale, Arizona.', 'Tickets for Super Bowl LVIII are on sale.', 'The halftime show drew a record audience.'] },
    { id: 'decisive', query: 'Where was Super Bowl 2021 played (decisive)?', answer: 'Tampa, Florida', positive: ['MARKER-ALPHA: Super Bowl LV was played in Tampa, Florida.'], negative: ['Tickets for Super Bowl LVIII are on sale.', 'The halftime show drew a record audience.', 'Fans travelled from every state.'] },
    { id: 'position', query: 'Where was Super Bowl 2021 played (position)?', answer: 'Tampa, Florida', positive: ['MARKER-POS: Super Bowl LV was played in Tampa, Florida.'], negative: ['Tickets for Super Bowl LVIII are on sale.', 'The halftime show drew a record audience.', 'Fans travelled from every state.'] },
  ];
  let evalFile: string;
  before(() => {
    evalFile = writeWorkspace('rgb', { 'data.jsonl': jsonl(rows) }, '  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0.75], passageNum: 4 } }\n');
  });

  it('names exactly the planted distractor and the decisive passage, by leave-one-out and by the subsets surrogate', async () => {
    server.addRule({ match: { model: 'model-a' }, reply: rgbModel });
    const { explained } = await runAndExplain(evalFile);

    const distractor = byId(explained, 'noise/distractor/noise=0.75');
    assert.equal(distractor.original.pass, false);
    assert.deepEqual(flips(distractor), docWith(distractor, 'DISTRACTOR'));
    assert.equal(distractor.attributions.find((a) => a.sourceId === docWith(distractor, 'DISTRACTOR')[0])?.effect, 'harms');
    assert.deepEqual(weighed(distractor, -1), docWith(distractor, 'DISTRACTOR'), 'the surrogate weighs only the distractor negatively');
    assert.match(distractor.summary, /^fails because of d\d \(negative\): without it the answer is correct/);

    const decisive = byId(explained, 'noise/decisive/noise=0.75');
    assert.equal(decisive.original.pass, true);
    assert.deepEqual(flips(decisive), docWith(decisive, 'MARKER-ALPHA'));
    assert.deepEqual(weighed(decisive, 1), docWith(decisive, 'MARKER-ALPHA'));
    assert.deepEqual(weighed(decisive, -1), []);
    assert.ok((decisive.surrogate?.r2 ?? 0) > 0.9, 'one document explains the subsets');
    assert.equal(decisive.surrogate?.agreementWithLeaveOneOut, 1);
    assert.deepEqual(decisive.sentences.map((s) => s.sourceIds), [docWith(decisive, 'MARKER-ALPHA')], 'the quoting sentence is linked to the passage it quotes');

    const position = byId(explained, 'noise/position/noise=0.75');
    assert.deepEqual(position.positionCurve?.points.map((p) => p.pass), [true, false, false, false], 'the answer is found only in first position');
    assert.match(position.summary, /the answer-bearing d\d \(positive\) is used only in position 1/);

    const suite = explained.suites.find((s) => s.suiteId === 'noise');
    assert.deepEqual(suite?.accuracyByPosition.map((p) => [p.position, p.passed, p.n]), [[0, 2, 3], [1, 1, 3], [2, 1, 3], [3, 1, 3]]);
    assert.equal(suite?.mostHarmful[0]?.preview.startsWith('DISTRACTOR'), true);
    const stored = await readExplanation(path.join(path.dirname(evalFile), '.rag-inspector', 'explanations', `${explained.runId}.json`));
    assert.equal(stored?.cases.length, 3);
  });
});

describe('IF-RAG', () => {
  it('names exactly the gold passage the answer quotes, however the documents are renumbered', async () => {
    // Row i's gold passage carries MARK<i>; the model answers Alpha<i> only when it is shown, and cites it.
    server.addRule({
      match: { model: 'model-a' },
      reply: (req) => {
        const row = Number(/What is item (\d+)\?/.exec(req.lastUserMessage)?.[1]);
        const doc = [...req.lastUserMessage.matchAll(/^(\[Document \d+\]) (.*)$/gm)].find((m) => m[2]!.includes(`MARK${row} `));
        return doc ? `It is Alpha${row} ${doc[1]}.` : 'I cannot answer the question due to the insufficient information in the documents.';
      },
    });
    const rows = [0, 1, 2, 3].map((i) => ({ id: `item${i}`, question: `What is item ${i}?`, answer: `Alpha${i}`, passages: [`MARK${i} says item ${i} is Alpha${i}.`] }));
    const evalFile = writeWorkspace('ifrag', { 'data.jsonl': jsonl(rows) }, '  - { id: if, method: ifrag, dataset: data.jsonl, params: { instruction: A, kinds: [factual], k: 4 } }\n');
    const { explained } = await runAndExplain(evalFile);
    assert.equal(explained.cases.length, 4);
    for (const e of explained.cases) {
      const row = /item(\d)/.exec(e.caseId)![1];
      const gold = docWith(e, `MARK${row} `);
      assert.equal(gold.length, 1);
      assert.equal(e.original.pass, true, e.caseId);
      assert.deepEqual(flips(e), gold, `${e.caseId}: leave-one-out`);
      assert.deepEqual(weighed(e, 1), gold, `${e.caseId}: subsets`);
      assert.deepEqual(weighed(e, -1), []);
    }
    assert.deepEqual(explained.suites[0]?.decisiveIsLabelled, { agree: 4, n: 4 }, 'the decisive passage is the one the dataset labels');
  });
});

describe('Needle in a Haystack', () => {
  it('names the needle alone; a model that reads only the start of the context is seen on the position curve', async () => {
    const NEEDLE = 'Dolores Park';
    server.addRule({ match: { model: 'model-a' }, reply: (req) => (req.text.includes(NEEDLE) ? 'The best thing to do in San Francisco is eat a sandwich and sit in Dolores Park on a sunny day.' : 'UNANSWERABLE') });
    // model-b finds the needle only before the haystack's first essay has gone on for 300 characters.
    server.addRule({
      match: { model: 'model-b' },
      reply: (req) => {
        const start = req.text.indexOf('Bread on a Weeknight');
        const at = req.text.indexOf(NEEDLE);
        return at >= 0 && at - start < 300 ? 'The best thing to do in San Francisco is eat a sandwich and sit in Dolores Park on a sunny day.' : 'UNANSWERABLE';
      },
    });
    const evalFile = writeWorkspace('needle', {}, '  - { id: niah, method: needle, params: { contextLengths: [1000], depths: [50], scoring: substring } }\n');
    writeFileSync(evalFile, readFileSync(evalFile, 'utf8').replace('  - { provider: openai-compatible, model: model-a', `  - { provider: openai-compatible, model: model-b, baseUrl: ${server.openaiBaseUrl} }\n  - { provider: openai-compatible, model: model-a`));
    const { explained } = await runAndExplain(evalFile);
    const a = explained.cases.find((c) => c.modelKey.endsWith('model-a'))!;
    assert.equal(a.original.pass, true);
    assert.deepEqual(flips(a), ['needle']);
    assert.deepEqual(weighed(a, 1), ['needle']);
    assert.ok(a.sources.length >= 6, 'the haystack is cut into segments');
    assert.ok(a.positionCurve!.points.every((p) => p.pass === true));
    const b = explained.cases.find((c) => c.modelKey.endsWith('model-b'))!;
    assert.equal(b.original.pass, false, 'the needle sits at 50% depth, past where model-b reads');
    assert.equal(b.positionCurve!.points[0]!.pass, true);
    assert.equal(b.positionCurve!.points.at(-1)!.pass, false);
    assert.match(b.summary, /the answer-bearing needle \(needle\) is used only in positions? 1/);
  });
});

describe('LLM-Eval (given responses: the fixed response is re-judged)', () => {
  it('names exactly the context line the rating rests on; a judge error in a variant is undetermined, never a flip', async () => {
    const rows = [{ id: 'tower', context: 'A: Where should we meet?\nB: FACT-LINE the tower is in Paris, we meet there.\nA: Fine.\nB: JUDGE-BREAKER see you.', response: 'Then I will see you at the tower in Paris.' }];
    // The judge rates content 5 when the context supports the response; it answers out of format when the
    // JUDGE-BREAKER line is missing (only in the variant that leaves that line out, and some subsets).
    server.addRule({
      match: { model: 'judge' },
      reply: (req) => {
        if (!req.lastUserMessage.includes('JUDGE-BREAKER')) return 'I would rather not say.';
        return req.lastUserMessage.includes('FACT-LINE') ? '{"content": 5}' : '{"content": 1}';
      },
    });
    const evalFile = writeWorkspace('llmeval', { 'data.jsonl': jsonl(rows) }, '  - { id: le, method: llm-eval, dataset: data.jsonl, params: { dimensions: [content] } }\n', true);
    const { explained } = await runAndExplain(evalFile);
    const e = explained.cases[0]!;
    assert.equal(e.basis, 'rating');
    assert.match(e.meaning, /not regenerated/);
    const fact = docWith(e, 'FACT-LINE');
    const breaker = docWith(e, 'JUDGE-BREAKER');
    assert.deepEqual(e.attributions.filter((a) => a.effect === 'decisive').map((a) => a.sourceId), fact);
    assert.deepEqual(weighed(e, 1), fact);
    const broken = e.attributions.find((a) => a.sourceId === breaker[0])!;
    assert.equal(broken.effect, 'undetermined', 'the judge error is not read as a change');
    assert.equal(broken.change, null);
    assert.match(e.variants.find((v) => v.variantId === `loo:${breaker[0]}`)!.undeterminedBecause!, /judge error/);
    assert.match(e.summary, /the rating rests on l1 \(context\)/);
  });
});

describe('RAGAS (given responses)', () => {
  it('faithfulness rests on exactly the context that supports the statement', async () => {
    server.addRule({
      match: { model: 'judge' },
      reply: scriptedReplies({
        statements: () => ({ statements: ['The tower is in Paris.'] }),
        nli: (input) => {
          const supported = String(input.context).includes('SUPPORT: the tower is in Paris');
          return { statements: [{ statement: 'The tower is in Paris.', reason: supported ? 'stated' : 'not stated', verdict: supported ? 1 : 0, quote: supported ? 'SUPPORT: the tower is in Paris' : null }] };
        },
      }),
    });
    const rows = [{ id: 'q', user_input: 'Where is the tower?', retrieved_contexts: ['Bridges cross the river.', 'SUPPORT: the tower is in Paris.', 'Cafés open early.'], response: 'The tower is in Paris.' }];
    const evalFile = writeWorkspace('ragas', { 'data.jsonl': jsonl(rows) }, '  - { id: rg, method: ragas, dataset: data.jsonl, params: { metrics: [faithfulness] } }\n', true);
    const { explained } = await runAndExplain(evalFile);
    const e = explained.cases[0]!;
    assert.match(e.meaning, /not regenerated/);
    assert.deepEqual(e.attributions.filter((a) => a.effect === 'decisive').map((a) => a.sourceId), ['d1']);
    assert.deepEqual(weighed(e, 1), ['d1']);
    assert.equal(server.requests.filter((r) => r.model === 'model-a').length, 0, 'given responses: the model under test is never called');
  });
});
