// Explaining a batched run, for each vendor: the variants (independent cases) go through the vendor's batch API as
// one wave, recorded in the variant log like a run's batches, and give the same attributions as an interactive
// explanation; a cancelled explanation cancels its remote batch and finishes later without losing a variant.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { explainRun } from '../../../src/core/explain/explainRun.js';
import type { RunExplanation } from '../../../src/core/explain/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});
beforeEach(() => {
  server.setBatchProcessingMs(0);
});

const credentials = envCredentials({ ANTHROPIC_API_KEY: 'sk-ant-explain-batch-test' });
const REFUSAL = 'I can not answer the question because of the insufficient information in documents.';

interface Vendor {
  name: string;
  model: () => string;
  interactivePath: string;
  batchPath: string;
  cancelPath: (batchId: string) => string;
}

const VENDORS: Vendor[] = [
  {
    name: 'openai',
    model: () => `{ provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }`,
    interactivePath: '/v1/chat/completions',
    batchPath: '/v1/batches',
    cancelPath: (batchId) => `/v1/batches/${batchId}/cancel`,
  },
  {
    name: 'anthropic',
    model: () => `{ provider: anthropic, model: claude-haiku-4-5, baseUrl: ${server.anthropicBaseUrl} }`,
    interactivePath: '/v1/messages',
    batchPath: '/v1/messages/batches',
    cancelPath: (batchId) => `/v1/messages/batches/${batchId}/cancel`,
  },
];

/** The planted cause: the model answers only when the marker passage is shown. */
function scriptModel(): void {
  server.addRule({ match: (req: RecordedRequest) => req.path !== '/v1/models', reply: (req) => (req.lastUserMessage.includes('MARKER') ? 'Tampa, Florida.' : REFUSAL) });
}

function workspace(vendor: Vendor, batch: boolean, t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'explain-batch-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const rows = [0, 1].map((i) => ({
    id: i, query: `Where was Super Bowl 2021 played (row ${i})?`, answer: 'Tampa, Florida',
    positive: [`MARKER ${i}: Super Bowl LV was played in Tampa, Florida.`], negative: ['Tickets are on sale.', 'The halftime show drew a record audience.', 'Fans travelled far.'],
  }));
  writeFileSync(path.join(dir, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const evalFile = path.join(dir, 'x.eval.yaml');
  const model = batch ? vendor.model().replace(' }', ', batch: true }') : vendor.model();
  writeFileSync(evalFile, `version: 1\nname: explain batch\nmodels:\n  - ${model}\nconcurrency: 2\nmaxRetries: 0\nsuites:\n  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0.75], passageNum: 4 } }\n`);
  return evalFile;
}

const posts = (pathname: string) => server.requests.filter((r) => r.method === 'POST' && r.path === pathname).length;

/** What an explanation found, without when or how it was run. */
const findings = (explanation: RunExplanation | undefined) => explanation?.cases.map((c) => ({ caseId: c.caseId, attributions: c.attributions, missing: c.missingVariants }));

for (const vendor of VENDORS) {
  test(`${vendor.name}: a batched run's variants go out as one vendor batch, recorded in the variant log, with the interactive explanation's attributions`, async (t) => {
    scriptModel();
    const interactiveRun = await runEvaluation(workspace(vendor, false, t), { signal: new AbortController().signal, credentials });
    // No response cache: every variant is asked, so both modes answer the same requests.
    const interactive = await explainRun(interactiveRun.logFile, { signal: new AbortController().signal, credentials, noCache: true });
    assert.equal(interactive.explanation?.status, 'complete');

    const batchedRun = await runEvaluation(workspace(vendor, true, t), { signal: new AbortController().signal, credentials });
    assert.equal((await readRunLog(batchedRun.logFile)).batches.length, 1);
    server.requests.length = 0;
    const batched = await explainRun(batchedRun.logFile, { signal: new AbortController().signal, credentials, noCache: true });
    assert.equal(batched.explanation?.status, 'complete');
    assert.equal(posts(vendor.interactivePath), 0, 'no variant was asked interactively');
    assert.equal(posts(vendor.batchPath), 1, 'every variant of both cases in one batch');
    const variantLog = await readRunLog(batched.explanation!.variantLog);
    assert.equal(variantLog.batches.length, 1);
    assert.equal(variantLog.batches[0]?.requests.length, batched.plan.calls);

    assert.deepEqual(findings(batched.explanation), findings(interactive.explanation));
    for (const c of batched.explanation!.cases) {
      assert.deepEqual(c.attributions.filter((a) => a.effect === 'decisive').map((a) => c.sources.find((s) => s.id === a.sourceId)!.preview.slice(0, 6)), ['MARKER']);
    }
  });

  test(`${vendor.name}: a run made with --batch explains in batch mode; cancelled while its batch runs, the remote batch is cancelled; run again, it finishes what is missing`, async (t) => {
    scriptModel();
    // Batch mode from the command line, not the eval file: the run log's batch lines say how the model was called.
    const run = await runEvaluation(workspace(vendor, false, t), { signal: new AbortController().signal, credentials, overrides: { batch: true } });
    server.setBatchProcessingMs(60 * 60_000);
    server.requests.length = 0;
    const controller = new AbortController();
    let variantLog = '';
    const explaining = explainRun(run.logFile, { signal: controller.signal, credentials, noCache: true, onEvent: (event) => { if (event.type === 'explain-started') variantLog = event.variantLog; } });
    await waitFor(() => (posts(vendor.batchPath) > 0 && variantLog ? true : undefined), 'the variants submitted');
    // Cancelled while its batch runs: once the batch is in the variant log. The server sees the POST a moment before the
    // client has its answer and records it; cancelling inside that moment is another case than the one tested here.
    for (let tries = 0; tries < 200 && (await readRunLog(variantLog)).batches.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const cancelled = await explaining;
    assert.equal(cancelled.explanation?.status, 'cancelled');
    const logged = await readRunLog(cancelled.explanation!.variantLog);
    assert.equal(logged.cases.length, 0, 'no variant was answered');
    assert.equal(logged.batches.length, 1, 'the batch is in the variant log');
    const batchId = logged.batches[0]?.batchId ?? '';
    await waitFor(() => (posts(vendor.cancelPath(batchId)) > 0 ? true : undefined), 'the remote batch cancelled', 5_000);

    server.setBatchProcessingMs(0);
    const finished = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, noCache: true });
    assert.equal(finished.explanation?.status, 'complete');
    assert.ok(finished.explanation!.cases.every((c) => c.missingVariants === 0));
    assert.equal(posts(vendor.interactivePath), 0);
  });
}
