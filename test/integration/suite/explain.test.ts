// Explain a failure from the inspector, in a real extension host against the fixture server: a case whose cause is
// planted (the scripted model answers wrong whenever the DISTRACTOR passage is among the documents), the cost asked
// above ragInspector.maxCostWithoutConfirm (declined: nothing sent; accepted: the variants run), and the panel's
// recorded messages carrying the leave-one-out outcomes and then the attribution that names the planted document.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CaseExplained, ExplainCase, ExplainFinished, ExplainProgress, ExplainStarted, GetExplanation, PROTOCOL_VERSION, Ready } from '../../../src/protocol.js';
import type { CaseDetail, CaseExplanation, RunExplanation } from '../../../src/protocol.js';
import { RUN_ANYWAY } from '../../../src/extension/costGuard.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { recordingPanel } from './builders.js';
import { activatedExtension } from './extensionHost.js';
import { answerModalWarnings, asSummary, workspaceFolder, writeFixtureEval } from './inlineFixtures.js';
import { eventually } from './eventually.js';

const QUESTION = 'Which city is the capital of Australia (planted)?';
const DISTRACTOR = 'DISTRACTOR notice: the capital moved to Sydney last year.';
const MARKER = 'MARKER-ANSWER: Canberra is the capital of Australia.';
/** One row: 3 positives and 2 negatives, so noise 0.4 of 5 passages shows every passage and the distractor for sure. */
const ROW = { id: 0, query: QUESTION, answer: ['Canberra'], positive: [MARKER, 'Parliament House stands on Capital Hill.', 'The city was founded in 1913.'], negative: [DISTRACTOR, 'Perth is the capital of Western Australia.'] };

/** The passages shown, one per line between "Document:" and the question (the workspace's RGB template). */
function documentsOf(req: RecordedRequest): string[] {
  return (/Document:\n([\s\S]*?) \n\nQuestion:/.exec(req.lastUserMessage)?.[1] ?? '').split('\n').filter((line) => line !== '');
}

/** The model under test reads the passages present: misled by the distractor, right from the marker passage. */
function plantedModel(req: RecordedRequest): string {
  const docs = documentsOf(req);
  if (docs.some((d) => d.includes('DISTRACTOR'))) return 'Sydney.';
  return docs.some((d) => d.includes('MARKER-ANSWER')) ? 'Canberra.' : 'I can not answer the question because of the insufficient information in documents.';
}

const posted = <P>(messages: unknown[], is: (m: unknown) => m is { params: P }): P[] => messages.filter(is).map((m) => m.params);

suite('explain a failure', () => {
  let server: FixtureServer;
  let modal: ReturnType<typeof answerModalWarnings>;

  suiteSetup(async () => {
    server = await startFixtureServer();
    await activatedExtension();
  });
  setup(() => {
    server.clearRules();
    server.addRule({ match: { contains: QUESTION }, reply: plantedModel });
    modal = answerModalWarnings();
  });
  teardown(async () => {
    modal.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => {
    await server?.close();
  });

  test('Explain from the inspector: the cost asked first, then the cards name the planted distractor', async function () {
    this.timeout(120_000);
    const { testing } = await activatedExtension();
    // A price far above the default limit of $1, so both the run and the explanation ask first.
    const fixture = await writeFixtureEval({ name: 'explain-planted', baseUrl: server.openaiBaseUrl, noiseRates: [0.4], prices: { 'openai-compatible:fixture-explain-planted': { input: 1_000_000, output: 1_000_000 } } });
    await vscode.workspace.fs.writeFile(fixture.dataset, new TextEncoder().encode(`${JSON.stringify(ROW)}\n`));
    modal.answer = RUN_ANYWAY;
    const run = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    assert.deepEqual([run.totals.cases, run.totals.failed], [1, 1], 'the planted case fails as run');
    const key = fixture.key('noise/0/noise=0.4');
    const detail: CaseDetail = await testing.store.getCase(run.runId, key);
    const distractor = detail.evalCase.documents.find((d) => d.text === DISTRACTOR);
    assert.ok(distractor, 'the distractor is among the case documents');

    // The panel the Explain action comes from, with the extension's own handlers and notifications, recorded.
    const webview = recordingPanel(vscode.Uri.file('/ext'));
    testing.panels.revive(webview.panel);
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
    await webview.send(GetExplanation.create(1, { runId: run.runId }), 1);
    assert.equal((webview.posted.at(-1) as { result: RunExplanation | null }).result, null, 'not explained yet');

    // Declined: the plan was shown as a modal question, nothing was sent to the model, nothing stored.
    modal.questions.length = 0;
    modal.answer = undefined;
    const before = server.requests.length;
    await webview.send(ExplainCase.create({ runId: run.runId, key }));
    const declined = await eventually('the explanation ended', () => posted(webview.posted, ExplainFinished.is.bind(ExplainFinished)).at(-1));
    assert.equal(declined.explanation, null);
    assert.equal(modal.questions.length, 1);
    assert.match(modal.questions[0]!, /Explain noise\/0\/noise=0\.4 on .* may cost up to \$[\d.,]+\. Run it\?/);
    assert.equal(server.requests.length, before, 'no model call before the cost is accepted');
    assert.equal(posted(webview.posted, ExplainStarted.is.bind(ExplainStarted)).length, 0);
    const stored = path.join(workspaceFolder().fsPath, '.rag-inspector', 'explanations', `${run.runId}.json`);
    assert.equal(existsSync(stored), false);

    // Accepted: the variants run; leave-one-out outcomes arrive before the case's explanation.
    modal.answer = RUN_ANYWAY;
    const finishedBefore = posted(webview.posted, ExplainFinished.is.bind(ExplainFinished)).length;
    await webview.send(ExplainCase.create({ runId: run.runId, key }));
    const finished = await eventually('the explanation finished', () => posted(webview.posted, ExplainFinished.is.bind(ExplainFinished))[finishedBefore], 90_000);
    assert.equal(modal.questions.length, 2);
    const [started] = posted(webview.posted, ExplainStarted.is.bind(ExplainStarted));
    assert.ok(started && started.plan.calls > 0, 'the plan was announced');
    assert.ok(server.requests.length > before, 'the variants were asked');
    const progress = posted(webview.posted, ExplainProgress.is.bind(ExplainProgress));
    const withoutDistractor = progress.find((p) => p.key === key && p.variantIds.includes(`loo:${distractor.id}`));
    assert.ok(withoutDistractor, 'the leave-one-out run without the distractor was reported');
    assert.equal(withoutDistractor.outcome.pass, true, 'without the distractor the case passes');
    const explained = posted(webview.posted, CaseExplained.is.bind(CaseExplained)).find((p) => p.key === key);
    assert.ok(explained, 'the case explanation was posted');
    assert.ok(webview.posted.indexOf(webview.posted.find((m) => ExplainProgress.is(m))) < webview.posted.findIndex((m) => CaseExplained.is(m)), 'progress before the explanation');

    // The cards' attribution: exactly the planted document harms; nothing is read as decisive in a failing case.
    const effects = (e: CaseExplanation) => Object.fromEntries(e.attributions.map((a) => [a.sourceId, a.effect]));
    const harms = Object.entries(effects(explained.explanation)).filter(([, effect]) => effect === 'harms').map(([id]) => id);
    assert.deepEqual(harms, [distractor.id]);
    assert.match(explained.explanation.summary, new RegExp(`\\b${distractor.id}\\b`));
    assert.equal(finished.explanation?.status, 'complete');

    // Stored, and what the inspector reads when the run is opened again.
    assert.ok(existsSync(stored));
    await webview.send(GetExplanation.create(2, { runId: run.runId }), 1);
    const reread = (webview.posted.at(-1) as { result: RunExplanation | null }).result;
    assert.deepEqual(reread?.cases.map((c) => [c.caseId, effects(c)[distractor.id]]), [['noise/0/noise=0.4', 'harms']]);
    testing.panels.panel?.dispose();
  });
});
