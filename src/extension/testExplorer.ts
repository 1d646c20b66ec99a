// Test Explorer: every *.eval.yaml a test item (suites → case × model, from its current results), run through the launcher case by case.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunEvent } from '../core/engine/events.js';
import { InputError, InputErrors, describeError } from '../core/errors.js';
import type { CaseResult, EvalCase, InputProblem, ThresholdOutcome } from '../core/model.js';
import { failureMessage } from '../core/report/runData.js';
import type { CaseDigest } from '../core/report/caseItems.js';
import { loadEvalSpec } from '../core/spec/load.js';
import type { EvalSpec } from '../core/spec/types.js';
import type { LatestResults } from './currentResults.js';
import type { RunLauncher } from './launch.js';
import type { Logger } from './outputChannel.js';
import type { ResultsIndex } from './resultsIndex.js';
import type { RunController } from './runController.js';
import { caseKey } from '../core/model.js';

export const TEST_CONTROLLER_ID = 'ragInspector';
const EVAL_GLOB = '**/*.eval.yaml';
const EXCLUDE_GLOB = '**/{node_modules,.rag-inspector}/**';
/** The title runs started here get in the log and the cost question. */
const RUN_TITLE = 'Test Explorer run';

type ItemData =
  | { kind: 'file'; file: string }
  | { kind: 'suite'; file: string; suiteId: string }
  | { kind: 'case'; file: string; suiteId: string; caseId: string; modelKey: string };

export type ReportedState = 'passed' | 'failed' | 'errored' | 'skipped';

/** What one Test Explorer run reported per item, kept so callers (and the integration tests) can read it back. */
export interface ExplorerRunReport {
  results: Map<vscode.TestItem, { state: ReportedState; messages: vscode.TestMessage[] }>;
  runIds: string[];
}

/** Which items of one eval file a run request asks for, and which it leaves out. */
interface Selection {
  fileItem: vscode.TestItem;
  all: boolean;
  suites: Set<string>;
  keys: Set<string>;
  excludedSuites: Set<string>;
  excludedKeys: Set<string>;
}

export class RagTestExplorer implements vscode.Disposable {
  readonly tests: vscode.TestController;
  readonly runProfile: vscode.TestRunProfile;
  /** Settles once the workspace's eval files are listed. */
  readonly ready: Promise<void>;
  private readonly data = new WeakMap<vscode.TestItem, ItemData>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly ended = new vscode.EventEmitter<ExplorerRunReport>();
  /** Fires when a Test Explorer run has reported its last item. */
  readonly onDidEndRun = this.ended.event;
  /** Set while the explorer drives the controller, so its own runs do not trigger a reload of the tree. */
  private driving = false;
  private externalRunFile: string | undefined;
  private readonly refreshTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** What a resolved file item shows: its eval file's model keys, and the current results its cases came from. */
  private readonly shown = new WeakMap<vscode.TestItem, { models: string[]; results: LatestResults | undefined }>();
  private readonly controller: RunController;

  /**
   * `results`: the current results diagnostics and CodeLens show too, so the tree agrees with them; runs go through
   * the launcher like every other start (the cost question included).
   */
  constructor(
    private readonly launcher: RunLauncher,
    private readonly results: Pick<ResultsIndex, 'resultsOf' | 'onDidChange'>,
    private readonly logger: Logger,
    id = TEST_CONTROLLER_ID,
  ) {
    this.controller = launcher.controller;
    this.tests = vscode.tests.createTestController(id, 'RAG Inspector');
    this.tests.resolveHandler = (item) => (item ? this.resolve(item) : this.discover());
    this.tests.refreshHandler = () => this.refreshAll();
    // Run only: a model evaluation has nothing to step through, so there is no Debug profile.
    this.runProfile = this.tests.createRunProfile('Run evaluation', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    const watcher = vscode.workspace.createFileSystemWatcher(EVAL_GLOB);
    this.disposables.push(
      this.tests, this.ended, watcher,
      watcher.onDidCreate((uri) => this.fileItem(uri)),
      watcher.onDidDelete((uri) => this.tests.items.delete(uri.toString())),
      watcher.onDidChange((uri) => this.scheduleRefresh(uri)),
      // Runs started elsewhere (Run Evaluation, reruns) write a new log: the tree follows it once the run ends.
      this.controller.onEvent((event) => this.onExternalRunEvent(event)),
      results.onDidChange(() => this.showNewResults()),
    );
    this.ready = this.discover();
  }

  dispose(): void {
    for (const timer of this.refreshTimers.values()) clearTimeout(timer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  // ——— the tree ———

  /** Lists the workspace's eval files as top-level items; their children come on demand. */
  async discover(): Promise<void> {
    const found = await vscode.workspace.findFiles(EVAL_GLOB, EXCLUDE_GLOB);
    for (const uri of found) this.fileItem(uri);
  }

  private fileItem(uri: vscode.Uri): vscode.TestItem {
    const existing = this.tests.items.get(uri.toString());
    if (existing) return existing;
    const item = this.tests.createTestItem(uri.toString(), path.basename(uri.fsPath), uri);
    item.description = path.dirname(vscode.workspace.asRelativePath(uri, false)).replace(/^\.$/, '');
    item.canResolveChildren = true;
    this.data.set(item, { kind: 'file', file: uri.fsPath });
    this.tests.items.add(item);
    return item;
  }

  private async refreshAll(): Promise<void> {
    await this.discover();
    const items: vscode.TestItem[] = [];
    this.tests.items.forEach((item) => items.push(item));
    await Promise.all(items.map((item) => this.resolve(item)));
  }

  private scheduleRefresh(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.refreshTimers.get(key));
    // Saving a file fires change events in bursts; one reload after they settle is enough.
    this.refreshTimers.set(key, setTimeout(() => {
      this.refreshTimers.delete(key);
      const item = this.tests.items.get(key);
      if (item) void this.resolve(item);
    }, 300));
  }

  private onExternalRunEvent(event: RunEvent): void {
    if (this.driving) return;
    if (event.type === 'run-started') {
      this.externalRunFile = this.controller.active?.specFile;
      // A run of an eval file the watcher missed still gets its item.
      if (this.externalRunFile) this.fileItem(vscode.Uri.file(this.externalRunFile));
    }
    if (event.type === 'run-finished' && this.externalRunFile) {
      this.scheduleRefresh(vscode.Uri.file(this.externalRunFile));
      this.externalRunFile = undefined;
    }
  }

  /** Fills a file item: its suites from the eval file, their cases × models from its current results. */
  async resolve(item: vscode.TestItem): Promise<void> {
    const data = this.data.get(item);
    if (data?.kind !== 'file') return;
    item.busy = true;
    try {
      let spec: EvalSpec | undefined;
      try {
        spec = await loadEvalSpec(data.file);
        item.error = undefined;
      } catch (error) {
        item.error = describeSpecError(error);
      }
      if (spec) item.label = spec.name;
      const results = this.results.resultsOf(data.file);
      const text = await readText(data.file);
      const suiteIds = [...new Set([...(spec?.suites.map((s) => s.id) ?? []), ...[...(results?.entries.values() ?? [])].map((e) => e.evalCase.suiteId)])];
      item.children.replace(suiteIds.map((suiteId) => this.suiteItem(item, suiteId, text)));
      this.showResults(item, spec?.models.map((m) => `${m.provider}:${m.model}`) ?? [], results);
      item.canResolveChildren = false;
    } finally {
      item.busy = false;
    }
  }

  /** The current results changed (a run ended here, in a terminal or another window): resolved items show them. */
  private showNewResults(): void {
    this.tests.items.forEach((item) => {
      const data = this.data.get(item);
      const shown = this.shown.get(item);
      if (data?.kind !== 'file' || !shown) return;
      const results = this.results.resultsOf(data.file);
      if (results !== shown.results) this.showResults(item, shown.models, results);
    });
  }

  private showResults(item: vscode.TestItem, models: string[], results: LatestResults | undefined): void {
    this.shown.set(item, { models, results });
    const entries = [...(results?.entries.values() ?? [])];
    const showModel = new Set([...models, ...entries.map((e) => e.result.modelKey)]).size > 1;
    for (const entry of entries) this.caseItem(item, entry.evalCase, entry.result.modelKey, showModel);
  }

  private suiteItem(fileItem: vscode.TestItem, suiteId: string, evalText?: string): vscode.TestItem {
    const id = `suite:${suiteId}`;
    const existing = fileItem.children.get(id);
    if (existing) return existing;
    const item = this.tests.createTestItem(id, suiteId, fileItem.uri);
    const line = evalText === undefined ? -1 : suiteLine(evalText, suiteId);
    if (line >= 0) item.range = new vscode.Range(line, 0, line, 0);
    this.data.set(item, { kind: 'suite', file: fileItem.uri!.fsPath, suiteId });
    fileItem.children.add(item);
    return item;
  }

  private caseItem(fileItem: vscode.TestItem, evalCase: CaseDigest['evalCase'], modelKey: string, showModel: boolean): vscode.TestItem {
    const suite = fileItem.children.get(`suite:${evalCase.suiteId}`) ?? this.suiteItem(fileItem, evalCase.suiteId);
    // JSON, not caseKey: VS Code joins test ids with NUL internally, so an id may not contain one.
    const id = JSON.stringify([evalCase.id, modelKey]);
    const short = evalCase.id.startsWith(`${evalCase.suiteId}/`) ? evalCase.id.slice(evalCase.suiteId.length + 1) : evalCase.id;
    const label = showModel ? `${short} · ${modelKey}` : short;
    const existing = suite.children.get(id);
    if (existing) {
      existing.label = label;
      return existing;
    }
    const item = this.tests.createTestItem(id, label, vscode.Uri.file(evalCase.row.file));
    item.range = rowRange(evalCase);
    item.description = evalCase.question.length > 80 ? `${evalCase.question.slice(0, 79)}…` : evalCase.question;
    item.sortText = `${String(evalCase.row.index).padStart(9, '0')} ${evalCase.id} ${modelKey}`;
    this.data.set(item, { kind: 'case', file: fileItem.uri!.fsPath, suiteId: evalCase.suiteId, caseId: evalCase.id, modelKey });
    suite.children.add(item);
    return item;
  }

  // ——— running ———

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.tests.createTestRun(request, 'RAG Inspector');
    const report: ExplorerRunReport = { results: new Map(), runIds: [] };
    const reporter = new Reporter(run, report);
    try {
      // File watchers can miss files copied into a folder created the same moment (Open Example does that): list again.
      if (!request.include?.length) await this.discover();
      const selections = this.selections(request);
      this.logger.info(`Test Explorer: run of ${request.include ? `${request.include.length} item(s)` : 'every eval file'} → ${selections.map((s) => vscode.workspace.asRelativePath(s.fileItem.uri!)).join(', ') || 'nothing to run'}.`);
      for (const selection of selections) {
        // Resolved first, so every known case shows as queued and a suite has its line in the eval file.
        if (selection.fileItem.canResolveChildren) await this.resolve(selection.fileItem);
        const leaves = this.selectedLeaves(selection);
        for (const leaf of leaves) run.enqueued(leaf);
        if (token.isCancellationRequested) {
          for (const leaf of leaves) reporter.skipped(leaf);
          continue;
        }
        await this.runFile(selection, reporter, token);
        // Cases the tree knew but the run did not reach: cancelled, or gone from the dataset since the last run.
        for (const leaf of leaves) if (!report.results.has(leaf)) reporter.skipped(leaf);
      }
    } finally {
      run.end();
      this.ended.fire(report);
    }
  }

  private selections(request: vscode.TestRunRequest): Selection[] {
    const byFile = new Map<vscode.TestItem, Selection>();
    const selectionOf = (item: vscode.TestItem): Selection | undefined => {
      const fileItem = this.fileItemOf(item);
      if (!fileItem) return undefined;
      let selection = byFile.get(fileItem);
      if (!selection) {
        selection = { fileItem, all: false, suites: new Set(), keys: new Set(), excludedSuites: new Set(), excludedKeys: new Set() };
        byFile.set(fileItem, selection);
      }
      return selection;
    };
    const included: vscode.TestItem[] = [];
    if (request.include?.length) included.push(...request.include);
    else this.tests.items.forEach((item) => included.push(item));
    for (const item of included) {
      const data = this.data.get(item);
      const selection = selectionOf(item);
      if (!data || !selection) continue;
      if (data.kind === 'file') selection.all = true;
      else if (data.kind === 'suite') selection.suites.add(data.suiteId);
      else selection.keys.add(caseKey(data.caseId, data.modelKey));
    }
    for (const item of request.exclude ?? []) {
      const data = this.data.get(item);
      const fileItem = this.fileItemOf(item);
      const selection = fileItem && byFile.get(fileItem);
      if (!data || !selection) continue;
      if (data.kind === 'file') byFile.delete(selection.fileItem);
      else if (data.kind === 'suite') selection.excludedSuites.add(data.suiteId);
      else selection.excludedKeys.add(caseKey(data.caseId, data.modelKey));
    }
    return [...byFile.values()];
  }

  private fileItemOf(item: vscode.TestItem): vscode.TestItem | undefined {
    let current: vscode.TestItem | undefined = item;
    while (current?.parent) current = current.parent;
    return current && this.data.get(current)?.kind === 'file' ? current : undefined;
  }

  private selectedLeaves(selection: Selection): vscode.TestItem[] {
    const leaves: vscode.TestItem[] = [];
    selection.fileItem.children.forEach((suite) => suite.children.forEach((leaf) => {
      const data = this.data.get(leaf);
      if (data?.kind === 'case' && this.selects(selection, data.caseId, data.modelKey, data.suiteId)) leaves.push(leaf);
    }));
    return leaves;
  }

  private selects(selection: Selection, caseId: string, modelKey: string, suiteId: string | undefined): boolean {
    const key = caseKey(caseId, modelKey);
    if (selection.excludedKeys.has(key) || (suiteId !== undefined && selection.excludedSuites.has(suiteId))) return false;
    return selection.all || selection.keys.has(key) || (suiteId !== undefined && selection.suites.has(suiteId));
  }

  /**
   * The suite a case id belongs to before the case exists: the tree's item when it has one, else the longest
   * suite id that prefixes it (the suite contract makes ids `<suiteId>/<row>/<variant>`).
   */
  private suiteOf(fileItem: vscode.TestItem, caseId: string, modelKey: string): string | undefined {
    const id = JSON.stringify([caseId, modelKey]);
    let exact: string | undefined;
    let prefix: string | undefined;
    fileItem.children.forEach((suite) => {
      const data = this.data.get(suite);
      if (data?.kind !== 'suite') return;
      if (suite.children.get(id)) exact = data.suiteId;
      else if (caseId.startsWith(`${data.suiteId}/`) && (prefix === undefined || data.suiteId.length > prefix.length)) prefix = data.suiteId;
    });
    return exact ?? prefix;
  }

  private async runFile(selection: Selection, reporter: Reporter, token: vscode.CancellationToken): Promise<void> {
    const fileItem = selection.fileItem;
    const file = fileItem.uri!.fsPath;
    if (this.controller.active) {
      const why = `a run of ${this.controller.active.specFile} is still in progress — cancel it (RAG Inspector: Cancel Run) or wait for it to finish`;
      reporter.errored(fileItem, [new vscode.TestMessage(why)]);
      return;
    }
    const caseFilter = selection.all && selection.excludedKeys.size === 0 && selection.excludedSuites.size === 0
      ? undefined
      : (caseId: string, modelKey: string) => this.selects(selection, caseId, modelKey, this.suiteOf(fileItem, caseId, modelKey));
    const state = { runId: '', showModel: false };
    const listener = this.controller.onEvent((event) => this.onRunEvent(event, fileItem, reporter, state));
    this.driving = true;
    try {
      const outcome = await this.launcher.launch({
        specFile: file,
        title: RUN_TITLE,
        caseFilter,
        // The Testing view shows the progress, and its Stop button cancels.
        cancellation: token,
        onError: (error) => {
          this.logger.error(`Test Explorer: ${file}: ${describeError(error)}`);
          reporter.errored(fileItem, errorMessages(error));
        },
      });
      if (outcome === 'cancelled') {
        reporter.output(token.isCancellationRequested ? 'Not started: cancelled.' : 'Not started: the estimated cost was declined.');
      } else if (outcome !== 'failed') {
        const t = outcome.totals;
        reporter.output(`Run ${outcome.runId} ${outcome.status}: ${t.passed} passed, ${t.failed} failed, ${t.error} errors.`);
        fileItem.canResolveChildren = false;
      }
    } finally {
      this.driving = false;
      listener.dispose();
    }
  }

  private onRunEvent(event: RunEvent, fileItem: vscode.TestItem, reporter: Reporter, state: { runId: string; showModel: boolean }): void {
    switch (event.type) {
      case 'run-started':
        state.runId = event.runId;
        state.showModel = event.models.length > 1;
        reporter.report.runIds.push(event.runId);
        reporter.output(`Run ${event.runId}: ${event.total} case(s) on ${event.models.join(', ')}.`);
        return;
      case 'input-problem':
        reporter.output(problemLine(event.problem), problemLocation(event.problem));
        return;
      case 'case-finished': {
        const leaf = this.caseItem(fileItem, event.evalCase, event.result.modelKey, state.showModel);
        reporter.started(leaf);
        reportCase(reporter, leaf, event.evalCase, event.result, state.runId);
        return;
      }
      case 'run-finished':
        for (const outcome of event.thresholds.filter((t) => !t.passed)) {
          const suite = fileItem.children.get(`suite:${outcome.suiteId}`);
          const message = new vscode.TestMessage(thresholdLine(outcome));
          if (suite) {
            if (suite.uri && suite.range) message.location = new vscode.Location(suite.uri, suite.range);
            reporter.failed(suite, [message]);
          } else {
            reporter.output(thresholdLine(outcome));
          }
        }
        return;
    }
  }
}

/** Reports to a TestRun and keeps what it said. */
class Reporter {
  constructor(private readonly run: vscode.TestRun, readonly report: ExplorerRunReport) {}

  started(item: vscode.TestItem): void { this.run.started(item); }
  passed(item: vscode.TestItem, duration?: number): void { this.run.passed(item, duration); this.keep(item, 'passed', []); }
  skipped(item: vscode.TestItem): void { this.run.skipped(item); this.keep(item, 'skipped', []); }
  failed(item: vscode.TestItem, messages: vscode.TestMessage[], duration?: number): void {
    this.run.failed(item, messages, duration);
    this.keep(item, 'failed', messages);
  }
  errored(item: vscode.TestItem, messages: vscode.TestMessage[], duration?: number): void {
    this.run.errored(item, messages, duration);
    this.keep(item, 'errored', messages);
  }
  output(line: string, location?: vscode.Location, item?: vscode.TestItem): void {
    // The run's output is a terminal: it wants CRLF.
    this.run.appendOutput(`${line.replace(/\r?\n/g, '\r\n')}\r\n`, location, item);
  }

  private keep(item: vscode.TestItem, state: ReportedState, messages: vscode.TestMessage[]): void {
    this.report.results.set(item, { state, messages });
  }
}

function reportCase(reporter: Reporter, leaf: vscode.TestItem, evalCase: EvalCase, result: CaseResult, runId: string): void {
  const duration = durationOf(result);
  const location = new vscode.Location(vscode.Uri.file(evalCase.row.file), rowRange(evalCase));
  if (result.status === 'error') {
    const message = new vscode.TestMessage(caseMarkdown(evalCase, result, runId));
    message.location = location;
    reporter.errored(leaf, [message], duration);
  } else if (result.pass === false) {
    const expected = expectedText(evalCase.expected);
    const body = caseMarkdown(evalCase, result, runId);
    const message = expected !== undefined && result.response
      ? vscode.TestMessage.diff(body, expected, result.response.text)
      : new vscode.TestMessage(body);
    message.location = location;
    reporter.failed(leaf, [message], duration);
  } else if (result.pass === true) {
    reporter.passed(leaf, duration);
  } else {
    // Scores without a pass/fail verdict (e.g. means with no threshold): neither passed nor failed.
    reporter.output(`${evalCase.id} [${result.modelKey}]: no pass/fail verdict (${result.scores.map((s) => `${s.metric} = ${s.value ?? 'undetermined'}`).join(', ')})`, location, leaf);
    reporter.skipped(leaf);
  }
}

/** The failure as the Test Results peek shows it: why, the question, the response, and a link into the inspector. */
function caseMarkdown(evalCase: EvalCase, result: CaseResult, runId: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  // Only the inspector command may run from this text; model output is added as escaped text or a fenced block.
  md.isTrusted = { enabledCommands: ['ragInspector.openInspector'] };
  md.appendText(failureMessage(result));
  md.appendMarkdown('\n\n**Question:** ');
  md.appendText(evalCase.question);
  if (result.response) {
    md.appendMarkdown('\n\n**Response:**\n\n');
    md.appendMarkdown(fenced(result.response.text));
  }
  if (runId) {
    const args = encodeURIComponent(JSON.stringify([{ runId, key: caseKey(evalCase.id, result.modelKey) }]));
    md.appendMarkdown(`\n\n[Open in RAG Inspector](command:ragInspector.openInspector?${args})`);
  }
  return md;
}

/** A code fence longer than any backtick run in the text, so a response cannot close it early. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}\n`;
}

/**
 * The expected answer as text for the diff view, when the method gives one a reader can compare with the response:
 * a string, a list of alternatives (one per line; nested lists are parts with " | " between their alternatives),
 * or an object holding one of those under answer/gold/reference. Anything else (human scores…) has no diff.
 */
export function expectedText(expected: unknown): string | undefined {
  if (typeof expected === 'string') return expected;
  if (Array.isArray(expected)) {
    const lines = expected.map((part) => (Array.isArray(part) ? part.map(String).join(' | ') : typeof part === 'string' ? part : answerOf(part)));
    return lines.every((l) => typeof l === 'string') && lines.length > 0 ? lines.join('\n') : undefined;
  }
  return answerOf(expected);
}

function answerOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of ['answer', 'answers', 'gold', 'reference', 'text']) {
    const inner: unknown = (value as Record<string, unknown>)[key];
    if (inner !== undefined && inner !== value) return expectedText(inner);
  }
  return undefined;
}

function durationOf(result: CaseResult): number | undefined {
  const ms = Date.parse(result.finishedAt) - Date.parse(result.startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : result.response?.latencyMs;
}

function rowRange(evalCase: Pick<EvalCase, 'row'>): vscode.Range {
  const line = Math.max(0, evalCase.row.line - 1);
  return new vscode.Range(line, 0, line, 0);
}

function problemLine(problem: InputProblem): string {
  const where = `${problem.file}${problem.line ? `:${problem.line}` : ''}${problem.column ? `:${problem.column}` : ''}`;
  return `${where}: ${problem.message}${problem.hint ? ` — ${problem.hint}` : ''}`;
}

function problemLocation(problem: InputProblem): vscode.Location | undefined {
  if (!problem.line) return undefined;
  const position = new vscode.Position(problem.line - 1, Math.max(0, (problem.column ?? 1) - 1));
  return new vscode.Location(vscode.Uri.file(problem.file), position);
}

function thresholdLine(t: ThresholdOutcome): string {
  const bounds = [t.min !== undefined ? `≥ ${t.min}` : '', t.max !== undefined ? `≤ ${t.max}` : ''].filter(Boolean).join(' and ');
  return `threshold ${t.suiteId}.${t.metric} [${t.modelKey}]: ${t.value ?? 'undetermined'}, required ${bounds}`;
}

function errorMessages(error: unknown): vscode.TestMessage[] {
  const errors = error instanceof InputErrors ? error.errors : error instanceof InputError ? [error] : undefined;
  if (!errors) return [new vscode.TestMessage(describeError(error))];
  return errors.map((e) => {
    const message = new vscode.TestMessage(e.format());
    if (e.position.line) message.location = new vscode.Location(vscode.Uri.file(e.position.file), new vscode.Position(e.position.line - 1, Math.max(0, (e.position.column ?? 1) - 1)));
    return message;
  });
}

function describeSpecError(error: unknown): string {
  return error instanceof InputErrors ? error.errors.map((e) => e.format()).join('\n') : describeError(error);
}

/** 0-based line of the suite's `id:` in the eval file, or -1. */
function suiteLine(text: string, suiteId: string): number {
  const escaped = suiteId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`\\bid:\\s*["']?${escaped}["']?\\s*(?:[,}#]|$)`);
  return text.split(/\r?\n/).findIndex((line) => pattern.test(line));
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file)));
  } catch {
    return undefined;
  }
}

export function activateTestExplorer(context: vscode.ExtensionContext, launcher: RunLauncher, results: ResultsIndex, logger: Logger): RagTestExplorer {
  const explorer = new RagTestExplorer(launcher, results, logger);
  context.subscriptions.push(explorer);
  return explorer;
}
