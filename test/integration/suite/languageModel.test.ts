// The vscode-lm provider in the real extension host: scripted chat models registered through vscode.lm answer runs started by Run Evaluation.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CaseResult } from '../../../src/core/model.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { activatedExtension, note, outputChannelLog } from './extensionHost.js';
import { eventually } from './eventually.js';
import { asSummary } from './inlineFixtures.js';
import { QUESTIONS, workspaceFolder } from './inlineFixtures.js';

/** Contributed (hidden from the Manage Models list) by test/integration/fixtureExtension, loaded beside the extension: VS Code refuses providers of vendors nobody contributed. */
const VENDOR = 'rag-inspector-test';

// The chat provider API was finalized in VS Code 1.104; @types/vscode follows engines (1.95), so its shape is declared here.
interface ChatModelInfo {
  id: string;
  name: string;
  family: string;
  version: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: Record<string, unknown>;
}
interface RequestMessage {
  role: vscode.LanguageModelChatMessageRole;
  content: readonly unknown[];
}
interface ChatModelProvider {
  provideLanguageModelChatInformation(options: unknown, token: vscode.CancellationToken): ChatModelInfo[];
  provideLanguageModelChatResponse(model: ChatModelInfo, messages: readonly RequestMessage[], options: { modelOptions?: Record<string, unknown> },
    progress: vscode.Progress<vscode.LanguageModelTextPart>, token: vscode.CancellationToken): Promise<void>;
  provideTokenCount(model: ChatModelInfo, text: string | RequestMessage, token: vscode.CancellationToken): Promise<number>;
}
type RegisterChatProvider = (vendor: string, provider: ChatModelProvider) => vscode.Disposable;

const model = (id: string, family: string): ChatModelInfo => ({ id, name: `Test ${id}`, family, version: '1', maxInputTokens: 100_000, maxOutputTokens: 4_096, capabilities: {} });
const MODELS = [model('scripted-qa', 'scripted'), model('slow-model', 'slow-family'), model('failing-model', 'failing')];

/** The scripted model's answers, by the question in the prompt: two right, Jupiter wrong. */
const ANSWERS: Record<string, string> = {
  [QUESTIONS.australia.text]: 'Canberra is the capital of Australia.',
  [QUESTIONS.jupiter.text]: 'Saturn is the largest planet.',
  [QUESTIONS.sodium.text]: 'Sodium has the chemical symbol Na.',
};

interface Received {
  model: string;
  messages: { role: vscode.LanguageModelChatMessageRole; text: string }[];
  modelOptions?: Record<string, unknown>;
}

const textOf = (message: RequestMessage | string): string => typeof message === 'string'
  ? message
  : message.content.map((part) => (typeof (part as { value?: unknown }).value === 'string' ? (part as { value: string }).value : '')).join('');

/** Whitespace-separated words: the test models' "tokenizer", so the usage a run records can be checked exactly. */
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => { resolve = r; });
  return { promise, resolve };
}

async function writeEval(name: string, modelLine: string, concurrency = 2): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(workspaceFolder(), `${name}.eval.yaml`);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode([
    'version: 1', `name: ${name}`, 'models:', `  - ${modelLine}`, 'maxRetries: 0', `concurrency: ${concurrency}`, 'suites:',
    '  - { id: noise-en, method: rgb, template: qa.prompt, dataset: questions.jsonl, params: { testbed: noise_robustness, language: en, noiseRates: [0] } }', '',
  ].join('\n')));
  return uri;
}

async function caseResults(runId: string): Promise<Map<string, CaseResult>> {
  const log = await readRunLog(vscode.Uri.joinPath(workspaceFolder(), '.rag-inspector', 'runs', `${runId}.jsonl`).fsPath);
  return new Map(log.cases.map((line) => [line.case.question, line.result]));
}

suite('vscode-lm provider', () => {
  const received: Received[] = [];
  const slow = { streaming: deferred(), cancelled: deferred(), wasCancelled: false, finished: false };
  let registration: vscode.Disposable | undefined;
  const files: vscode.Uri[] = [];

  suiteSetup(async () => {
    await activatedExtension();
    const register = (vscode.lm as unknown as { registerLanguageModelChatProvider?: RegisterChatProvider }).registerLanguageModelChatProvider;
    if (!register) {
      note(`vscode.lm.registerLanguageModelChatProvider is missing in VS Code ${vscode.version} (finalized in 1.104): only the unknown-model error is tested`);
      return;
    }
    registration = register(VENDOR, {
      provideLanguageModelChatInformation: () => MODELS,
      async provideLanguageModelChatResponse(info, messages, options, progress, token) {
        received.push({ model: info.id, messages: messages.map((m) => ({ role: m.role, text: textOf(m) })), modelOptions: options.modelOptions });
        const prompt = textOf(messages.at(-1)!);
        const question = Object.keys(ANSWERS).find((q) => prompt.includes(q));
        if (info.id === 'failing-model') {
          if (question === QUESTIONS.australia.text) throw vscode.LanguageModelError.Blocked('test: too many requests');
          if (question === QUESTIONS.jupiter.text) throw vscode.LanguageModelError.NoPermissions('test: no consent');
          throw vscode.LanguageModelError.NotFound('test: model withdrawn');
        }
        if (info.id === 'slow-model') {
          progress.report(new vscode.LanguageModelTextPart('Canberra '));
          token.onCancellationRequested(() => { slow.wasCancelled = true; slow.cancelled.resolve(); });
          slow.streaming.resolve();
          // Holds the stream open far longer than the test waits: only cancellation can end the run in time.
          await Promise.race([slow.cancelled.promise, new Promise((resolve) => setTimeout(resolve, 60_000))]);
          if (!token.isCancellationRequested) slow.finished = true;
          return;
        }
        // Streamed word by word, so the provider has to put the chunks together.
        for (const chunk of (question ? ANSWERS[question]! : 'I do not know.').split(/(?<= )/)) progress.report(new vscode.LanguageModelTextPart(chunk));
      },
      provideTokenCount: async (_info, text) => words(textOf(text)),
    });
  });

  suiteTeardown(async () => {
    registration?.dispose();
    for (const file of files) await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Run Evaluation scores the cases from a VS Code chat model\'s streamed answers', async function () {
    if (!registration) this.skip();
    const uri = await writeEval('lm-scored', `"vscode-lm:${VENDOR}/scripted-qa"`);
    files.push(uri);
    const summary = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', uri));
    assert.equal(summary.status, 'success');
    const { cases, passed, failed, error } = summary.totals;
    assert.deepEqual({ cases, passed, failed, error }, { cases: 3, passed: 2, failed: 1, error: 0 });

    const results = await caseResults(summary.runId);
    for (const [question, answer] of Object.entries(ANSWERS)) {
      const result = results.get(question);
      assert.ok(result, `no result for "${question}"`);
      assert.equal(result.modelKey, `vscode-lm:${VENDOR}/scripted-qa`);
      assert.equal(result.response?.text, answer);
      assert.equal(result.pass, question !== QUESTIONS.jupiter.text, `${question} → ${answer}`);
      // Usage comes from the model's countTokens: the test tokenizer counts words.
      assert.equal(result.response?.usage.outputTokens, words(answer));
      assert.ok((result.response?.usage.inputTokens ?? 0) > words(question), 'the input count covers the whole prompt');
    }

    const requests = received.filter((r) => r.model === 'scripted-qa');
    assert.equal(requests.length, 3);
    for (const request of requests) {
      // No system role in the LM API: the template's system text leads the one user message.
      assert.deepEqual(request.messages.map((m) => m.role), [vscode.LanguageModelChatMessageRole.User]);
      assert.match(request.messages[0]!.text, /^You are an accurate and reliable AI assistant[\s\S]*\n\nDocument:\n[\s\S]*Question:\n/);
      // qa.prompt's front matter sets temperature 0.2.
      assert.equal(request.modelOptions?.temperature, 0.2);
    }
  });

  test('an unknown model fails before any case, listing the models VS Code has', async () => {
    const { testing } = await activatedExtension();
    const uri = await writeEval('lm-unknown', '"vscode-lm:no-such-model"');
    files.push(uri);
    assert.equal(await vscode.commands.executeCommand('ragInspector.runEvaluation', uri), 'failed');
    const log = await outputChannelLog(testing.logUri, 'No VS Code chat model \'no-such-model\'');
    const line = log.split('\n').find((l) => l.includes('No VS Code chat model \'no-such-model\''))!;
    assert.match(line, /available: .*; sign in to GitHub Copilot or install an extension that provides chat models/);
    if (registration) assert.match(line, new RegExp(`${VENDOR}/scripted-qa \\(family scripted\\)`));
  });

  test('LanguageModelErrors become errors the scheduler acts on: Blocked → rate_limit, NoPermissions → auth, NotFound → bad_request', async function () {
    if (!registration) this.skip();
    const uri = await writeEval('lm-errors', `{ provider: vscode-lm, model: failing-model, parameters: { vendor: ${VENDOR} } }`);
    files.push(uri);
    const summary = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', uri));
    assert.equal(summary.totals.error, 3);
    const results = await caseResults(summary.runId);
    const errorOf = (question: string) => results.get(question)?.error;
    assert.equal(errorOf(QUESTIONS.australia.text)?.kind, 'rate_limit');
    assert.equal(errorOf(QUESTIONS.jupiter.text)?.kind, 'auth');
    assert.match(errorOf(QUESTIONS.jupiter.text)?.message ?? '', /choose Allow when VS Code asks for consent/);
    assert.equal(errorOf(QUESTIONS.sodium.text)?.kind, 'bad_request');
  });

  test('Cancel Run stops a VS Code chat model\'s stream mid-answer', async function () {
    if (!registration) this.skip();
    // Selected by family, with the vendor as a parameter.
    const uri = await writeEval('lm-cancel', `{ provider: vscode-lm, model: slow-family, parameters: { vendor: ${VENDOR} } }`, 1);
    files.push(uri);
    const outcome = vscode.commands.executeCommand('ragInspector.runEvaluation', uri);
    await slow.streaming.promise;
    assert.equal(await vscode.commands.executeCommand('ragInspector.cancelRun'), 'cancelled');
    const summary = asSummary(await outcome);
    assert.equal(summary.status, 'cancelled');
    assert.equal(summary.totals.cases, 0, 'the half-streamed case is not logged, so a resume runs it again');
    // The cancellation crosses from our extension through VS Code to the provider's token.
    await eventually('the model\'s cancellation token', () => slow.wasCancelled || undefined, 5_000);
    // The model holds its stream open for a minute unless cancelled: had the run waited for it, it would have finished.
    assert.equal(slow.finished, false);
  });
});
