// Generate Counterfactual Data in the real extension host against the fixture LLM server: the new file, the retry, failures, overwrite and cancel.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import type { GenerateCounterfactualOutcome } from '../../../src/extension/generateCounterfactual.js';
import { activatedExtension, outputChannelLog } from './extensionHost.js';
import { answerModalWarnings, answerPrompts, workspaceFolder } from './inlineFixtures.js';
import { eventually } from './eventually.js';

const COMMAND = 'ragInspector.generateCounterfactual';
const MODEL = 'openai-compatible:fixture-counterfactual';

const ROWS = {
  tokyo: { id: 'tokyo', question: 'What is the capital of Japan?', answer: 'Tokyo', passages: ['Tokyo is the capital of Japan.', 'The Diet meets in Tokyo.'] },
  paris: { id: 'paris', question: 'What is the capital of France?', answer: 'Paris', passages: ['Paris is the capital of France.'] },
  done: { id: 'done', question: 'Who painted the Mona Lisa?', answer: 'Leonardo', passages: ['Leonardo painted it.'], counterfactual: { answer: 'Raphael', passages: ['Raphael painted it.'] } },
};

const json = (answer: string, passages: string[]) => JSON.stringify({ answer, passages });
/** The second attempt starts with the retry prompt's words (prompts/ifrag/generate-counterfactual-retry.prompt). */
const isRetry = (req: RecordedRequest) => req.lastUserMessage.startsWith('Your answer cannot be used');
const asks = (question: string) => (req: RecordedRequest) => req.api === 'openai-chat' && req.text.includes(question);

async function writeDataset(name: string, rows: Record<string, unknown>[]): Promise<vscode.Uri> {
  const dir = vscode.Uri.joinPath(workspaceFolder(), 'counterfactual');
  await vscode.workspace.fs.createDirectory(dir);
  const file = vscode.Uri.joinPath(dir, name);
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(`${rows.map((r) => JSON.stringify(r)).join('\n')}\n`));
  return file;
}

function asWritten(outcome: GenerateCounterfactualOutcome | undefined) {
  assert.ok(typeof outcome === 'object' && outcome.status === 'written', `expected a written file, got ${JSON.stringify(outcome)}`);
  return outcome;
}

suite('Generate Counterfactual Data', () => {
  let server: FixtureServer;
  let restore: () => void = () => undefined;
  suiteSetup(async () => {
    server = await startFixtureServer();
    // The model names no endpoint, so it gets the user's base URL, as a run's model would.
    await vscode.workspace.getConfiguration('ragInspector').update('openaiBaseUrl', server.openaiBaseUrl, vscode.ConfigurationTarget.Global);
  });
  setup(() => {
    server.clearRules();
    server.requests.length = 0;
  });
  teardown(async () => {
    restore();
    restore = () => undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('ragInspector').update('openaiBaseUrl', undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  test('writes <name>.counterfactual.jsonl beside the dataset: substitutes in the evidence, a bad generation retried then reported, the dataset untouched', async function () {
    this.timeout(30_000);
    const { testing } = await activatedExtension();
    const dataset = await writeDataset('qa.jsonl', [ROWS.tokyo, ROWS.paris, ROWS.done]);
    const before = readFileSync(dataset.fsPath);
    // Tokyo: right first time. Paris: the true answer stays in the evidence, on the first attempt and on the retry.
    server.addRule({ match: asks(ROWS.tokyo.question), reply: json('Kyoto', ['Kyoto is the capital of Japan.', 'The Diet meets in Kyoto.']) });
    server.addRule({ match: (req) => asks(ROWS.paris.question)(req) && !isRetry(req), reply: json('Lyon', ['Lyon, not Paris, is the capital of France.']) });
    server.addRule({ match: (req) => asks(ROWS.paris.question)(req) && isRetry(req), reply: json('Lyon', ['Lyon replaced Paris as the capital of France.']) });

    // The user clicks "Open File" on the summary; other warnings go through unchanged.
    const summaries: { message: string; buttons: unknown[] }[] = [];
    const showWarningMessage = vscode.window.showWarningMessage;
    restore = answerPrompts({
      showWarningMessage: ((message: string, ...rest: unknown[]) => {
        if (message.startsWith('RAG Inspector: Generate Counterfactual Data:')) {
          summaries.push({ message, buttons: rest });
          return Promise.resolve('Open File');
        }
        return (showWarningMessage as (...args: unknown[]) => Thenable<unknown>)(message, ...rest);
      }) as typeof vscode.window.showWarningMessage,
    });

    const outcome = asWritten(await vscode.commands.executeCommand<GenerateCounterfactualOutcome>(COMMAND, { file: dataset, model: MODEL }));
    const out = path.join(path.dirname(dataset.fsPath), 'qa.counterfactual.jsonl');
    assert.deepEqual(outcome, { status: 'written', out, generated: 1, kept: 1, failed: 1 });
    assert.deepEqual(readFileSync(dataset.fsPath), before, 'the dataset is never changed');

    // A valid JSONL in the input's order: the generated row holds the substitute in every rewritten passage.
    const text = readFileSync(out, 'utf8');
    assert.ok(text.endsWith('\n'));
    const written = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(written.map((r) => r.id), ['tokyo', 'paris', 'done']);
    const tokyo = written[0]!.counterfactual as { answer: string; passages: string[]; generatedBy: { model: string; calls: number } };
    assert.equal(tokyo.answer, 'Kyoto');
    assert.equal(tokyo.passages.length, ROWS.tokyo.passages.length);
    for (const passage of tokyo.passages) {
      assert.ok(passage.includes('Kyoto'), passage);
      assert.ok(!passage.includes('Tokyo'), passage);
    }
    assert.deepEqual({ model: tokyo.generatedBy.model, calls: tokyo.generatedBy.calls }, { model: MODEL, calls: 1 });
    // The bad generation: asked again with what was wrong, then kept out of the file with its reason.
    const parisCalls = server.requests.filter(asks(ROWS.paris.question));
    assert.deepEqual(parisCalls.map(isRetry), [false, true]);
    assert.match(parisCalls[1]!.lastUserMessage, /passage 1 still mentions the true answer "Paris"/);
    assert.equal(written[1]!.counterfactual, undefined);
    assert.match(String(written[1]!.counterfactualError), /^after one retry: passage 1 still mentions the true answer "Paris"/);
    assert.deepEqual(written[2], ROWS.done, 'a row that had counterfactual data is copied unchanged');

    // The summary, the failure with file:line and reason in the output channel, and "Open File" opening the new file.
    assert.equal(summaries.length, 1);
    assert.match(summaries[0]!.message, /1 generated, 1 already had data, 1 failed\. Review qa\.counterfactual\.jsonl before use\./);
    assert.deepEqual(summaries[0]!.buttons, ['Open File', 'Show Failures']);
    await outputChannelLog(testing.logUri, `${dataset.fsPath}:2 (id paris): after one retry: passage 1 still mentions the true answer "Paris"`);
    await eventually('the new file in the editor', () => (vscode.window.activeTextEditor?.document.uri.fsPath === out ? true : undefined), 10_000,
      () => vscode.window.activeTextEditor?.document.uri.fsPath);
  });

  test('an existing output is replaced only when the user says so; declining makes no call and changes nothing', async () => {
    await activatedExtension();
    const dataset = await writeDataset('keep.jsonl', [ROWS.tokyo]);
    const out = path.join(path.dirname(dataset.fsPath), 'keep.counterfactual.jsonl');
    await vscode.workspace.fs.writeFile(vscode.Uri.file(out), new TextEncoder().encode('{"reviewed":true}\n'));
    server.addRule({ match: asks(ROWS.tokyo.question), reply: json('Kyoto', ['Kyoto is the capital of Japan.', 'The Diet meets in Kyoto.']) });
    const modal = answerModalWarnings();
    restore = modal.restore;

    modal.answer = undefined;
    assert.equal(await vscode.commands.executeCommand(COMMAND, { file: dataset, model: MODEL }), 'cancelled');
    assert.deepEqual(modal.questions, ['keep.counterfactual.jsonl already exists. Replace it with newly generated counterfactual data?']);
    assert.equal(readFileSync(out, 'utf8'), '{"reviewed":true}\n');
    assert.equal(server.requests.length, 0);

    modal.answer = 'Replace';
    const outcome = asWritten(await vscode.commands.executeCommand<GenerateCounterfactualOutcome>(COMMAND, { file: dataset, model: MODEL }));
    assert.equal(modal.questions.length, 2);
    assert.equal(outcome.generated, 1);
    assert.equal((JSON.parse(readFileSync(out, 'utf8')) as { counterfactual: { answer: string } }).counterfactual.answer, 'Kyoto');
  });

  test('Cancel on the progress notification stops the calls in flight and writes nothing', async () => {
    await activatedExtension();
    const dataset = await writeDataset('slow.jsonl', [ROWS.tokyo, ROWS.paris]);
    const out = path.join(path.dirname(dataset.fsPath), 'slow.counterfactual.jsonl');
    server.addRule({ match: { contains: 'capital of' }, fault: { kind: 'hang' } });
    // The real notification; the user's click on its Cancel button is the only thing played.
    let clickCancel: (() => void) | undefined;
    const withProgress = vscode.window.withProgress;
    restore = answerPrompts({
      withProgress: ((options: vscode.ProgressOptions, task: (progress: unknown, token: vscode.CancellationToken) => Thenable<unknown>) =>
        withProgress(options, (progress, token) => {
          assert.equal(options.cancellable, true);
          const source = new vscode.CancellationTokenSource();
          token.onCancellationRequested(() => source.cancel());
          clickCancel = () => source.cancel();
          return task(progress, source.token);
        })) as typeof vscode.window.withProgress,
    } as unknown as Parameters<typeof answerPrompts>[0]);

    const running = vscode.commands.executeCommand<GenerateCounterfactualOutcome>(COMMAND, { file: dataset, model: MODEL });
    await eventually('both rows in flight', () => (server.requests.length === 2 && clickCancel ? true : undefined), 10_000, () => server.requests.length);
    clickCancel!();
    assert.equal(await running, 'cancelled');
    assert.equal(existsSync(out), false, 'nothing is written on cancel');
    await eventually('the hung calls closed by the client', () => (server.requests.every((r) => r.clientClosed) ? true : undefined), 10_000,
      () => server.requests.map((r) => r.clientClosed));
  });
});
