// humanLabels: <column> on a suite — the dataset's own labels reach each case (for agreement), an unreadable cell is
// reported at its row and gives no label.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { parseHumanLabel } from '../../../src/core/suites/humanLabels.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

describe('human labels from the dataset', () => {
  it('reads correct / wrong and their usual spellings; empty is no label; anything else is an error', () => {
    assert.deepEqual(['correct', ' Wrong ', true, 0, 'yes', 'FAIL', '', null].map(parseHumanLabel), [true, false, true, false, true, false, undefined, undefined]);
    assert.ok(parseHumanLabel('maybe') instanceof Error);
    assert.ok(parseHumanLabel(3) instanceof Error);
  });

  it('a run puts each row\'s label on its cases and reports an unreadable cell at its line', async (t) => {
    server.addRule({ reply: '{"content": 4}' });
    const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-human-labels-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const rows = [{ context: 'a', response: 'A', ok: 'correct' }, { context: 'b', response: 'B', ok: 'wrong' }, { context: 'c', response: 'C', ok: 'maybe' }, { context: 'd', response: 'D' }];
    writeFileSync(path.join(dir, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    writeFileSync(path.join(dir, 'x.eval.yaml'), `version: 1
models:
  - { provider: openai-compatible, model: chat, baseUrl: ${server.openaiBaseUrl} }
judge: { provider: openai-compatible, model: judge, baseUrl: ${server.openaiBaseUrl} }
suites:
  - id: le
    method: llm-eval
    dataset: data.jsonl
    humanLabels: ok
    params: { dimensions: [content] }
`);
    const outcome = await runEvaluation(path.join(dir, 'x.eval.yaml'), { signal: new AbortController().signal, credentials: envCredentials({}) });
    const cases = (await readRunLog(outcome.logFile)).cases.map((l) => l.case);
    // Cases are logged as they finish, several at a time: compared in row order.
    const byRow = cases.map((c) => [c.givenResponse, c.humanLabel]).sort(([a], [b]) => String(a).localeCompare(String(b)));
    assert.deepEqual(byRow, [['A', true], ['B', false], ['C', undefined], ['D', undefined]]);
    const problem = outcome.problems.find((p) => p.message.includes('maybe'));
    assert.ok(problem, JSON.stringify(outcome.problems));
    assert.match(`${problem.file}:${problem.line}`, /data\.jsonl:3$/);
  });
});
