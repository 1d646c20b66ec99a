// An explanation is an ordinary, resumable piece of work: cancelled midway it keeps every finished variant, run again
// it makes only the missing ones; over a cached run it makes only the new variants' calls, as its plan said.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { explainRun, planExplanation } from '../../../src/core/explain/explainRun.js';
import { readRunLog } from '../../../src/core/run/runLog.js';

let server: FixtureServer;
let dir: string;
useFixtureServer((started) => { server = started; });
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'explain-resume-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const credentials = envCredentials({});
const REFUSAL = 'I can not answer the question because of the insufficient information in documents.';

/** Answers only when the marker passage is shown. */
const model = (req: RecordedRequest) => (req.lastUserMessage.includes('MARKER') ? 'Tampa, Florida.' : REFUSAL);

function workspace(name: string): string {
  const ws = mkdtempSync(path.join(dir, `${name}-`));
  const rows = [0, 1].map((i) => ({
    id: i, query: `Where was Super Bowl 2021 played (row ${i})?`, answer: 'Tampa, Florida',
    positive: [`MARKER ${i}: Super Bowl LV was played in Tampa, Florida.`], negative: ['Tickets are on sale.', 'The halftime show drew a record audience.', 'Fans travelled far.'],
  }));
  writeFileSync(path.join(ws, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const evalFile = path.join(ws, 'x.eval.yaml');
  writeFileSync(evalFile, `version: 1\nname: resume\nmodels:\n  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }\nconcurrency: 2\nmaxRetries: 0\nsuites:\n  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0.75], passageNum: 4 } }\n`);
  return evalFile;
}

/** What a request asked, for telling repeats apart. */
const asked = (req: RecordedRequest) => JSON.stringify((req.body as { messages: { role: string; content: string }[] }).messages.map(({ role, content }) => ({ role, content })));

it('cancelled midway, then run again: nothing finished is asked twice, nothing is lost', async () => {
  server.addRule({ match: { model: 'model-a' }, reply: model });
  server.setLatency(20);
  const run = await runEvaluation(workspace('cancel'), { signal: new AbortController().signal, credentials });
  const runRequests = server.requests.length;

  // No response cache for the explanation: only its variant log can keep it from asking again.
  const controller = new AbortController();
  let finished = 0;
  const first = await explainRun(run.logFile, {
    signal: controller.signal, credentials, noCache: true,
    onEvent: (event) => {
      if (event.type === 'variant-finished' && ++finished === 6) controller.abort();
    },
  });
  assert.equal(first.explanation?.status, 'cancelled');
  const logged = await readRunLog(first.explanation!.variantLog);
  assert.ok(logged.cases.length >= 6, 'every finished variant is in the variant log');
  // What finished before the cancel: the variants logged (a call cut short in flight is not, and is asked again).
  const answered = new Set(logged.cases.map((line) => JSON.stringify(line.case.messages.map(({ role, content }) => ({ role, content })))));
  const firstSession = server.requests.slice(runRequests);
  const sent = new Set(firstSession.map(asked));
  // The same form on both sides, or the check below could never fail: every logged variant was a request this session sent.
  for (const key of answered) assert.ok(sent.has(key), 'a logged variant is one of the requests sent');
  assert.ok(first.explanation!.cases.some((c) => c.missingVariants > 0), 'the explanation says it is partial');

  const before = server.requests.length;
  const plan = await planExplanation(run.logFile, { signal: new AbortController().signal, credentials, noCache: true });
  assert.equal(plan.alreadyDone >= 6, true);
  const second = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, noCache: true });
  const secondSession = server.requests.slice(before);
  assert.equal(secondSession.length, plan.calls, 'the resumed explanation makes exactly the calls its plan priced');
  for (const req of secondSession) assert.ok(!answered.has(asked(req)), 'a variant answered before cancel is not asked again');

  assert.equal(second.explanation?.status, 'complete');
  for (const c of second.explanation!.cases) {
    assert.equal(c.missingVariants, 0);
    assert.deepEqual(c.attributions.filter((a) => a.effect === 'decisive').map((a) => c.sources.find((s) => s.id === a.sourceId)!.preview.slice(0, 6)), ['MARKER']);
  }
  server.setLatency(0);
});

it('over a cached run, only the new variants are called: the original comes from the cache', async () => {
  server.addRule({ match: { model: 'model-a' }, reply: model });
  const run = await runEvaluation(workspace('cached'), { signal: new AbortController().signal, credentials });
  const originals = new Set(server.requests.map(asked));
  const before = server.requests.length;

  const plan = await planExplanation(run.logFile, { signal: new AbortController().signal, credentials, caseIds: ['noise/0/noise=0.75'] });
  assert.equal(plan.cases.length, 1);
  assert.ok(plan.fromCache >= 2, 'the original, and the position that is the original order, are cached');
  assert.equal(server.requests.length, before, 'planning calls nothing');

  const explained = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, caseIds: ['noise/0/noise=0.75'] });
  const made = server.requests.slice(before);
  assert.equal(made.length, plan.calls);
  for (const req of made) assert.ok(!originals.has(asked(req)), 'no request of the run is made again');
  assert.equal(explained.explanation?.cases[0]?.original.cached, true);

  // Explaining again costs nothing: every variant is in the variant log.
  const again = await planExplanation(run.logFile, { signal: new AbortController().signal, credentials, caseIds: ['noise/0/noise=0.75'] });
  assert.equal(again.calls, 0);
  assert.equal(again.alreadyDone, again.variants);
});

it('--max-calls bounds the calls, and the plan says it cut variants off', async () => {
  server.addRule({ match: { model: 'model-a' }, reply: model });
  const run = await runEvaluation(workspace('budget'), { signal: new AbortController().signal, credentials });
  const before = server.requests.length;
  const explained = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, maxCalls: 5 });
  assert.equal(explained.plan.truncated, true);
  assert.equal(explained.plan.calls, 5);
  assert.equal(server.requests.length - before, 5);
});
