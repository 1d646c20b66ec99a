// A judge cut at its token limit: the error says so (the finish reason), through the real OpenAI SDK; and the numbers
// every table prints: exact Wilson bounds at 0/n and n/n, one format for values and intervals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { createModelClient } from '../../../src/core/run/modelClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import { judgeJson } from '../../../src/core/suites/judging.js';
import { wilson } from '../../../src/core/stats.js';
import { wilsonCell } from '../../../src/core/suites/reportCells.js';
import { formatCell } from '../../../src/core/report/summaryText.js';
import { formatCellNumber } from '../../../src/core/numberFormat.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
}, { flavour: 'llama.cpp' });

const schema = { name: 'verdict', schema: { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'] } };

describe('a judge answer cut by the token limit', () => {
  it('says the judge stopped at its token limit and to raise maxTokens, instead of only "not JSON"', async () => {
    server.addRule({ reply: '{"verdict": "the answer is supported by the second document"}' });
    const provider = new OpenAIProvider({ baseURL: server.openaiBaseUrl, id: 'openai-compatible' });
    const client = createModelClient({ key: 'openai-compatible:judge', provider, model: 'judge', parameters: {}, scheduler: new Scheduler({ concurrency: 1, maxRetries: 0, timeoutMs: 5000 }) });
    const outcome = await judgeJson(client, { ...schema, messages: [{ role: 'user', content: 'Judge.' }], maxTokens: 4 }, new AbortController().signal);
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.match(outcome.error, /not JSON: .*the judge stopped at its token limit \(finish reason "length"\); raise the judge's maxTokens/);
    assert.equal(server.requests.length, 1, 'no repair call: it would be cut the same way');
  });
});

describe('numbers', () => {
  it('Wilson bounds are exactly 0 at 0/n and exactly 1 at n/n', () => {
    for (const n of [1, 3, 7, 20, 101]) {
      assert.equal(wilson(0, n).low, 0);
      assert.equal(wilson(n, n).high, 1);
    }
  });

  it('values and intervals print one way: whole numbers bare, others to three decimals', () => {
    assert.equal(formatCell(wilsonCell(0, 3, 0)), '0 [0, 0.561] n=3');
    assert.equal(formatCell(wilsonCell(3, 3, 0)), '1 [0.439, 1] n=3');
    assert.equal(formatCell(wilsonCell(1, 2, 0)), '0.500 [0.095, 0.905] n=2');
    assert.equal(formatCellNumber(5.55e-17), '0.000');
  });
});
