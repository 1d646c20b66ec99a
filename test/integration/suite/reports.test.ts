// Export Report and Compare Runs in the real extension host, on two runs of a fixture-server model whose answer to one case flips.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import type { RunSummary } from '../../../src/extension/runController.js';
import type { CompareOutcome } from '../../../src/extension/compare.js';
import type { ExportOutcome } from '../../../src/extension/exportReport.js';
import type { CompareRow } from '../../../src/protocol.js';
import { activatedExtension, note } from './extensionHost.js';
import { DEFAULT_RULES, fixtureEval, HOSTILE_ANSWER } from './fixtureEval.js';
import { eventually } from './eventually.js';
import { answerModalWarnings } from './inlineFixtures.js';
import { attributesOf, startOtlpReceiver } from '../../fixtures/otlpReceiver.js';
import type { FixtureEval } from './fixtureEval.js';

type WindowStubs = Partial<Pick<typeof vscode.window, 'showQuickPick' | 'showOpenDialog' | 'showWarningMessage' | 'showInformationMessage'>>;

/** Answers the command's prompts in place of a user (the test shares the extension's `vscode` object). */
function answerPrompts(stubs: WindowStubs): () => void {
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = Object.fromEntries(Object.keys(stubs).map((name) => [name, window[name]]));
  for (const [name, stub] of Object.entries(stubs)) window[name] = stub;
  return () => { for (const [name, original] of Object.entries(originals)) window[name] = original; };
}

type PickItems = readonly (vscode.QuickPickItem & Record<string, unknown>)[] | Thenable<readonly (vscode.QuickPickItem & Record<string, unknown>)[]>;

const FIXED_PLANET = 'Jupiter is the largest planet in the Solar System.';

suite('Export Report and Compare Runs', () => {
  let fixture: FixtureEval;
  let before: RunSummary;
  let after: RunSummary;
  let restore: () => void = () => undefined;

  suiteSetup(async () => {
    const { testing } = await activatedExtension();
    fixture = await fixtureEval('reports');
    const workspaceDir = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    // The controller runs what the launcher loaded; these runs skip the launcher (no cost question, no notifications).
    const spec = await loadEvalSpec(fixture.uri.fsPath);
    before = await testing.controller.start(spec, { workspaceDir, noCache: true });
    // The second run gets the planet question right; everything else answers as before.
    fixture.server.clearRules();
    for (const rule of [{ match: { contains: 'largest in the Solar System' }, reply: FIXED_PLANET }, ...DEFAULT_RULES]) fixture.server.addRule(rule);
    after = await testing.controller.start(spec, { workspaceDir, noCache: true });
    note(`runs ${before.runId} (${before.totals.passed} passed) → ${after.runId} (${after.totals.passed} passed)`);
    assert.equal(before.totals.passed, 1);
    assert.equal(after.totals.passed, 2);
  });

  teardown(() => restore());

  suiteTeardown(async () => {
    await fixture?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Export Report writes HTML, JSON, CSV and JUnit; the HTML embeds the data escaped, so a "</script><script>" response stays inert', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'rag-export-'));
    const started = Date.now();
    const outcome = await vscode.commands.executeCommand<ExportOutcome>('ragInspector.exportReport', { run: before.runId, formats: ['html', 'json', 'csv', 'junit'], folder });
    assert.equal(typeof outcome, 'object', `Export Report returned ${String(outcome)}`);
    if (typeof outcome !== 'object') return;
    note(`exported ${outcome.files.length} files in ${Date.now() - started} ms (report.html ${statSync(path.join(folder, 'report.html')).size} bytes)`);
    assert.deepEqual(outcome.files.map((f) => path.basename(f)), ['report.html', 'report.json', 'cases.csv', 'junit.xml']);
    for (const file of outcome.files) assert.ok(existsSync(file), file);

    const html = readFileSync(path.join(folder, 'report.html'), 'utf8');
    assert.ok(!html.includes('</script><script>window.__ragInspectorPwned'), 'the response must not appear as markup');
    // The bundle is the page's last script and may itself mention "<script" in its text; what matters is the markup around it.
    const bundleStart = html.indexOf('<script type="module">');
    const bundleEnd = html.lastIndexOf('</script>');
    assert.ok(bundleStart > 0 && bundleEnd > bundleStart);
    assert.ok(!html.slice(bundleStart + 1, bundleEnd).includes('</script'), 'nothing inside the bundle can end its script element');
    const markup = html.slice(0, bundleStart) + html.slice(bundleEnd);
    assert.deepEqual([...markup.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]), ['<script type="application/json" id="rag-inspector-data">'],
      'one data block, then the bundle: nothing a response could add');
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'/, 'only the bundle, by hash, may run');
    const json = /<script type="application\/json" id="rag-inspector-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
    assert.ok(json, 'no data block');
    const data = JSON.parse(json) as { runs: { detail: { listing: { runId: string } }; cases: { result: { response?: { text: string } } }[] }[] };
    assert.equal(data.runs[0]!.detail.listing.runId, before.runId);
    assert.ok(data.runs[0]!.cases.some((c) => c.result.response?.text === HOSTILE_ANSWER), 'the escaped data still reads back as the exact response');
    assert.equal(data.runs[0]!.cases.length, 3);

    const report = JSON.parse(readFileSync(path.join(folder, 'report.json'), 'utf8')) as { runId: string; cases: { response?: string }[] };
    assert.equal(report.runId, before.runId);
    assert.ok(report.cases.some((c) => c.response === HOSTILE_ANSWER));
    const junit = readFileSync(path.join(folder, 'junit.xml'), 'utf8');
    assert.match(junit, /tests="3"/);
    assert.ok(junit.includes('&lt;/script&gt;&lt;script&gt;') && !junit.includes('</script>'));
    assert.equal(readFileSync(path.join(folder, 'cases.csv'), 'utf8').trim().split('\n').length, 4, 'a header and one row per case');
  });

  test('Export Report from the palette: the latest run is preselected, formats are picked, and existing files are not replaced without asking', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'rag-export-'));
    const firstItems: string[] = [];
    let warned = '';
    restore = answerPrompts({
      showQuickPick: (async (items: PickItems, options?: vscode.QuickPickOptions) => {
        const list = await items;
        if (options?.canPickMany) return list.filter((i) => i.label === 'HTML' || i.label === 'JSON');
        firstItems.push(String((list[0]!.run as { runId: string }).runId));
        return list[0];
      }) as unknown as typeof vscode.window.showQuickPick,
      showOpenDialog: async () => [vscode.Uri.file(folder)],
      showWarningMessage: (async (message: string) => { warned = message; return undefined; }) as unknown as typeof vscode.window.showWarningMessage,
      showInformationMessage: (async () => undefined) as unknown as typeof vscode.window.showInformationMessage,
    });
    const outcome = await vscode.commands.executeCommand<ExportOutcome>('ragInspector.exportReport');
    assert.equal(firstItems[0], after.runId, 'the newest run comes first (Enter exports it)');
    assert.equal(typeof outcome, 'object', String(outcome));
    assert.deepEqual((outcome as { files: string[] }).files.map((f) => path.basename(f)), ['report.html', 'report.json']);
    const written = readFileSync(path.join(folder, 'report.json'), 'utf8');

    assert.equal(await vscode.commands.executeCommand('ragInspector.exportReport'), 'cancelled', 'declining the replace question cancels');
    assert.match(warned, /report\.html, report\.json already exist/);
    assert.equal(readFileSync(path.join(folder, 'report.json'), 'utf8'), written);
  });

  test('Compare Runs answers for two runs with the case that flipped, with both responses', async () => {
    const outcome = await vscode.commands.executeCommand<CompareOutcome>('ragInspector.compareRuns', { before: before.runId, after: after.runId });
    assert.equal(typeof outcome, 'object', `Compare Runs returned ${String(outcome)}`);
    const { rows } = outcome as { rows: CompareRow[] };
    assert.equal(rows.length, 1, `only the flipped case, not the unchanged pass and error: ${rows.map((r) => r.caseId).join(', ')}`);
    const [row] = rows;
    assert.equal(row!.before.pass, false);
    assert.equal(row!.after.pass, true);
    assert.equal(row!.beforeText, HOSTILE_ANSWER);
    assert.equal(row!.afterText, FIXED_PLANET);
    assert.equal(row!.after.question, 'Which planet is the largest in the Solar System?');
  });

  test('Compare Runs from the palette: pick the later run, then the earlier (preselected); the inspector opens its compare view on the pair', async () => {
    const { testing } = await activatedExtension();
    const calls: { title?: string; first?: unknown }[] = [];
    restore = answerPrompts({
      showQuickPick: (async (items: PickItems, options?: vscode.QuickPickOptions) => {
        const list = await items;
        calls.push({ title: options?.title, first: list[0]?.run ?? list[0]?.row });
        if (calls.length === 1) return list.find((i) => (i.run as { runId: string }).runId === after.runId);
        return list[0];
      }) as unknown as typeof vscode.window.showQuickPick,
    });
    const outcome = await vscode.commands.executeCommand<CompareOutcome>('ragInspector.compareRuns');
    assert.equal(typeof outcome, 'object', String(outcome));
    assert.equal((calls[1]!.first as { runId: string }).runId, before.runId, 'the run before it, of the same eval file, is preselected');
    assert.equal(calls.length, 2, 'two picks (the runs); the flipped cases go to the inspector, not to a third list');
    assert.equal((outcome as { rows: unknown[] }).rows.length, 1);
    const panel = await eventually('the inspector to open on the compared pair', () => testing.panels.panel);
    assert.ok(panel.panel.visible);
  });
  // Last in this suite: the traced run below is newer than the runs the palette tests above expect first.
  test('Export Report sends each case as an OpenInference trace to the endpoint given, and asks for no folder', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const outcome = await vscode.commands.executeCommand<ExportOutcome>('ragInspector.exportReport', { run: before.runId, formats: ['otlp'], otlpEndpoint: receiver.url });
      assert.equal(typeof outcome, 'object', `Export Report returned ${String(outcome)}`);
      if (typeof outcome !== 'object') return;
      assert.deepEqual(outcome.files, []);
      assert.equal(outcome.traces?.sent, 3);
      const spans = receiver.spans().map(attributesOf);
      assert.equal(spans.filter((a) => a['openinference.span.kind'] === 'CHAIN').length, 3, 'one trace (a CHAIN span) per case');
      assert.ok(spans.some((a) => a['output.value'] === HOSTILE_ANSWER), 'the response travels as text');
    } finally {
      await receiver.close();
    }
  });

  test('in an untrusted workspace, the eval file\'s export.otlp endpoint gets nothing without the user\'s yes, and never the headers the file names', async () => {
    const { testing } = await activatedExtension();
    const receiver = await startOtlpReceiver();
    process.env.RAG_E2E_COLLECTOR_KEY = 'collector-secret-e2e';
    const traced = await fixtureEval('reports-traced', { otlp: { endpoint: receiver.url, headerEnv: 'RAG_E2E_COLLECTOR_KEY' } });
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const untrusted = testing.untrusted.useFactsForTesting({ isTrusted: () => false, folders: () => [folder], userOpenaiBaseUrl: () => undefined, workspaceOpenaiBaseUrl: () => undefined });
    const modal = answerModalWarnings();
    let runId = '';
    try {
      const run = await testing.controller.start(await loadEvalSpec(traced.uri.fsPath), { workspaceDir: folder });
      runId = run.runId;
      modal.answer = undefined;
      assert.equal(await vscode.commands.executeCommand('ragInspector.exportReport', { run: run.runId, formats: ['otlp'] }), 'cancelled');
      assert.equal(modal.questions.length, 1);
      assert.ok(modal.questions[0]!.includes(receiver.url), `the question names the exact URL: ${modal.questions[0]}`);
      assert.equal(receiver.requests.length, 0, 'declined: nothing sent');

      modal.answer = 'Allow';
      const outcome = await vscode.commands.executeCommand<ExportOutcome>('ragInspector.exportReport', { run: run.runId, formats: ['otlp'] });
      assert.equal(typeof outcome === 'object' ? outcome.traces?.sent : outcome, 3);
      assert.ok(receiver.requests.length > 0);
      for (const request of receiver.requests) assert.equal(request.headers['x-collector-key'], undefined, 'the eval file\'s header is not sent from an untrusted workspace');
    } finally {
      modal.restore();
      untrusted.dispose();
      await testing.untrusted.forget();
      delete process.env.RAG_E2E_COLLECTOR_KEY;
      await traced.dispose();
      await receiver.close();
      // Its run must not become "the newest run" of later tests in this window.
      await vscode.workspace.fs.delete(vscode.Uri.file(path.join(folder, '.rag-inspector', 'runs', `${runId}.jsonl`))).then(undefined, () => undefined);
    }
  });
});
