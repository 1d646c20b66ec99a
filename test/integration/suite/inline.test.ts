// Failures inline, after a real run against the fixture server: diagnostics on the dataset rows and the template, CodeLens and its commands, escaped hovers.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { failureMessage } from '../../../src/core/report/runData.js';
import { Reveal } from '../../../src/protocol.js';
import { caseRequests, startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { activatedExtension } from './extensionHost.js';
import type { FixtureEval, Summary } from './inlineFixtures.js';
import { HOSTILE_ANSWER, QUESTIONS, asSummary, readLines, scriptedAnswers, workspaceFolder, writeFixtureEval } from './inlineFixtures.js';
import { eventually } from './eventually.js';

suite('failures inline (diagnostics, CodeLens, hover)', () => {
  let server: FixtureServer;
  let fixture: FixtureEval;
  let run: Summary;

  suiteSetup(async function () {
    this.timeout(60_000);
    server = await startFixtureServer({ rules: scriptedAnswers() });
    fixture = await writeFixtureEval({ name: 'inline', baseUrl: server.openaiBaseUrl });
    await activatedExtension();
    run = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('ragInspector').update('codeLens.showPassing', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await server?.close();
  });

  test('the run: 3 rows × 2 noise ratios, wrong answers on row 1, model errors on row 3', () => {
    assert.equal(run.status, 'completed-with-errors', 'cases ended in errors: never success');
    assert.deepEqual([run.totals.cases, run.totals.passed, run.totals.failed, run.totals.error], [6, 2, 2, 2]);
    // Plus the preflight's one model listing.
    assert.equal(caseRequests(server.requests).length, 6);
  });

  test('each failed case has a diagnostic on its dataset line with core\'s failure message; passing rows have none', async () => {
    const diagnostics = await eventually('diagnostics on the dataset', () => {
      const found = vscode.languages.getDiagnostics(fixture.dataset);
      return found.length >= 4 ? found : undefined;
    });
    const log = await readRunLog(path.join(workspaceFolder().fsPath, '.rag-inspector', 'runs', `${run.runId}.jsonl`));
    const expected = log.cases
      .filter((c) => c.result.pass === false || c.result.status === 'error')
      .map((c) => ({ line: c.case.row.line - 1, code: c.case.id, message: `${c.case.id}: ${failureMessage(c.result)}`, error: c.result.status === 'error' }))
      .sort((a, b) => a.code.localeCompare(b.code));
    const actual = diagnostics
      .map((d) => ({ line: d.range.start.line, code: String(d.code), message: d.message, error: d.severity === vscode.DiagnosticSeverity.Error }))
      .sort((a, b) => a.code.localeCompare(b.code));
    assert.deepEqual(actual, expected);
    assert.deepEqual(actual.map((d) => d.line), [0, 0, 2, 2], 'rows 1 and 3 (0-based 0 and 2)');
    for (const d of actual.filter((a) => a.line === 0)) assert.ok(!d.error && /answer part 1 of 1 \('Canberra'\) not found/.test(d.message), `a wrong answer is a warning saying what was missing: ${JSON.stringify(d)}`);
    for (const d of actual.filter((a) => a.line === 2)) assert.ok(d.error && /^noise\/2\/noise=0(\.4)?: model error/.test(d.message), `a model error is an error: ${JSON.stringify(d)}`);
    assert.ok(diagnostics.every((d) => d.source === 'RAG Inspector'));
  });

  test('the template gets one summary at its user: line', async () => {
    const [summary, ...rest] = await eventually('a diagnostic on the template', () => {
      const found = vscode.languages.getDiagnostics(fixture.template);
      return found.length > 0 ? found : undefined;
    });
    assert.equal(rest.length, 0);
    const userLine = (await readLines(fixture.template)).findIndex((line) => line.trim() === 'user:');
    assert.ok(userLine > 0);
    assert.equal(summary!.range.start.line, userLine);
    assert.match(summary!.message, /^4 of 6 cases of inline fail with this template \(2 failed verdicts, 2 model errors\)/);
    assert.equal(summary!.severity, vscode.DiagnosticSeverity.Error, 'model errors among them');
  });

  test('CodeLens: a failed row reads "✗ noise 0 — wrong answer (+1 more) · Inspect · Rerun 2"; passing rows stay quiet', async () => {
    // CodeLens is asked for open documents only.
    await vscode.workspace.openTextDocument(fixture.dataset);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fixture.dataset);
    const byLine = (line: number) => lenses.filter((l) => l.range.start.line === line).map((l) => l.command?.title);
    assert.deepEqual(byLine(0), ['✗ noise 0 — wrong answer (+1 more)', 'Inspect', 'Rerun 2']);
    assert.deepEqual(byLine(2), ['✗ noise 0 — model error (+1 more)', 'Inspect', 'Rerun 2']);
    assert.deepEqual(byLine(1), [], 'passing rows get no CodeLens unless ragInspector.codeLens.showPassing');

    const inspect = lenses.find((l) => l.range.start.line === 0 && l.command?.title === 'Inspect')!.command!;
    assert.equal(inspect.command, 'ragInspector.openInspector');
    assert.deepEqual(inspect.arguments, [{ runId: run.runId, key: fixture.key('noise/0/noise=0') }]);
    const rerun = lenses.find((l) => l.range.start.line === 0 && l.command?.title === 'Rerun 2')!.command!;
    assert.equal(rerun.command, 'ragInspector.rerunCase');
    assert.deepEqual(rerun.arguments, [{ specFile: fixture.evalFile.fsPath, keys: [fixture.key('noise/0/noise=0'), fixture.key('noise/0/noise=0.4')] }]);

    await vscode.workspace.getConfiguration('ragInspector').update('codeLens.showPassing', true, vscode.ConfigurationTarget.Global);
    const withPassing = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fixture.dataset);
    assert.deepEqual(withPassing.filter((l) => l.range.start.line === 1).map((l) => l.command?.title), ['✓ 2/2']);
  });

  test('CodeLens on the template: "Run Evaluation · 4 failed of 6 (last run)" runs its eval file', async () => {
    await vscode.workspace.openTextDocument(fixture.template);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fixture.template);
    const ours = lenses.filter((l) => l.command?.command === 'ragInspector.runEvaluation');
    assert.deepEqual(ours.map((l) => [l.range.start.line, l.command!.title]), [[0, 'Run Evaluation · 4 failed of 6 (last run)']]);
    assert.equal((ours[0]!.command!.arguments![0] as vscode.Uri).fsPath, fixture.evalFile.fsPath);
  });

  test('Inspect opens the inspector and reveals the case there (the protocol\'s Reveal)', async () => {
    const { testing } = await activatedExtension();
    await vscode.workspace.openTextDocument(fixture.dataset);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fixture.dataset);
    const inspect = lenses.find((l) => l.range.start.line === 2 && l.command?.title === 'Inspect')!.command!;
    await vscode.commands.executeCommand('ragInspector.openInspector');
    const webview = testing.panels.panel!.panel.webview;
    const posted: unknown[] = [];
    const post = webview.postMessage.bind(webview);
    // Watches what reaches the real webview (and still delivers it).
    (webview as { postMessage: typeof webview.postMessage }).postMessage = (message: unknown) => { posted.push(message); return post(message); };
    await vscode.commands.executeCommand(inspect.command, ...(inspect.arguments ?? []));
    const reveal = await eventually('a Reveal posted to the webview', () => posted.find((m) => Reveal.is(m)));
    assert.deepEqual((reveal as { params: unknown }).params, { runId: run.runId, key: fixture.key('noise/2/noise=0') });
  });

  test('hover on a failed row shows the failure, the response verbatim in a code block and the explanations — nothing rendered', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', fixture.dataset, new vscode.Position(QUESTIONS.australia.line - 1, 3));
    const ours = hovers.flatMap((h) => h.contents).filter((c): c is vscode.MarkdownString => c instanceof vscode.MarkdownString && c.value.includes('**Why:**'));
    assert.equal(ours.length, 1, 'one hover from RAG Inspector');
    const md = ours[0]!;
    assert.notEqual(md.isTrusted, true);
    assert.notEqual(md.supportHtml, true);
    assert.ok(md.value.includes(`\`\`\`text\n${HOSTILE_ANSWER}\n\`\`\``), `the response must be a fenced block, verbatim:\n${md.value}`);
    const outsideFences = md.value.replace(/```text\n[\s\S]*?\n```/g, '');
    assert.doesNotMatch(outsideFences, /(?<!\\)[<[]/, 'every < and [ outside the code block is escaped');
    assert.match(md.value, /noise\/0\/noise=0/);
    assert.match(md.value, /\*\*correct:\*\* failed \\\(incorrect\\\)/, 'the scorer\'s verdict and explanation');

    // Rendered the way Markdown is rendered in VS Code (the built-in Markdown extension, HTML allowed): still only text.
    const html = await vscode.commands.executeCommand<string>('markdown.api.render', md.value);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt; \[click me\]\(http:\/\/evil\.example\/\) Sydney/);
    assert.doesNotMatch(html, /<img|<a\s/i);

    const quiet = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', fixture.dataset, new vscode.Position(QUESTIONS.jupiter.line - 1, 3));
    assert.equal(quiet.flatMap((h) => h.contents).filter((c) => c instanceof vscode.MarkdownString && c.value.includes('**Why:**')).length, 0, 'no hover on a passing row');
  });
});
