// The stress method end to end: eval file → engine → real OpenAI SDK → fixture server with scripted replies, on a
// small RAGAS-style dataset; every expected table below is counted by hand from the scripted replies.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunOutcome } from '../../../src/core/engine/runEvaluation.js';
import { loggedRun } from '../engine/loggedRun.js';
import { envCredentials } from '../../../src/core/providers/registry.js';

let server: FixtureServer;
let dir: string;

useFixtureServer((started) => { server = started; });

const CAPITALS = [['France', 'Paris'], ['Japan', 'Tokyo'], ['Canada', 'Ottawa'], ['Kenya', 'Nairobi']] as const;
const FAKES = ['Lyon', 'Osaka', 'Toronto', 'Mombasa', 'Marlowe'];
const OTHER_FACT = ['France is in western Europe.', 'Japan is an island country.', 'Canada is in North America.', 'Kenya lies on the equator.'];
const ROWS = [
  ...CAPITALS.map(([country, city], i) => ({
    id: country.toLowerCase(), user_input: `What is the capital of ${country}?`, reference: city, response: 'ignored',
    retrieved_contexts: [`${city} is the capital of ${country}.`, OTHER_FACT[i]],
  })),
  // Line 5: no passage holds the reference, so the row is reported there and the others still run.
  { id: 'hamlet', user_input: 'Who wrote Hamlet?', reference: 'Shakespeare', retrieved_contexts: ['Hamlet is a tragedy set in Denmark.'] },
];

function jsonl(rows: object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'stress-fixture-'));
  writeFileSync(path.join(dir, 'qa.jsonl'), jsonl(ROWS));
  writeFileSync(path.join(dir, 'qa-fake.jsonl'), jsonl(ROWS.map((row, i) => ({ ...row, fake_answer: FAKES[i] }))));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

const MODEL_A = 'openai-compatible:model-a';
const MODEL_B = 'openai-compatible:model-b';

/** `replies[i]` for model-a whenever the prompt asks about the i-th country. */
function script(model: string, replies: readonly string[]): void {
  CAPITALS.forEach(([country], i) => server.addRule({ match: { model, contains: `capital of ${country}?` }, reply: replies[i] as string }));
}

async function run(suite: string, withJudge = false): Promise<RunOutcome> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.eval.yaml`);
  const judge = withJudge ? `judge: { provider: openai-compatible, model: judge, baseUrl: ${server.openaiBaseUrl} }\n` : '';
  writeFileSync(file, `version: 1
name: stress
models:
  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }
  - { provider: openai-compatible, model: model-b, baseUrl: ${server.openaiBaseUrl} }
${judge}suites:
${suite}`);
  return runEvaluation(file, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });
}

const metric = (outcome: RunOutcome, model: string, name: string) => outcome.reports[0]!.metrics.find((m) => m.modelKey === model && m.name === name)?.value;
const cells = (outcome: RunOutcome, tableId: string) => outcome.reports[0]!.tables.find((t) => t.id === tableId)!.rows.map((r) => [r.label, ...r.cells.map((c) => c.value === null ? null : `${c.value}/${c.n}`)]);

test('noise robustness on the user\'s rows: RGB\'s accuracy table by ratio; the row without an answer-bearing passage is reported at its line', async () => {
  script('model-a', ['The capital is Paris.', 'tokyo', 'Toronto', 'Nairobi, of course']);
  script('model-b', ['No idea', 'No idea', 'Ottawa', 'No idea']);
  const outcome = await run('  - { id: noise, method: stress, dataset: qa.jsonl, params: { testbed: noise_robustness, noiseRates: [0, 0.5], passageNum: 2 } }\n');
  // model-a: rows 0, 1, 3 correct at both ratios (case-insensitive, as RGB's checkanswer); row 2 wrong. model-b: row 2 only.
  assert.deepEqual(cells(outcome, 'rgb-noise-accuracy'), [['0', '0.75/4', '0.25/4'], ['0.5', '0.75/4', '0.25/4']]);
  const interval = outcome.reports[0]!.tables[0]!.rows[0]!.cells[0]!;
  // Wilson 95% for 3/4, by hand: centre (0.75 + 1.96²/8) / (1 + 1.96²/4) = 0.6275, half-width 0.3269.
  assert.ok(Math.abs(interval.low! - 0.3006) < 1e-3 && Math.abs(interval.high! - 0.9544) < 1e-3, `${interval.low}–${interval.high}`);
  assert.equal(metric(outcome, MODEL_A, 'accuracy'), 0.75);
  assert.equal(outcome.reports[0]!.method, 'stress');
  const problem = outcome.problems.find((p) => p.line === 5);
  assert.ok(problem && problem.file.endsWith('qa.jsonl') && /contains the reference answer "Shakespeare"/.test(problem.message), JSON.stringify(outcome.problems));
  const logged = (await loggedRun(outcome)).cases.get('noise/france/noise=0.5')!;
  assert.deepEqual(logged.documents.map((d) => d.role).sort(), ['negative', 'positive']);
  assert.equal(logged.documents.find((d) => d.role === 'positive')!.text, 'Paris is the capital of France.');
});

test('negative rejection with the user\'s own refusal phrase: Rej (case-sensitive, as RGB) beside Rej* from a scripted judge', async () => {
  script('model-a', ["I don't know.", "Sorry, I don't know", 'Toronto', "I DON'T KNOW"]);
  script('model-b', ['Paris', 'Tokyo', 'Ottawa', 'Nairobi']);
  server.addRule({ match: (req: RecordedRequest) => req.model === 'judge' && /Answer: [^\n]*know/i.test(req.lastUserMessage), reply: 'No, the question is not addressed by the documents.' });
  server.addRule({ match: { model: 'judge' }, reply: 'Yes, the question is addressed by the documents.' });
  const outcome = await run(`  - { id: rej, method: stress, dataset: qa.jsonl, params: { testbed: negative_rejection, passageNum: 2, refusal: "I don't know" } }\n`, true);
  // model-a: replies 0 and 1 carry the phrase; 3 only in another case (reference mode: no rejection).
  // model-b answers every question correctly from memory: RGB's reference mode counts that as a rejection (issue #9).
  assert.deepEqual(cells(outcome, 'rgb-rejection'), [['Rej', '0.5/4', '1/4'], ['Rej*', '0.75/4', '0/4']]);
  const asked = server.requests.find((r) => r.model === 'model-a' && r.text.includes('capital of France?'))!;
  assert.match(asked.text, /you will say 'I don't know'/, 'the built-in prompt asks for the user\'s phrase');
  assert.ok(asked.text.split('\n').every((line) => !line.includes('Paris')), 'no answer-bearing passage is shown');
});

test('counterfactual robustness with the fake answer from a column: Acc_doc, ED and CR as RGB counts them', async () => {
  script('model-a', [
    'There are factual errors in the provided documents. The answer is Paris.',
    'Osaka',
    'There are factual errors in the provided documents.',
    'Nairobi',
  ]);
  script('model-b', ['Lyon', 'Osaka', 'Toronto', 'Mombasa']);
  const outcome = await run('  - { id: fact, method: stress, dataset: qa-fake.jsonl, params: { testbed: counterfactual_robustness, passageNum: 2 } }\n');
  // model-a: correct on rows 0 and 3 (2/4); error detected on rows 0 and 2 (2/4); of those, row 0 misses no part (1/2).
  // model-b detects no error, so its CR cell is over no case: shown as "—" (no value), not 0/0.
  assert.deepEqual(cells(outcome, 'rgb-counterfactual').filter((r) => ['Acc_doc', 'ED', 'CR'].includes(r[0] as string)), [
    ['Acc_doc', '0.5/4', '0/4'], ['ED', '0.5/4', '0/4'], ['CR', '0.5/2', null],
  ]);
  const logged = (await loggedRun(outcome)).cases.get('fact/japan/noise=0')!;
  assert.deepEqual(logged.documents.map((d) => [d.role, d.text]).filter(([role]) => role === 'counterfactual'), [['counterfactual', 'Osaka is the capital of Japan.']]);
});

/** model-a loses the answer when it is the middle one of three documents; elsewhere it finds it. */
function middleBlind(req: RecordedRequest): string {
  const documents = /Document:\n([\s\S]*?)\n\s*\nQuestion:/.exec(req.lastUserMessage)?.[1]?.split('\n') ?? [];
  const at = documents.findIndex((line) => / is the capital of /.test(line));
  const city = /^(\w+) is the capital/.exec(documents[at] ?? '')?.[1] ?? '';
  return at === 1 ? 'I am not sure.' : `${city}.`;
}

test('position: the answer-bearing passage at each of k+1 positions gives the accuracy curve, by hand 4/4, 0/4, 4/4', async () => {
  server.addRule({ match: { model: 'model-a' }, reply: middleBlind });
  server.addRule({ match: { model: 'model-b' }, reply: 'I am not sure.' });
  const outcome = await run('  - { id: pos, method: stress, dataset: qa.jsonl, params: { testbed: position, k: 2 } }\n');
  assert.deepEqual(cells(outcome, 'stress-position'), [['1 (first)', '1/4', '0/4'], ['2', '0/4', '0/4'], ['3 (last)', '1/4', '0/4']]);
  assert.equal(metric(outcome, MODEL_A, 'accuracy@position=2'), 0);
  assert.equal(metric(outcome, MODEL_A, 'accuracy'), 8 / 12);
  const logged = (await loggedRun(outcome)).cases.get('pos/kenya/position=1')!;
  assert.deepEqual(logged.documents.map((d) => d.role), ['negative', 'positive', 'negative']);
  assert.equal(metric(outcome, MODEL_B, 'accuracy'), 0);
});
