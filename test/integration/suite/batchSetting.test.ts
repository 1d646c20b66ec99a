// The ragInspector.batch setting: a run started in VS Code goes through the vendor's batch API (the fixture server's
// OpenAI batch endpoints, reached by the real OpenAI SDK), with the same eval file as an interactive run.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { caseRequests } from '../../fixtures/llmServer.js';
import { fixtureEval } from './fixtureEval.js';
import type { FixtureEval } from './fixtureEval.js';
import { asSummary } from './inlineFixtures.js';
import { activatedExtension, outputChannelLog } from './extensionHost.js';
import { RunStatusBar } from '../../../src/extension/statusBar.js';
import { batchSaving } from '../../../src/extension/costGuard.js';
import { estimateCost } from '../../../src/core/engine/costEstimate.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';

suite('batch mode setting', () => {
  let fixture: FixtureEval;
  const config = () => vscode.workspace.getConfiguration('ragInspector');

  suiteSetup(async () => {
    await activatedExtension();
    fixture = await fixtureEval('batch-setting');
  });

  suiteTeardown(async () => {
    await config().update('batch', undefined, vscode.ConfigurationTarget.Global);
    await fixture?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('ragInspector.batch on: Run Evaluation sends the cases as one batch, none interactively, and scores each result', async () => {
    const { testing } = await activatedExtension();
    await config().update('batch', true, vscode.ConfigurationTarget.Global);
    const run = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.uri));
    const batches = [...fixture.server.batches.batches.values()];
    assert.equal(batches.length, 1, 'one batch submitted');
    assert.equal(batches[0]!.counts.total, 3, 'the three cases in it');
    const interactive = caseRequests(fixture.server.requests).filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(interactive.length, 0, 'no case was asked interactively');
    // The fixture's rules answer in the batch as they do interactively: one right, one wrong, one a 400 (an item error).
    assert.deepEqual([run.totals.passed, run.totals.failed, run.totals.error], [1, 1, 1]);
    assert.equal(run.status, 'completed-with-errors');
    // The output channel follows the batch as the CLI prints it.
    await outputChannelLog(testing.logUri, `batch ${batches[0]!.id} (openai-compatible:fixture-model): submitted, 3 requests`);
    const log = await readRunLog(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.rag-inspector', 'runs', `${run.runId}.jsonl`));
    assert.deepEqual(log.batches.map((b) => b.requests.length), [3], 'the batch is recorded in the run log');
  });

  test('ragInspector.batch off (the default): the same eval file runs interactively', async () => {
    await config().update('batch', undefined, vscode.ConfigurationTarget.Global);
    const before = fixture.server.batches.batches.size;
    const sent = caseRequests(fixture.server.requests).length;
    // The batch's answers are in the cache, so only the row that errored in the batch is asked again, interactively.
    const run = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.uri));
    assert.equal(fixture.server.batches.batches.size, before, 'no new batch');
    const interactive = caseRequests(fixture.server.requests).slice(sent).filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(interactive.length, 1, 'the one uncached case (the batch\'s error) is asked interactively');
    assert.equal(run.totals.cases, 3);
  });
  test('the status bar follows the vendor batches while no case finishes, then the cases, then the outcome', () => {
    const bar = new RunStatusBar();
    try {
      const batch = (batchId: string, state: 'submitted' | 'pending' | 'completed', done: number) => bar.onRunEvent({ type: 'batch', modelKey: 'openai:gpt-4o-mini', batchId, state, done, total: 4 });
      bar.onRunEvent({ type: 'run-started', runId: 'run-b', logFile: '/ws/.rag-inspector/runs/run-b.jsonl', total: 8, models: ['openai:gpt-4o-mini'], suites: ['rgb'], resumed: 0 });
      batch('b1', 'submitted', 0);
      batch('b2', 'submitted', 0);
      assert.equal(bar.current?.text, '$(cloud-upload) RAG batch 0/8');
      batch('b1', 'pending', 3);
      assert.equal(bar.current?.text, '$(cloud-upload) RAG batch 3/8');
      assert.match(bar.current?.tooltip ?? '', /waiting on 2 of its 2 vendor batches \(batch mode\): 3 of 8 requests done at the vendor, 0 of 8 cases finished/);
      batch('b1', 'completed', 4);
      batch('b2', 'completed', 4);
      assert.equal(bar.current?.text, '$(sync~spin) RAG 0/8', 'every batch ended: the cases count again');
    } finally {
      bar.dispose();
    }
  });
  test('the cost question prices batched calls at the batch price, with what the same calls cost one by one', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const file = vscode.Uri.joinPath(folder, 'batch-priced.eval.yaml');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode([
      'version: 1', 'name: batch priced',
      'models: [ { provider: openai, model: gpt-4o-mini, batch: true, parameters: { maxTokens: 100 } }, { provider: openai, model: gpt-4o, parameters: { maxTokens: 100 } } ]',
      'suites:', '  - { id: noise-en, method: rgb, dataset: questions.jsonl, params: { testbed: noise_robustness, language: en, noiseRates: [0] } }', '',
    ].join('\n')));
    try {
      const estimate = await estimateCost(await loadEvalSpec(file.fsPath), undefined, new AbortController().signal);
      const batchedOnly = await estimateCost(await loadEvalSpec(file.fsPath), (_id, key) => key === 'openai:gpt-4o-mini', new AbortController().signal);
      const interactiveOnly = await estimateCost(await loadEvalSpec(file.fsPath), (_id, key) => key === 'openai:gpt-4o', new AbortController().signal);
      assert.ok(batchedOnly.usd > 0 && Math.abs(batchedOnly.interactiveUsd - 2 * batchedOnly.usd) < 1e-12, 'the batched model at half its list price');
      assert.equal(interactiveOnly.usd, interactiveOnly.interactiveUsd, 'the interactive model at its list price');
      assert.ok(Math.abs(estimate.usd - (batchedOnly.usd + interactiveOnly.usd)) < 1e-12);
      assert.match(batchSaving(estimate), /^Batch mode: up to \$[\d.]+ at the batch price; the same calls one by one: up to \$[\d.]+\.$/);
      assert.equal(batchSaving(interactiveOnly), '', 'nothing said when no model is batched');
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });
});
