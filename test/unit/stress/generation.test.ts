// Fake answers generated for a user's RAGAS-style rows by the IF-RAG generator (through the real OpenAI SDK and the
// fixture server), then used by the counterfactual testbed: checked by the generator's check, recorded in the case.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import type { DatasetRow } from '../../../src/core/model.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { createModelClient } from '../../../src/core/run/modelClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import { generateCounterfactuals } from '../../../src/core/suites/ifrag/counterfactual.js';
import { expandStressRow, stressCaseParams } from '../../../src/core/suites/stress/cases.js';
import { looksLikeStressRow, stressRowForGeneration } from '../../../src/core/suites/stress/counterfactual.js';
import { parseStressParams } from '../../../src/core/suites/stress/params.js';

let server: FixtureServer;
useFixtureServer((started) => { server = started; });

const ROWS = [
  // The generator sees only contexts[0] and contexts[2], the passages bearing "Tokyo".
  { id: 'jp', user_input: 'What is the capital of Japan?', reference: 'Tokyo', retrieved_contexts: ['Tokyo is the capital of Japan.', 'Japan is an island country.', 'The Diet meets in Tokyo.'] },
  { id: 'fr', user_input: 'What is the capital of France?', reference: 'Paris', retrieved_contexts: ['Paris is the capital of France.', 'France borders Spain.'] },
];
const rows: DatasetRow[] = ROWS.map((data, index) => ({ ref: { file: 'qa.jsonl', line: index + 1, index }, data }));

function client() {
  const provider = new OpenAIProvider({ id: 'openai-compatible', baseURL: server.openaiBaseUrl });
  return createModelClient({ key: 'openai-compatible:generator', provider, model: 'generator', parameters: {}, scheduler: new Scheduler({ concurrency: 2, maxRetries: 1, timeoutMs: 5000 }) });
}

const asks = (question: string) => (req: RecordedRequest) => req.text.includes(question) && !req.lastUserMessage.startsWith('Your answer cannot be used');

describe('generate-counterfactual on stress rows', () => {
  it('recognises RAGAS-style rows and sends only the answer-bearing passages', () => {
    assert.equal(looksLikeStressRow(ROWS[0]!), true);
    assert.equal(looksLikeStressRow({ question: 'q', answer: 'a', passages: ['p'] }), false);
    assert.deepEqual(stressRowForGeneration(rows[0]!).passages, ['Tokyo is the capital of Japan.', 'The Diet meets in Tokyo.']);
  });

  it('generates, checks (a leak is retried then recorded as failed), and the counterfactual testbed uses what passed', async () => {
    server.addRule({ match: asks(ROWS[0]!.user_input), reply: JSON.stringify({ answer: 'Kyoto', passages: ['Kyoto is the capital of Japan.', 'The Diet meets in Kyoto.'] }) });
    // France: the rewritten passage still names Paris, on the first try and on the retry.
    server.addRule({ match: { contains: ROWS[1]!.user_input }, reply: JSON.stringify({ answer: 'Lyon', passages: ['Lyon, not Paris, is the capital of France.'] }) });
    const summary = await generateCounterfactuals({ rows, client: client(), signal: new AbortController().signal, seed: 7, readRow: stressRowForGeneration });
    assert.deepEqual(summary.outcomes.map((o) => o.status), ['generated', 'failed']);
    assert.match((summary.outcomes[1] as { reason: string }).reason, /still mentions the true answer "Paris"/);

    const generated: DatasetRow = { ref: rows[0]!.ref, data: summary.outcomes[0]!.data };
    const params = parseStressParams({ testbed: 'counterfactual_robustness', passageNum: 2 }, { file: 'x.eval.yaml' });
    const [c] = expandStressRow(generated, params, { suiteId: 's', seed: 1, models: [] }, { items: [] });
    assert.deepEqual(c!.documents.map((d) => [d.role, d.text]).sort(), [['counterfactual', 'Kyoto is the capital of Japan.'], ['counterfactual', 'The Diet meets in Kyoto.']]);
    assert.deepEqual(c!.expected, { answer: [['Tokyo']], fakeanswer: [['Kyoto']] });
    assert.equal(stressCaseParams(c!).fakeAnswerOrigin, 'generated');
    assert.deepEqual(stressCaseParams(c!).generatedBy, { model: 'openai-compatible:generator', seed: 7, calls: 1 });
  });
});
