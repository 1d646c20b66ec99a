// The agent's tools in a real extension host: each called through vscode.lm.invokeTool as agent mode calls it (a free
// run on the fixture server, its failures, one case, its explanation, a rerun and the paired comparison); a paid run's
// cost in prepareInvocation's confirmation, and declined, nothing sent; Restricted Mode refusing; the MCP server
// offered to VS Code. VS Code shows a tool's confirmation outside a chat as a workbench dialog the extension host
// cannot answer, so the paid run's confirmation is read from the registered tool's own prepareInvocation.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { activatedExtension } from './extensionHost.js';
import { answerModalWarnings, QUESTIONS, rightAnswers, writeFixtureEval } from './inlineFixtures.js';

const textOf = (result: vscode.LanguageModelToolResult) => result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
const invoke = async (name: string, input: object) => textOf(await vscode.lm.invokeTool(`ragInspector_${name}`, { input, toolInvocationToken: undefined }));

suite('agent tools (VS Code language model tools)', () => {
  let server: FixtureServer;

  suiteSetup(async () => {
    server = await startFixtureServer();
    await activatedExtension();
  });
  suiteTeardown(async () => {
    await server?.close();
  });

  test('the five tools through vscode.lm.invokeTool: run, failures, a case, its explanation, rerun and compare', async function () {
    this.timeout(120_000);
    assert.deepEqual(vscode.lm.tools.filter((t) => t.name.startsWith('ragInspector_')).map((t) => t.name).sort(), ['ragInspector_compare_runs', 'ragInspector_explain_case', 'ragInspector_list_failures', 'ragInspector_run_eval', 'ragInspector_show_case']);
    // First match wins in the fixture server: the wrong answer goes first.
    server.clearRules();
    server.addRule({ match: { contains: QUESTIONS.australia.text }, reply: 'Sydney.' });
    for (const rule of rightAnswers()) server.addRule(rule);
    await writeFixtureEval({ name: 'agent-tools', baseUrl: server.openaiBaseUrl, noiseRates: [0] });

    const first = await invoke('run_eval', { evalFile: 'agent-tools/agent-tools.eval.yaml' });
    assert.match(first, /^run (\S+): success/m, first);
    assert.match(first, /1 failed or errored case\(s\)/, first);
    const runId = /^run (\S+):/.exec(first)![1]!;

    const failures = await invoke('list_failures', { run: runId });
    const failed = /^(noise\/\S+) \[/m.exec(failures)?.[1];
    assert.ok(failed, failures);
    const shown = await invoke('show_case', { run: 'latest', caseId: failed });
    assert.match(shown, /: failed$/m);
    assert.match(shown, /^question: What is the capital of Australia\?/m);
    assert.match(shown, /^response: Sydney\./m);

    const explained = await invoke('explain_case', { run: runId, caseId: failed });
    assert.match(explained, new RegExp(`^${failed.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} on `, 'm'), explained);
    assert.match(explained, /^calls: \d+ to models/m, explained);

    // The agent's edit: one more instruction in the template (a new prompt, so no cached answer), and the model now
    // answers the question right.
    const fixture = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'agent-tools', 'qa.prompt');
    const template = new TextDecoder().decode(await vscode.workspace.fs.readFile(fixture));
    await vscode.workspace.fs.writeFile(fixture, new TextEncoder().encode(`${template}\nAnswer with the name only.\n`));
    server.clearRules();
    for (const rule of rightAnswers()) server.addRule(rule);
    const second = await invoke('run_eval', { evalFile: 'agent-tools/agent-tools.eval.yaml', cases: [failed] });
    assert.match(second, /no failed or errored case/, second);
    const secondId = /^run (\S+):/.exec(second)![1]!;
    const compared = await invoke('compare_runs', { before: runId, after: secondId });
    assert.match(compared, /case verdict +1 +1 +0 +0 /, compared);
  });

  test('a paid run: its cost in the confirmation; declined, nothing is sent', async function () {
    this.timeout(60_000);
    const { testing } = await activatedExtension();
    server.clearRules();
    for (const rule of rightAnswers()) server.addRule(rule);
    await writeFixtureEval({ name: 'agent-paid', baseUrl: server.openaiBaseUrl, noiseRates: [0], prices: { 'openai-compatible:fixture-agent-paid': { input: 1_000_000, output: 1_000_000 } } });
    const tool = testing.agentTools.tools.get('ragInspector_run_eval')!;
    const input = { evalFile: 'agent-paid/agent-paid.eval.yaml' };
    const cancel = new vscode.CancellationTokenSource();
    const prepared = await tool.prepareInvocation!({ input }, cancel.token);
    assert.match(prepared?.confirmationMessages?.title ?? '', /Run an evaluation for up to \$[\d.,]+\?/);
    const message = prepared!.confirmationMessages!.message;
    assert.match(typeof message === 'string' ? message : message.value, /3 calls/);

    // Declined in chat, VS Code never calls invoke: preparing sent nothing. A call whose cost was not accepted in chat
    // (these inputs were never prepared) meets the launcher's own question, as a person's run does: declined there too.
    assert.equal(server.requests.filter((r) => r.model === 'fixture-agent-paid').length, 0, 'preparing sent nothing');
    const modal = answerModalWarnings();
    try {
      const before = server.requests.length;
      await assert.rejects(Promise.resolve(tool.invoke({ input: { ...input, cases: ['noise/'] }, toolInvocationToken: undefined }, cancel.token)), /declined its cost/);
      assert.equal(modal.questions.length, 1);
      assert.equal(server.requests.length, before, 'nothing sent');
    } finally {
      modal.restore();
    }
  });

  test('Restricted Mode: the agent\'s run is refused, nothing sent; the MCP server is offered with --contain', async () => {
    const { testing } = await activatedExtension();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const restricted = testing.untrusted.useFactsForTesting({ isTrusted: () => false, folders: () => [folder], userOpenaiBaseUrl: () => undefined, workspaceOpenaiBaseUrl: () => undefined });
    try {
      const before = server.requests.length;
      await assert.rejects(invoke('run_eval', { evalFile: 'agent-tools/agent-tools.eval.yaml' }), /Restricted Mode/);
      assert.equal(server.requests.length, before, 'nothing sent');
      const [definition] = testing.agentTools.mcpServers();
      assert.ok(definition);
      assert.deepEqual(definition.args.slice(1, 4), ['mcp', '--root', folder]);
      assert.ok(definition.args.includes('--contain'));
    } finally {
      restricted.dispose();
    }
    assert.equal(typeof (vscode.lm as unknown as Record<string, unknown>).registerMcpServerDefinitionProvider, 'function', 'this VS Code offers MCP server definitions');
    assert.ok(!testing.agentTools.mcpServers()[0]!.args.includes('--contain'));
  });
});
