// Counterfactual generation through the real OpenAI SDK and the fixture server: valid output, the retry, recorded failures, the CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { readDataset } from '../../../src/core/data/readDataset.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { createModelClient } from '../../../src/core/run/modelClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import { generateCounterfactuals, generationProblem, toJsonLines } from '../../../src/core/suites/ifrag/counterfactual.js';
import { readIfRagRow } from '../../../src/core/suites/ifrag/rows.js';
import { datasetRow } from './builders.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import type { DatasetRow } from '../../../src/core/model.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

const ROWS = {
  tokyo: { id: 'tokyo', question: 'What is the capital of Japan?', answer: 'Tokyo', passages: ['Tokyo is the capital of Japan.', 'The Diet meets in Tokyo.'] },
  paris: { id: 'paris', question: 'What is the capital of France?', answer: ['Paris', 'City of Light'], passages: ['Paris is the capital of France.'] },
  jupiter: { id: 'jupiter', question: 'What is the largest planet?', answer: 'Jupiter', passages: ['Jupiter is the largest planet.'] },
  garbage: { id: 'garbage', question: 'Who wrote Hamlet?', answer: 'Shakespeare', passages: ['Shakespeare wrote Hamlet.'] },
  done: { id: 'done', question: 'Who painted the Mona Lisa?', answer: 'Leonardo', passages: ['Leonardo painted it.'], counterfactual: { answer: 'Raphael', passages: ['Raphael painted it.'] } },
};

const json = (answer: string, passages: string[]) => JSON.stringify({ answer, passages });
const isRetry = (req: RecordedRequest) => req.lastUserMessage.startsWith('Your answer cannot be used');
const asks = (question: string, retry: boolean) => (req: RecordedRequest) => req.text.includes(question) && isRetry(req) === retry;

/** Tokyo: right first time. Paris: keeps "Paris" in the evidence twice. Jupiter: wrong once, right on the retry. Hamlet: never JSON. */
function scriptGenerator(): void {
  server.addRule({ match: asks(ROWS.tokyo.question, false), reply: json('Kyoto', ['Kyoto is the capital of Japan.', 'The Diet meets in Kyoto.']) });
  server.addRule({ match: asks(ROWS.paris.question, false), reply: json('Lyon', ['Lyon, not Paris, is the capital of France.']) });
  server.addRule({ match: asks(ROWS.paris.question, true), reply: json('Lyon', ['Lyon replaced Paris as the capital of France.']) });
  server.addRule({ match: asks(ROWS.jupiter.question, false), reply: json('Saturn', ['The largest planet is the ringed one.']) });
  server.addRule({ match: asks(ROWS.jupiter.question, true), reply: json('Saturn', ['Saturn is the largest planet.']) });
  server.addRule({ match: { contains: ROWS.garbage.question }, reply: 'Sure! Here is a counterfactual.' });
}

function client() {
  const provider = new OpenAIProvider({ id: 'openai-compatible', baseURL: server.openaiBaseUrl });
  const scheduler = new Scheduler({ concurrency: 2, maxRetries: 1, timeoutMs: 5000 });
  return createModelClient({ key: 'openai-compatible:fixture-generator', provider, model: 'fixture-generator', parameters: {}, scheduler });
}

const rowsOf = (...data: Record<string, unknown>[]): DatasetRow[] => data.map((d, i) => datasetRow(d, i, 'qa.jsonl'));

describe('generateCounterfactuals', () => {
  it('writes valid rows whose substituted answer is in every rewritten passage; a bad generation is retried, then recorded as failed', async () => {
    scriptGenerator();
    const summary = await generateCounterfactuals({ rows: rowsOf(ROWS.tokyo, ROWS.paris, ROWS.jupiter, ROWS.garbage, ROWS.done), client: client(), signal: new AbortController().signal, seed: 7, concurrency: 2 });
    assert.deepEqual(summary.outcomes.map((o) => o.status), ['generated', 'failed', 'generated', 'failed', 'kept']);
    assert.deepEqual([summary.generated, summary.kept, summary.failed], [2, 1, 2]);

    const [tokyo, paris, jupiter, garbage] = summary.outcomes;
    assert.equal(tokyo!.calls, 1);
    assert.equal(jupiter!.calls, 2, 'one retry after the failed check');
    assert.ok(paris?.status === 'failed');
    assert.match(paris.reason, /^after one retry: passage 1 still mentions the true answer "Paris"/);
    assert.equal(paris.calls, 2);
    assert.ok(garbage?.status === 'failed');
    assert.match(garbage.reason, /^model output is not valid \(not JSON/);

    // Every request asked for structured output; the retry carried the first answer and what was wrong with it.
    const chat = server.requests.filter((r) => r.api === 'openai-chat');
    assert.equal(chat.length, 1 + 2 + 2 + 2);
    assert.ok(chat.every((r) => (r.body as { response_format?: { type?: string } }).response_format?.type === 'json_schema'));
    const retry = chat.find((r) => r.text.includes(ROWS.jupiter.question) && isRetry(r));
    const messages = (retry?.body as { messages: { role: string; content: string }[] }).messages;
    assert.equal(messages.at(-2)?.role, 'assistant');
    assert.equal(messages.at(-2)?.content, json('Saturn', ['The largest planet is the ringed one.']));
    assert.match(messages.at(-1)?.content ?? '', /passage 1 of 1 do not contain the substitute answer "Saturn"/);
    const first = chat.find((r) => r.text.includes(ROWS.paris.question) && !isRetry(r));
    assert.match(first?.text ?? '', /True answer: Paris \(also written: City of Light\)/);

    // The new file: every row, in order; generated rows are valid IF-RAG rows; failed rows carry their reason, not the bad text.
    const dir = mkdtempSync(path.join(tmpdir(), 'ifrag-cf-'));
    try {
      const file = path.join(dir, 'out.jsonl');
      writeFileSync(file, toJsonLines(summary));
      const written: DatasetRow[] = [];
      for await (const item of readDataset(file)) if (item.ok) written.push(item.row);
      assert.deepEqual(written.map((r) => r.data.id), ['tokyo', 'paris', 'jupiter', 'garbage', 'done']);
      for (const row of [written[0]!, written[2]!]) {
        const parsed = readIfRagRow(row);
        const substitute = parsed.counterfactual!.answer[0]!;
        assert.equal(parsed.counterfactual!.passages.length, parsed.passages.length);
        for (const passage of parsed.counterfactual!.passages) {
          assert.ok(passage.includes(substitute), passage);
          assert.ok(!parsed.answer.some((a) => passage.includes(a)), passage);
        }
      }
      assert.deepEqual((written[0]!.data.counterfactual as { generatedBy: unknown }).generatedBy, { model: 'openai-compatible:fixture-generator', seed: 7, calls: 1 });
      assert.equal(written[1]!.data.counterfactual, undefined);
      assert.match(String(written[1]!.data.counterfactualError), /still mentions the true answer "Paris"/);
      assert.deepEqual(written[4]!.data, ROWS.done);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports progress per row, and a row that is not an IF-RAG row fails without a call', async () => {
    scriptGenerator();
    const seen: string[] = [];
    const summary = await generateCounterfactuals({
      rows: rowsOf(ROWS.tokyo, { id: 'broken', question: 'Q?' }),
      client: client(),
      signal: new AbortController().signal,
      seed: 1,
      onProgress: ({ done, total, failed }) => seen.push(`${done}/${total}/${failed}`),
    });
    // The broken row needs no call, so it finishes first.
    assert.deepEqual(seen, ['1/2/1', '2/2/1']);
    assert.ok(summary.outcomes[1]!.status === 'failed');
    assert.match(summary.outcomes[1]!.reason, /not a usable IF-RAG row: IF-RAG row field "answer": missing/);
    assert.equal(server.requests.filter((r) => r.api === 'openai-chat').length, 1);
  });

  it('cancellation rejects instead of writing half a dataset', async () => {
    server.addRule({ match: { contains: ROWS.tokyo.question }, fault: { kind: 'hang' } });
    const controller = new AbortController();
    const running = generateCounterfactuals({ rows: rowsOf(ROWS.tokyo), client: client(), signal: controller.signal, seed: 1 });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(running);
  });
});

describe('generationProblem', () => {
  const row = readIfRagRow(datasetRow(ROWS.tokyo, 0));
  it('names each problem', () => {
    assert.equal(generationProblem({ answer: 'Kyoto', passages: ['Kyoto.', 'In Kyoto.'] }, row), undefined);
    assert.match(generationProblem({ answer: 'Tokyo Metropolis', passages: ['Tokyo Metropolis.', 'x'] }, row) ?? '', /is or overlaps the true answer "Tokyo"/);
    assert.match(generationProblem({ answer: 'Kyoto', passages: ['Kyoto.'] }, row) ?? '', /expected 2 rewritten passages, got 1/);
    assert.match(generationProblem({ answer: ' ', passages: ['a', 'b'] }, row) ?? '', /empty/);
    assert.equal(generationProblem({ answer: 'Kyoto', passages: ['Kyoto, near tokyo.', 'Nara.'] }, row), 'passage 2 of 2 do not contain the substitute answer "Kyoto"; passage 1 still mentions the true answer "Tokyo"');
  });
});

describe('rag-inspector generate-counterfactual', () => {
  const CLI = path.resolve('src/cli/main.ts');
  function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, CI: 'true', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  }

  it('writes the new file, prints progress and a summary with the failed rows, exits 1 when some failed', async () => {
    scriptGenerator();
    const dir = mkdtempSync(path.join(tmpdir(), 'ifrag-cli-'));
    try {
      const input = path.join(dir, 'qa.jsonl');
      writeFileSync(input, [ROWS.tokyo, ROWS.paris].map((r) => JSON.stringify(r)).join('\n') + '\n');
      const out = path.join(dir, 'qa.counterfactual.jsonl');
      const run = await cli(['generate-counterfactual', input, '--model', 'openai-compatible:fixture-generator', '--out', out, '--seed', '11'], { OPENAI_BASE_URL: server.openaiBaseUrl });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /progress: 2\/2 cases \(1 failed\)/);
      assert.match(run.stdout, /Generated counterfactual data for 1 row\(s\); 0 already had it; 1 failed\./);
      assert.match(run.stdout, /qa\.jsonl:2 \(id paris\): after one retry: passage 1 still mentions the true answer "Paris"/);
      const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(lines.map((l) => l.id), ['tokyo', 'paris']);
      assert.equal((lines[0]!.counterfactual as { answer: string }).answer, 'Kyoto');
      const sent = server.requests.find((r) => r.api === 'openai-chat')?.body as { seed?: number };
      assert.equal(sent.seed, 11, 'the seed reaches the provider');

      const same = await cli(['generate-counterfactual', input, '--model', 'openai-compatible:x', '--out', input], { OPENAI_BASE_URL: server.openaiBaseUrl });
      assert.equal(same.code, 2);
      assert.match(same.stderr, /--out must name a new file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
