// Explanations of cases whose cause is planted: the fixture server's scripted models answer from the documents
// actually present (a marker passage quoted, a planted distractor that changes the answer, an answer found only
// in first position), so leave-one-out and the subsets surrogate must name exactly the planted documents.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { explainRun, planExplanation, readExplanation } from '../../../src/core/explain/explainRun.js';
import { ATTRIBUTION_THRESHOLD } from '../../../src/core/explain/attribute.js';
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
    if (process.env.SHOW) for (const c of explained.cases) console.log(c.caseId, c.summary, JSON.stringify(c.attributions.map((a) => [a.sourceId, a.effect, a.attribution])), JSON.stringify(c.surrogate), JSON.stringify(c.instructions));
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
