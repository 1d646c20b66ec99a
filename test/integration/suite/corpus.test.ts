// The corpus lab in the real extension host: Sweep Retrieval Settings on the bundled BM25 corpus opens the sweep panel
// on the sweep it wrote (a reranker refusing the key stops it before anything is reranked), Build Index is cancelled
// mid-embedding, an untrusted workspace's embeddings endpoint is asked about before anything is sent, Generate Test
// Questions writes the questions the fixture judge keeps (or, its cost plan declined, sends nothing), and the sweep
// panel runs two cells end to end against the fixture server (declined: nothing sent; accepted: two runs on disk, their
// failure splits in the panel, found again when reopened).
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import type { CorpusOutcome } from '../../../src/extension/corpusCommands.js';
import { CancelSweepCells, OpenSweepCellRun, PROTOCOL_VERSION, Ready, RunSweepCells, SweepCellRuns } from '../../../src/protocol.js';
import type { SweepCellRun } from '../../../src/protocol.js';
import { recordingPanel } from './builders.js';
import type { TrustFacts } from '../../../src/extension/untrustedWorkspace.js';
import { activatedExtension } from './extensionHost.js';
import { answerModalWarnings, answerPrompts, workspaceFolder } from './inlineFixtures.js';
import { eventually } from './eventually.js';
import { acceptingDefaults, DOCS, promptKind, scriptSingleHop } from '../../unit/corpus/questions/fixtureCorpus.js';

const SWEEP = 'ragInspector.sweepRetrieval';
const BUILD = 'ragInspector.buildIndex';
const QUESTIONS = 'ragInspector.generateQuestions';

const sweepTabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs)
  .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('ragInspector.sweep'));

suite('Corpus lab: sweep and index', () => {
  let server: FixtureServer;
  let lab: string;
  let restore: () => void = () => undefined;
  let restricted: vscode.Disposable | undefined;

  const writeEval = (name: string, lines: string[]) => {
    const file = path.join(lab, name);
    writeFileSync(file, `${['version: 1', `name: ${name}`, 'models:', '  - { provider: extractive, model: bm25 }', ...lines, 'suites:', '  - { id: corpus, method: rag, dataset: questions.jsonl, params: { k: 2 } }'].join('\n')}\n`);
    return file;
  };
  const denseIndex = () => ['index:', '  folder: docs', '  search: dense', `  embeddings: { provider: openai-compatible, model: fixture-embed, baseUrl: "${server.openaiBaseUrl}" }`];

  suiteSetup(async () => {
    const { extension } = await activatedExtension();
    server = await startFixtureServer();
    // The bundled corpus example: four English Markdown files and questions labelled by character spans.
    lab = path.join(workspaceFolder().fsPath, 'corpus-lab');
    mkdirSync(path.join(lab, 'docs'), { recursive: true });
    const example = path.join(extension.extensionPath, 'examples', 'corpus');
    for (const file of readdirSync(path.join(example, 'docs')).filter((f) => f.endsWith('.md'))) cpSync(path.join(example, 'docs', file), path.join(lab, 'docs', file));
    cpSync(path.join(example, 'questions.jsonl'), path.join(lab, 'questions.jsonl'));
  });
  teardown(async () => {
    restore();
    restore = () => undefined;
    restricted?.dispose();
    restricted = undefined;
    server.clearRules();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => {
    await server?.close();
    rmSync(lab, { recursive: true, force: true });
  });

  test('Sweep Retrieval Settings on a BM25 index: every cell measured, sweep.json written, the sweep panel opened', async function () {
    this.timeout(60_000);
    const file = writeEval('sweep.eval.yaml', ['index: { folder: docs, chunking: { by: tokens, size: 64, overlap: 8 }, search: bm25 }', 'seed: 7', 'sweep:', '  chunkSize: [32, 64]', '  k: [1, 2]']);
    assert.equal(sweepTabs().length, 0);
    const outcome = await vscode.commands.executeCommand<CorpusOutcome>(SWEEP, vscode.Uri.file(file));
    assert.ok(outcome?.status === 'swept', `expected a sweep, got ${JSON.stringify(outcome)}`);
    assert.equal(outcome.cells, 4);
    assert.match(outcome.best, /best/i);
    const json = outcome.written.find((f) => f.endsWith('sweep.json'));
    assert.ok(json && existsSync(json), `sweep.json written: ${outcome.written.join(', ')}`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { cells: Array<{ key: string; errors: number }>; retriever: string };
    assert.equal(report.cells.length, 4);
    assert.deepEqual(report.cells.map((cell) => cell.errors), [0, 0, 0, 0]);
    assert.equal(report.retriever, `index of ${path.join(lab, 'docs')}`);
    await eventually('the sweep panel', () => sweepTabs().length === 1, 10_000, () => sweepTabs().map((tab) => tab.label));
    assert.equal(sweepTabs()[0]!.label, 'Sweep: sweep.eval.yaml');
  });

  test('an eval file without sweep: says what to add; nothing is opened', async () => {
    const errors: string[] = [];
    restore = answerPrompts({ showErrorMessage: ((message: string) => { errors.push(message); return Promise.resolve(undefined); }) as typeof vscode.window.showErrorMessage });
    const file = writeEval('nosweep.eval.yaml', ['index: { folder: docs, search: bm25 }']);
    const outcome = await vscode.commands.executeCommand<CorpusOutcome>(SWEEP, vscode.Uri.file(file));
    assert.deepEqual(outcome, { status: 'failed' });
    assert.match(errors.join('\n'), /no sweep: block\. Add the settings to try/);
    assert.equal(sweepTabs().length, 0);
  });

  test('Sweep Retrieval Settings with a reranker that refuses the key: stopped before anything is reranked, naming index.rerank.headers', async function () {
    this.timeout(30_000);
    server.addRule({ match: (req) => req.api === 'rerank', fault: { kind: 'status', status: 401, body: { error: { message: 'Invalid API key' } } } });
    const errors: string[] = [];
    restore = answerPrompts({ showErrorMessage: ((message: string) => { errors.push(message); return Promise.resolve(undefined); }) as typeof vscode.window.showErrorMessage });
    const file = writeEval('rerank.eval.yaml', ['index:', '  folder: docs', '  search: bm25', `  rerank: { url: "${server.url}/rerank" }`, 'sweep:', '  k: [1, 2]']);
    const before = server.requests.length;
    const outcome = await vscode.commands.executeCommand<CorpusOutcome>(SWEEP, vscode.Uri.file(file));
    assert.deepEqual(outcome, { status: 'failed' });
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^RAG Inspector: index\.rerank: .* refused the key \(HTTP 401\) — check the variable index\.rerank\.headers names in the eval file/);
    assert.doesNotMatch(errors[0]!, /--no-preflight/, 'no CLI flag in VS Code');
    assert.equal(server.requests.slice(before).filter((req) => req.api === 'rerank').length, 1, 'one cheap call, nothing reranked');
    assert.equal(sweepTabs().length, 0);
  });

  test('Build Index cancelled while an embedding is in flight: the command ends cancelled and says how to go on', async function () {
    this.timeout(30_000);
    // Every embeddings request hangs: the build can only end by being cancelled.
    server.addRule({ match: (req) => req.api === 'openai-embeddings', fault: { kind: 'hang' } });
    const infos: string[] = [];
    const showInformationMessage = vscode.window.showInformationMessage;
    restore = answerPrompts({
      showInformationMessage: ((message: string, ...rest: unknown[]) => {
        infos.push(message);
        return (showInformationMessage as (...args: unknown[]) => Thenable<unknown>)(message, ...rest);
      }) as typeof vscode.window.showInformationMessage,
    });
    const file = writeEval('dense.eval.yaml', denseIndex());
    const source = new vscode.CancellationTokenSource();
    const before = server.requests.length;
    const running = vscode.commands.executeCommand<CorpusOutcome>(BUILD, { file, cancellation: source.token });
    await eventually('an embeddings request at the server', () => server.requests.slice(before).some((req) => req.api === 'openai-embeddings'), 20_000);
    source.cancel();
    const outcome = await running;
    assert.deepEqual(outcome, { status: 'cancelled' });
    assert.match(infos.join('\n'), /index build cancelled\. Build it again to go on from where it stopped/);
  });

  test('Build Index on a store that cannot open: an error notification naming the setting and the way out', async function () {
    this.timeout(30_000);
    // The same path as an embedded store whose native module is missing (a .vsix for another platform): the store
    // stops the build with the setting at fault and what to do, and that sentence is what the user sees.
    const errors: string[] = [];
    restore = answerPrompts({ showErrorMessage: ((message: string) => { errors.push(message); return Promise.resolve(undefined); }) as typeof vscode.window.showErrorMessage });
    const file = writeEval('pg.eval.yaml', [...denseIndex(), '  store: { type: pgvector, urlEnv: RAG_E2E_NO_SUCH_PG_URL, table: chunks }']);
    const outcome = await vscode.commands.executeCommand<CorpusOutcome>(BUILD, vscode.Uri.file(file));
    assert.deepEqual(outcome, { status: 'failed' });
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^RAG Inspector: the index could not be built: .*index\.store\.urlEnv: .*RAG_E2E_NO_SUCH_PG_URL.* — set it/);
  });

  test('untrusted workspace: the index\'s own embeddings endpoint is asked about first; no answer means nothing is sent', async () => {
    const { testing } = await activatedExtension();
    const facts: TrustFacts = { isTrusted: () => false, folders: () => [workspaceFolder().fsPath], userOpenaiBaseUrl: () => undefined, workspaceOpenaiBaseUrl: () => undefined };
    restricted = testing.untrusted.useFactsForTesting(facts);
    await testing.untrusted.forget();
    const modal = answerModalWarnings();
    restore = modal.restore;
    const file = writeEval('untrusted.eval.yaml', [...denseIndex(), 'sweep:', '  k: [1, 3]']);
    const before = server.requests.length;
    for (const command of [BUILD, SWEEP, QUESTIONS]) {
      const outcome = await vscode.commands.executeCommand<CorpusOutcome>(command, vscode.Uri.file(file));
      assert.deepEqual(outcome, { status: 'not-allowed' }, command);
    }
    assert.equal(modal.questions.length, 3);
    for (const question of modal.questions) assert.ok(question.includes(server.openaiBaseUrl), question);
    assert.equal(server.requests.length, before, 'nothing reached the endpoint');
    assert.equal(sweepTabs().length, 0);
  });

  /** A folder of three short documents and an eval file whose generator (priced high), judge and embeddings are the fixture server's. */
  const questionsLab = () => {
    const folder = path.join(lab, 'questions');
    mkdirSync(path.join(folder, 'docs'), { recursive: true });
    for (const [name, text] of Object.entries(DOCS)) writeFileSync(path.join(folder, 'docs', name), text);
    writeFileSync(path.join(folder, 'seed.jsonl'), '{"question": "q", "answer": "a"}\n');
    const model = (name: string) => `{ provider: openai-compatible, model: ${name}, baseUrl: "${server.openaiBaseUrl}" }`;
    const file = path.join(folder, 'q.eval.yaml');
    writeFileSync(file, `${['version: 1', 'name: questions', `models:\n  - ${model('fixture-generator')}`, `judge: ${model('fixture-judge')}`, `embeddings: ${model('fixture-embed')}`,
      'maxRetries: 0', 'prices:\n  "openai-compatible:fixture-generator": { input: 1000000, output: 1000000 }', 'index:\n  folder: docs', 'suites:\n  - { id: rag, method: rag, dataset: seed.jsonl }'].join('\n')}\n`);
    return { file, out: path.join(folder, 'questions.jsonl') };
  };
  test('Generate Test Questions: the cost plan confirmed, the kept questions written with their chunk ids, the file opened; declined, nothing is sent', async function () {
    this.timeout(60_000);
    const { file, out } = questionsLab();
    scriptSingleHop(server);
    acceptingDefaults(server);
    const modal = answerModalWarnings();
    restore = modal.restore;
    // Declined: the plan was priced above the limit and asked about, and no request reached the server.
    const before = server.requests.length;
    const declined = await vscode.commands.executeCommand<CorpusOutcome>(QUESTIONS, { file, out, count: 3, kinds: ['single-hop'] });
    assert.deepEqual(declined, { status: 'declined' });
    assert.equal(modal.questions.length, 1);
    assert.match(modal.questions[0]!, /Generate Test Questions may cost up to \$/);
    assert.equal(server.requests.length, before, 'nothing reached the models');
    assert.equal(existsSync(out), false);
    // Confirmed: three single-hop questions, each from its own chunk, kept and written; the summary's Review button pressed.
    modal.answer = 'Run';
    const summaries: string[] = [];
    const restoreInfo = answerPrompts({
      showInformationMessage: ((message: string, ...items: unknown[]) => {
        summaries.push(message);
        return Promise.resolve(items.includes('Review Questions') ? 'Review Questions' : undefined);
      }) as typeof vscode.window.showInformationMessage,
    });
    const restoreModal = restore;
    restore = () => { restoreInfo(); restoreModal(); };
    const outcome = await vscode.commands.executeCommand<CorpusOutcome>(QUESTIONS, { file, out, count: 3, kinds: ['single-hop'] });
    assert.ok(outcome?.status === 'generated', `expected questions, got ${JSON.stringify(outcome)}`);
    assert.equal(outcome.summary.kept, 3);
    assert.equal(outcome.summary.rejected, 0);
    assert.equal(outcome.rejectedFile, path.join(path.dirname(out), 'questions.rejected.jsonl'));
    const rows = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { question: string; relevant_ids: string[] });
    assert.equal(rows.length, 3);
    for (const row of rows) assert.equal(row.relevant_ids.length, 1, row.question);
    assert.equal(server.requests.filter((req) => promptKind(req) === 'singleHop').length, 3);
    await eventually('the questions file opened', () => vscode.window.activeTextEditor?.document.uri.fsPath === out, 10_000, () => vscode.window.activeTextEditor?.document.uri.fsPath);
    assert.match(summaries.join('\n'), /Kept 3 question\(s\) in questions\.jsonl/);
    const reviewTabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('ragInspector.questionReview'));
    await eventually('the review panel opened from the summary', () => reviewTabs().length === 1, 10_000, () => reviewTabs().map((tab) => tab.label));
  });

  /** A sweep of the bundled corpus (2 chunk sizes × 2 k) whose model is the fixture server's `fixture-chat`. */
  const endToEndEval = (name: string, lines: string[], sweepLines: string[] = []) => {
    const file = path.join(lab, `${name}.eval.yaml`);
    writeFileSync(file, `${[`version: 1`, `name: ${name}`, 'models:', `  - { provider: openai-compatible, model: fixture-chat, baseUrl: "${server.openaiBaseUrl}" }`, 'maxRetries: 0', ...lines,
      'index: { folder: docs, chunking: { by: tokens, size: 64, overlap: 8 }, search: bm25 }', 'seed: 7', 'sweep:', '  chunkSize: [32, 64]', '  k: [1, 2]', ...sweepLines,
      'suites:', '  - { id: corpus, method: rag, dataset: questions.jsonl, params: { k: 2 } }'].join('\n')}\n`);
    return file;
  };
  /** Sweep Retrieval Settings shown in a recording panel whose view has said it is ready. */
  const openSweep = async (file: string) => {
    const { extension } = await activatedExtension();
    const webview = recordingPanel(vscode.Uri.file(extension.extensionPath));
    const outcome = await vscode.commands.executeCommand<CorpusOutcome>(SWEEP, { file, panel: webview.panel });
    assert.ok(outcome?.status === 'swept', `expected a sweep, got ${JSON.stringify(outcome)}`);
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }), 1);
    return { webview, outcome };
  };
  const states = (posted: unknown[]) => posted.filter(SweepCellRuns.is.bind(SweepCellRuns)).map((m) => m.params);
  const cellKeys = (outcome: Extract<CorpusOutcome, { status: 'swept' }>) => (JSON.parse(readFileSync(outcome.written.find((f) => f.endsWith('sweep.json'))!, 'utf8')) as { cells: Array<{ key: string }> }).cells.map((cell) => cell.key);

  test('Sweep end to end from the panel: the cost plan declined sends nothing; accepted, two cells run as runs of their own and the panel shows their failure splits, again when reopened', async function () {
    this.timeout(120_000);
    const { testing } = await activatedExtension();
    const file = endToEndEval('e2e', ['prices:', '  "openai-compatible:fixture-chat": { input: 1000000, output: 1000000 }'], ['  endToEnd: [{ chunkSize: 64, k: 1 }]']);
    // One question answered right, one whose call fails (its case errors), the rest answered wrong by the fixture.
    server.addRule({ match: { contains: 'annual fee for visitors' }, reply: 'It is 12 euros.' });
    server.addRule({ match: { contains: 'replace a lost library card' }, fault: { kind: 'status', status: 400 } });
    const questions: Array<{ message: string; detail: string }> = [];
    const modal: { answer: string | undefined } = { answer: undefined };
    const showWarningMessage = vscode.window.showWarningMessage;
    restore = answerPrompts({
      showWarningMessage: ((message: string, ...rest: unknown[]) => {
        const options = rest[0] as vscode.MessageOptions | undefined;
        if (!options?.modal) return (showWarningMessage as (...args: unknown[]) => Thenable<unknown>)(message, ...rest);
        questions.push({ message, detail: options.detail ?? '' });
        return Promise.resolve(modal.answer);
      }) as typeof vscode.window.showWarningMessage,
    });
    const { webview, outcome } = await openSweep(file);
    const keys = cellKeys(outcome);
    const picked = [keys[0]!, keys[3]!];
    // The eval file's own pick (sweep.endToEnd, the CLI's --end-to-end cells) is sent for the view to pick first.
    const named = keys.filter((key) => /^chunkSize=64 .*k=1$/.test(key));
    assert.equal(named.length, 1, keys.join('; '));
    assert.deepEqual(states(webview.posted).at(-1)!.named, named);

    // Declined: asked with the CLI's plan line, and nothing reached the server.
    const before = server.requests.length;
    await webview.send(RunSweepCells.create({ cells: picked }));
    const declined = await eventually('the declined plan reported', () => states(webview.posted).find((s) => !s.running && /declined/.test(s.message ?? '')), 20_000, () => states(webview.posted));
    assert.match(declined.message!, /nothing was sent \(cost plan: up to \$[\d.,]+ for \d+ priced model calls\)/);
    assert.equal(questions.length, 1);
    assert.match(questions[0]!.message, /Sweep end to end may cost up to \$/);
    assert.match(questions[0]!.detail, /^End to end: 2 cells, cost plan: up to \$[\d.,]+ for 22 priced model calls$/m);
    assert.equal(server.requests.length, before, 'nothing reached the models');
    assert.deepEqual(declined.runs, []);

    // Accepted: each cell a run of its own, its accuracy and failure split posted; the errored case said in words.
    modal.answer = 'Run';
    const sent = webview.posted.length;
    await webview.send(RunSweepCells.create({ cells: picked }));
    const done = await eventually('both cells finished', () => states(webview.posted.slice(sent)).find((s) => !s.running && s.runs.filter((r) => r.state === 'finished').length === 2), 90_000, () => states(webview.posted).at(-1));
    assert.ok(states(webview.posted.slice(sent)).some((s) => s.running && s.runs.some((r) => r.state === 'running')), 'a running cell was shown');
    assert.ok(states(webview.posted.slice(sent)).some((s) => s.running && /^End to end: 2 cells, cost plan: up to \$/.test(s.message ?? '')), 'the plan shown while the cells run');
    assert.match(done.message ?? '', /^Ran 2 cells end to end \(cost plan: /);
    const byCell = new Map(done.runs.map((run) => [run.cellKey, run]));
    const runIds: string[] = [];
    for (const key of picked) {
      const run: SweepCellRun | undefined = byCell.get(key);
      assert.ok(run?.runId, `${key} ran: ${JSON.stringify(run)}`);
      runIds.push(run.runId);
      assert.ok(existsSync(path.join(lab, '.rag-inspector', 'runs', `${run.runId}.jsonl`)), `${key}: its run log beside the eval file`);
      assert.equal(run.status, 'completed-with-errors', 'a run with an errored case is never a success');
      assert.match(run.problem ?? '', /^1 of 11 case\(s\) ended in an error/);
      const [model] = run.models;
      assert.equal(model?.model, 'openai-compatible:fixture-chat');
      assert.equal(model.accuracy.n, 10);
      assert.equal(typeof model.accuracy.low, 'number');
      assert.ok(model.split.length > 0, `${key}: its failure split`);
      for (const { cause } of model.split) assert.match(cause, /^(not-retrieved|ranked-out|generation|undetermined)$/);
    }
    assert.notEqual(runIds[0], runIds[1]);

    // The cell's link opens the inspector.
    await webview.send(OpenSweepCellRun.create({ runId: runIds[0]! }));
    await eventually('the inspector opened', () => testing.panels.panel !== undefined, 10_000);

    // Reopened: the sweep finds its cells' runs on disk.
    await eventually('the runs in the run store', async () => {
      const listed = new Set((await testing.store.listRuns()).map((run) => run.runId));
      return runIds.every((id) => listed.has(id));
    }, 20_000);
    const again = await openSweep(file);
    const shown = await eventually('the earlier runs shown', () => states(again.webview.posted).find((s) => s.runs.length === 2), 20_000, () => states(again.webview.posted));
    assert.deepEqual(new Set(shown.runs.map((run) => run.runId)), new Set(runIds));
    for (const run of shown.runs) {
      assert.deepEqual(run.models, byCell.get(run.cellKey)!.models, `${run.cellKey}: the same numbers read back from its run`);
      assert.match(run.problem ?? '', /^1 of 11 case\(s\) ended in an error/);
    }
  });

  test('Sweep end to end cancelled while a model call hangs: the cell says so in words, the next cell is not started', async function () {
    this.timeout(60_000);
    const file = endToEndEval('e2e-cancel', []);
    server.addRule({ match: (req) => req.api === 'openai-chat', fault: { kind: 'hang' } });
    const { webview, outcome } = await openSweep(file);
    const keys = cellKeys(outcome);
    const before = server.requests.length;
    await webview.send(RunSweepCells.create({ cells: [keys[1]!, keys[2]!] }));
    await eventually('a model call at the server', () => server.requests.slice(before).some((req) => req.api === 'openai-chat'), 30_000);
    await webview.send(CancelSweepCells.create({}));
    const ended = await eventually('the cells ended', () => states(webview.posted).find((s) => !s.running && /Cancelled/.test(s.message ?? '')), 30_000, () => states(webview.posted).at(-1));
    assert.deepEqual(ended.runs.map((run) => run.cellKey), [keys[1]], 'the second cell never started');
    const [stopped] = ended.runs;
    assert.notEqual(stopped!.status, 'success');
    assert.match(stopped!.problem ?? '', /cancelled/);
  });

  test('Sweep cells running hold the one run at a time: another run is refused naming the sweep, and Cancel Run stops the cells', async function () {
    this.timeout(60_000);
    const file = endToEndEval('e2e-guard', []);
    const other = endToEndEval('e2e-other', []);
    server.addRule({ match: (req) => req.api === 'openai-chat', fault: { kind: 'hang' } });
    const errors: string[] = [];
    restore = answerPrompts({ showErrorMessage: ((message: string) => { errors.push(message); return Promise.resolve(undefined); }) as typeof vscode.window.showErrorMessage });
    const { webview, outcome } = await openSweep(file);
    const keys = cellKeys(outcome);
    const before = server.requests.length;
    await webview.send(RunSweepCells.create({ cells: [keys[0]!, keys[1]!] }));
    await eventually('a model call at the server', () => server.requests.slice(before).some((req) => req.api === 'openai-chat'), 30_000);

    const { testing } = await activatedExtension();
    assert.equal(testing.controller.active?.specFile, file);
    const refused = await vscode.commands.executeCommand('ragInspector.runEvaluation', vscode.Uri.file(other));
    assert.equal(refused, 'failed');
    assert.match(errors.join('\n'), /a run of .*e2e-guard\.eval\.yaml is still in progress/);

    await vscode.commands.executeCommand('ragInspector.cancelRun');
    const ended = await eventually('the cells ended', () => states(webview.posted).find((s) => !s.running && /Cancelled/.test(s.message ?? '')), 30_000, () => states(webview.posted).at(-1));
    assert.deepEqual(ended.runs.map((run) => run.cellKey), [keys[0]], 'the second cell never started');
    assert.match(ended.runs[0]!.problem ?? '', /cancelled/);
    assert.equal(testing.controller.active, undefined, 'the slot is free again');
  });
});

