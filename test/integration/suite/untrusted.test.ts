// Restricted Mode: a hostile eval file reads nothing outside the workspace, its own endpoint gets nothing without the
// user's yes, and nothing runs by itself. The harness's VS Code runs with workspace trust off (code-server cannot be
// told to open a folder untrusted and then be trusted without its UI), so the gate is handed an untrusted workspace
// through its one test seam; everything after it — the command, the launcher, the engine, real files, links and
// the fixture server standing in for the repository's chosen server — is the product as it runs. The real Restricted
// Mode, through the workbench's own trust UI, is restrictedMode.mjs's.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import type { TrustFacts } from '../../../src/extension/untrustedWorkspace.js';
import { activatedExtension, outputChannelLog } from './extensionHost.js';
import { answerModalWarnings, asSummary } from './inlineFixtures.js';

const toPosix = (p: string) => p.split(path.sep).join('/');

/** Written into every file outside the workspace: it must reach no request and no log line. */
const MARKER = 'OUTSIDE-THE-WORKSPACE-e2e-41c9';

suite('Untrusted workspace (Restricted Mode)', () => {
  let server: FixtureServer;
  let folder: string;
  let hostile: string;
  let outside: string;
  let restricted: vscode.Disposable | undefined;
  let restorePrompts: () => void = () => undefined;

  const untrustedFacts = (): TrustFacts => ({
    isTrusted: () => false,
    folders: () => [folder],
    userOpenaiBaseUrl: () => undefined,
    workspaceOpenaiBaseUrl: () => undefined,
  });

  suiteSetup(async () => {
    server = await startFixtureServer({ rules: [{ match: { contains: 'Question' }, reply: 'Canberra.' }] });
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    hostile = path.join(folder, 'hostile');
    mkdirSync(hostile, { recursive: true });
    outside = mkdtempSync(path.join(tmpdir(), 'rag-e2e-outside-'));
    const row = (query: string) => JSON.stringify({ id: 0, query, answer: ['Canberra'], positive: ['Canberra is the capital.'], negative: ['Sydney is large.'] });
    writeFileSync(path.join(outside, 'secret.jsonl'), `${row(`${MARKER} What is the capital?`)}\n`);
    writeFileSync(path.join(outside, 'inc.liquid'), `${MARKER}\n`);
    writeFileSync(path.join(hostile, 'data.jsonl'), `${row('What is the capital of Australia?')}\n`);
    writeFileSync(path.join(hostile, 't.liquid'), `user:\nContext: {% include "${toPosix(path.relative(hostile, path.join(outside, 'inc.liquid')))}" %}\nQuestion: {{ question }}\n`);
    symlinkSync(path.join(outside, 'secret.jsonl'), path.join(hostile, 'linked.jsonl'));
    // An include that leaves the template's folder through a link inside it.
    symlinkSync(path.join(outside, 'inc.liquid'), path.join(hostile, 'inc-link.liquid'));
    writeFileSync(path.join(hostile, 't2.liquid'), 'user:\nContext: {% include "inc-link.liquid" %}\nQuestion: {{ question }}\n');
  });
  suiteTeardown(async () => {
    await server.close();
    rmSync(hostile, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  setup(async () => {
    const { testing } = await activatedExtension();
    restricted = testing.untrusted.useFactsForTesting(untrustedFacts());
    await testing.untrusted.forget();
    server.requests.length = 0;
  });
  teardown(() => {
    restorePrompts();
    restorePrompts = () => undefined;
    restricted?.dispose();
  });

  const writeEval = (name: string, lines: string[]) => {
    const file = path.join(hostile, name);
    writeFileSync(file, `${['version: 1', ...lines].join('\n')}\n`);
    return file;
  };
  const model = () => ['models:', `  - { provider: openai-compatible, model: fixture-model, baseUrl: "${server.openaiBaseUrl}" }`, 'maxRetries: 0'];
  const rgb = (id: string, extra: string[]) => [`  - id: ${id}`, '    method: rgb', ...extra, '    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 2 }'];
  const run = (file: string) => vscode.commands.executeCommand('ragInspector.runEvaluation', vscode.Uri.file(file));

  /** Answers every modal question with `answer` (undefined: the dialog closed, i.e. no) and records them. */
  const answerEndpointQuestions = (answer: string | undefined): string[] => {
    restorePrompts();
    const modal = answerModalWarnings();
    modal.answer = answer;
    restorePrompts = modal.restore;
    return modal.questions;
  };

  test('a haystack glob on /etc, a ../ dataset and a dataset link to a file outside: each refused at its line:column, nothing read or sent, no question asked', async () => {
    const { testing } = await activatedExtension();
    const asked = answerEndpointQuestions('Allow');
    const file = writeEval('hostile.eval.yaml', [
      ...model(),
      'suites:',
      '  - id: etc',
      '    method: needle',
      '    params: { haystack: "/etc/*.conf", contextLengths: [1000], depths: [50] }',
      ...rgb('up', [`    dataset: ${toPosix(path.relative(hostile, path.join(outside, 'secret.jsonl')))}`]),
      ...rgb('link', ['    dataset: linked.jsonl']),
    ]);
    assert.equal(await run(file), 'failed');
    const log = await outputChannelLog(testing.logUri, `${file}:15:14`);
    for (const [at, what] of [['8:25', 'haystack pattern /etc/*.conf (read from /etc)'], ['11:14', 'dataset '], ['15:14', 'dataset ']] as const) {
      const line = log.split('\n').find((l) => l.includes(`${file}:${at}: this workspace is not trusted: paths outside it are not read: ${what}`));
      assert.ok(line, `no refusal at ${at} in:\n${log}`);
      assert.match(line, /— trust the workspace to allow it/);
    }
    assert.match(log, /linked\.jsonl \(links to .*secret\.jsonl\) is outside/);
    assert.equal(asked.length, 0, 'the endpoint question came before the paths were refused');
    assert.equal(server.requests.length, 0);
    assert.ok(!log.includes(MARKER));
  });

  test('the endpoint the workspace chose is asked about by its exact URL; "No" (the default) sends nothing, "Allow" is remembered', async () => {
    const { testing } = await activatedExtension();
    const file = writeEval('endpoint.eval.yaml', [...model(), 'suites:', ...rgb('inside', ['    dataset: data.jsonl'])]);

    let asked = answerEndpointQuestions(undefined);
    assert.equal(await run(file), 'cancelled');
    assert.equal(asked.length, 1);
    assert.ok(asked[0]!.includes(server.openaiBaseUrl), asked[0]);
    assert.equal(server.requests.length, 0, '"No" still sent a request');
    await outputChannelLog(testing.logUri, `Not started: ${server.openaiBaseUrl} was not allowed.`);

    asked = answerEndpointQuestions('Allow');
    const first = asSummary(await run(file));
    assert.equal(asked.length, 1);
    assert.equal(first.totals.cases, 1);
    assert.ok(server.requests.length > 0);
    assert.ok(server.requests.every((r) => r.headers.authorization === undefined || !/sk-/.test(String(r.headers.authorization))));

    asSummary(await run(file));
    assert.equal(asked.length, 1, 'an allowed endpoint was asked about again in the same workspace');
    // Trust changing clears the memory (activateUntrustedWorkspace calls this on onDidGrantWorkspaceTrust).
    await testing.untrusted.forget();
    asked = answerEndpointQuestions(undefined);
    assert.equal(await run(file), 'cancelled');
    assert.equal(asked.length, 1);
  });

  test('a template include of a file outside (by ../ or by a link) is refused at the include, before any request', async () => {
    const { testing } = await activatedExtension();
    answerEndpointQuestions('Allow');
    for (const template of ['t.liquid', 't2.liquid']) {
      server.requests.length = 0;
      const file = writeEval(`include-${template}.eval.yaml`, [...model(), 'suites:', ...rgb('inc', ['    dataset: data.jsonl', `    template: ${template}`])]);
      assert.equal(await run(file), 'failed');
      const log = await outputChannelLog(testing.logUri, `${path.join(hostile, template)}:2:10:`);
      assert.ok(!log.includes(MARKER));
      assert.equal(server.requests.length, 0);
    }
  });

  test('nothing runs by itself: rerun on save is off while untrusted, on again once trusted', async () => {
    const { testing } = await activatedExtension();
    const wasOpen = testing.panels.panel !== undefined;
    await vscode.commands.executeCommand('ragInspector.openInspector');
    try {
      assert.equal(testing.rerunOnSave.enabled, false);
      restricted?.dispose();
      restricted = undefined;
      assert.equal(testing.rerunOnSave.enabled, true);
    } finally {
      if (!wasOpen) testing.panels.panel?.panel.dispose();
    }
  });

  test('once trusted, the same workspace runs as before: the link is followed and the endpoint used without a question', async () => {
    restricted?.dispose();
    restricted = undefined;
    const asked = answerEndpointQuestions(undefined);
    const file = writeEval('linked.eval.yaml', [...model(), 'suites:', ...rgb('link', ['    dataset: linked.jsonl'])]);
    const summary = asSummary(await run(file));
    assert.equal(summary.totals.cases, 1);
    assert.equal(asked.length, 0);
    assert.ok(server.requests.some((r) => r.text.includes(MARKER)), 'the trusted run did not read the linked dataset');
  });

  /** A run made while the workspace was trusted (as a clone's committed run log would be), then Restricted Mode again. */
  const trustedRun = async (file: string) => {
    const { testing } = await activatedExtension();
    restricted?.dispose();
    const summary = asSummary(await run(file));
    restricted = testing.untrusted.useFactsForTesting(untrustedFacts());
    server.requests.length = 0;
    const [first] = (await testing.store.getRun(summary.runId)).cases;
    return { runId: summary.runId, key: first!.key };
  };
  const explainCase = (target: { runId: string; key: string }) => vscode.commands.executeCommand('ragInspector.explainCase', target);

  test('Explain in Restricted Mode asks about the endpoint the eval file chose, like a run: "No" sends nothing, "Allow" explains', async () => {
    answerEndpointQuestions('Allow');
    const target = await trustedRun(writeEval('explain.eval.yaml', [...model(), 'suites:', ...rgb('inside', ['    dataset: data.jsonl'])]));
    let asked = answerEndpointQuestions(undefined);
    assert.equal(await explainCase(target), 'untrusted');
    assert.equal(asked.length, 1);
    assert.ok(asked[0]!.includes(server.openaiBaseUrl), asked[0]);
    assert.equal(server.requests.length, 0, '"No" still sent a request');

    asked = answerEndpointQuestions('Allow');
    assert.equal(await explainCase(target), 'complete');
    assert.equal(asked.length, 1);
    assert.ok(server.requests.length > 0, 'the variants were not sent after "Allow"');
  });

  test('Explain in Restricted Mode reads the eval file contained: a run whose dataset links outside is refused at its line, nothing read or sent', async () => {
    const { testing } = await activatedExtension();
    const asked = answerEndpointQuestions('Allow');
    const file = writeEval('explain-linked.eval.yaml', [...model(), 'suites:', ...rgb('link', ['    dataset: linked.jsonl'])]);
    const target = await trustedRun(file);
    assert.equal(await explainCase(target), 'failed');
    const log = await outputChannelLog(testing.logUri, `${file}:8:14`);
    assert.match(log, /linked\.jsonl \(links to .*secret\.jsonl\) is outside/);
    assert.equal(server.requests.length, 0);
    assert.equal(asked.length, 0, 'no endpoint question for an eval file refused');
  });
});
