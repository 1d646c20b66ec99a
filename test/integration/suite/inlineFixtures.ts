// Builders for tests that run the real engine against the fixture LLM server: an eval folder in the workspace, scripted answers, waiting helpers.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Rule } from '../../fixtures/llmServer.js';

/** The questions of workspace/questions.jsonl, by dataset line (1-based). */
export const QUESTIONS = {
  australia: { line: 1, text: 'What is the capital of Australia?', answer: 'Canberra' },
  jupiter: { line: 2, text: 'Which planet is the largest in the Solar System?', answer: 'Jupiter' },
  sodium: { line: 3, text: 'Which element has the chemical symbol Na?', answer: 'sodium' },
} as const;

/** A response that must never be rendered: an HTML event handler and a Markdown link. */
export const HOSTILE_ANSWER = '<img src=x onerror=alert(1)> [click me](http://evil.example/) Sydney';

export function workspaceFolder(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder, 'the test workspace is not open');
  return folder;
}

export interface FixtureEval {
  /** "openai-compatible:fixture-<name>": a model per test, so one test's cached answers never answer another's. */
  modelKey: string;
  /** The list key of a case on that model. */
  key(caseId: string): string;
  dir: vscode.Uri;
  evalFile: vscode.Uri;
  dataset: vscode.Uri;
  template: vscode.Uri;
  /** The second suite's template, when asked for. */
  otherTemplate?: vscode.Uri;
}

export interface FixtureEvalOptions {
  /** Folder and eval file name; each test uses its own, so their results and diagnostics stay apart. */
  name: string;
  baseUrl: string;
  noiseRates?: number[];
  /** A second suite on the same dataset with its own copy of the template. */
  secondSuite?: boolean;
  prices?: Record<string, { input: number; output: number }>;
  concurrency?: number;
}

/**
 * `<workspace>/<name>/`: copies of the workspace's 3-row RGB dataset and template, and an eval file whose one model
 * is the fixture server behind the openai-compatible provider (no key). No retries: a scripted error stays an error.
 */
export async function writeFixtureEval(options: FixtureEvalOptions): Promise<FixtureEval> {
  const root = workspaceFolder();
  const dir = vscode.Uri.joinPath(root, options.name);
  await vscode.workspace.fs.createDirectory(dir);
  const dataset = vscode.Uri.joinPath(dir, 'questions.jsonl');
  const template = vscode.Uri.joinPath(dir, 'qa.prompt');
  await vscode.workspace.fs.copy(vscode.Uri.joinPath(root, 'questions.jsonl'), dataset, { overwrite: true });
  await vscode.workspace.fs.copy(vscode.Uri.joinPath(root, 'qa.prompt'), template, { overwrite: true });
  const rates = JSON.stringify(options.noiseRates ?? [0, 0.4]);
  const lines = [
    'version: 1',
    `name: ${options.name}`,
    'models:',
    `  - { provider: openai-compatible, model: fixture-${options.name}, baseUrl: "${options.baseUrl}" }`,
    'maxRetries: 0',
    ...(options.concurrency ? [`concurrency: ${options.concurrency}`] : []),
    'seed: 2333',
    ...(options.prices ? [`prices: ${JSON.stringify(options.prices)}`] : []),
    'suites:',
    `  - { id: noise, method: rgb, template: qa.prompt, dataset: questions.jsonl, params: { testbed: noise_robustness, language: en, noiseRates: ${rates} } }`,
  ];
  let otherTemplate: vscode.Uri | undefined;
  if (options.secondSuite) {
    otherTemplate = vscode.Uri.joinPath(dir, 'other.prompt');
    await vscode.workspace.fs.copy(template, otherTemplate, { overwrite: true });
    lines.push(`  - { id: other, method: rgb, template: other.prompt, dataset: questions.jsonl, params: { testbed: noise_robustness, language: en, noiseRates: ${rates} } }`);
  }
  const evalFile = vscode.Uri.joinPath(dir, `${options.name}.eval.yaml`);
  await vscode.workspace.fs.writeFile(evalFile, new TextEncoder().encode(`${lines.join('\n')}\n`));
  const modelKey = `openai-compatible:fixture-${options.name}`;
  return { modelKey, key: (caseId) => `${caseId}\u0000${modelKey}`, dir, evalFile, dataset, template, otherTemplate };
}

/** Answers by question: a wrong (and hostile) answer for Australia, the right one for Jupiter, a 400 for sodium. */
export function scriptedAnswers(): Rule[] {
  return [
    { match: { contains: QUESTIONS.australia.text }, reply: HOSTILE_ANSWER },
    { match: { contains: QUESTIONS.jupiter.text }, reply: QUESTIONS.jupiter.answer },
    { match: { contains: QUESTIONS.sodium.text }, fault: { kind: 'status', status: 400, body: { error: { message: 'scripted bad request', type: 'invalid_request_error', code: null } } } },
  ];
}

/** Right answers for every question. */
export function rightAnswers(): Rule[] {
  return Object.values(QUESTIONS).map((q) => ({ match: { contains: q.text }, reply: q.answer }));
}

/** What Run Evaluation and the rerun commands return when a run happened. */
export interface Summary {
  runId: string;
  status: string;
  totals: { cases: number; passed: number; failed: number; error: number; cacheHits: number; modelCalls: number };
}

export function asSummary(outcome: unknown): Summary {
  assert.equal(typeof outcome, 'object', `expected a run summary, got ${JSON.stringify(outcome)}`);
  return outcome as Summary;
}

type WindowStubs = Partial<Pick<typeof vscode.window, 'showQuickPick' | 'showInputBox' | 'showInformationMessage' | 'showWarningMessage' | 'showErrorMessage'>>;

/**
 * Answers prompts in place of the user. The test shares the extension's `vscode` API object (same extension folder),
 * so replacing these methods reaches the command's calls. Only the user's answers are replaced; everything else is real.
 */
export function answerPrompts(stubs: WindowStubs): () => void {
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = Object.fromEntries(Object.keys(stubs).map((name) => [name, window[name]]));
  for (const [name, stub] of Object.entries(stubs)) window[name] = stub;
  for (const [name, stub] of Object.entries(stubs)) assert.equal(window[name], stub, `could not stub vscode.window.${name}`);
  return () => { for (const [name, original] of Object.entries(originals)) window[name] = original; };
}

/**
 * Answers every modal warning (a cost confirmation, "replace the file?") with `answer` as it is when asked, and records
 * each question; warnings that are not modal go to VS Code as usual. `restore` puts VS Code's own back.
 */
export function answerModalWarnings(): { questions: string[]; answer: string | undefined; restore: () => void } {
  const showWarningMessage = vscode.window.showWarningMessage;
  const modal: { questions: string[]; answer: string | undefined; restore: () => void } = { questions: [], answer: undefined, restore: () => undefined };
  modal.restore = answerPrompts({
    showWarningMessage: ((message: string, ...rest: unknown[]) => {
      if ((rest[0] as vscode.MessageOptions | undefined)?.modal) {
        modal.questions.push(message);
        return Promise.resolve(modal.answer);
      }
      return (showWarningMessage as (...args: unknown[]) => Thenable<unknown>)(message, ...rest);
    }) as typeof vscode.window.showWarningMessage,
  });
  return modal;
}

export async function readLines(uri: vscode.Uri): Promise<string[]> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).split('\n');
}
