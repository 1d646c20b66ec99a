// Typed messages between the extension host and the inspector webview; imported by both bundles (so: no node, no vscode).
import type { CaseDetail, CaseListItem, CompareRow, RunDetail, RunListing } from './core/report/viewModel.js';
import type { CaseExplanation, ExplainPlan, RunExplanation, VariantOutcome } from './core/explain/model.js';
import type { VerdictChange, VerdictsView } from './core/verdicts/view.js';
import type { SweepCellRun } from './core/report/sweepCellRun.js';
import type { QuestionReviewView, ReviewChange } from './core/corpus/questions/reviewView.js';
import { list, none, num, object, oneOf, optional, text, where } from './protocolShapes.js';
import type { Shape } from './protocolShapes.js';

/** Bumped when a message changes shape; the ready handshake checks it. */
export const PROTOCOL_VERSION = 2;

/** One message on the channel; the descriptors below create and recognise them, so nothing builds one by hand. */
export interface Envelope {
  kind: 'notification' | 'request' | 'response' | 'command';
  method: string;
  id?: number;
  params?: unknown;
  result?: unknown;
  error?: ProtocolError;
}

export interface ProtocolError {
  code: 'not-found' | 'bad-request' | 'internal' | 'cancelled';
  message: string;
}

/** host → webview, fire and forget. The host is trusted, so its params are not checked on arrival. */
export class Notification<P> {
  constructor(readonly method: string) {}
  create(params: P): Envelope { return { kind: 'notification', method: this.method, params }; }
  is(message: unknown): message is Envelope & { params: P } {
    return isEnvelope(message) && message.kind === 'notification' && message.method === this.method;
  }
}

/**
 * webview → host, fire and forget (user intents: open a file, rerun a case). `params` is the shape the host checks
 * on arrival (protocolShapes.ts); P and the type the shape checks must agree, or the declaration does not compile.
 */
export class Command<P> {
  constructor(readonly method: string, readonly params: Shape<P>) {}
  create(params: P): Envelope { return { kind: 'command', method: this.method, params }; }
  is(message: unknown): message is Envelope & { params: P } {
    return isEnvelope(message) && message.kind === 'command' && message.method === this.method;
  }
}

/** webview → host with a typed response matched by id; failures come back as {code, message}. Params as Command's. */
export class Request<P, R> {
  constructor(readonly method: string, readonly params: Shape<P>) {}
  create(id: number, params: P): Envelope { return { kind: 'request', method: this.method, id, params }; }
  is(message: unknown): message is Envelope & { id: number; params: P } {
    return isEnvelope(message) && message.kind === 'request' && message.method === this.method && typeof message.id === 'number';
  }
  respond(id: number, result: R): Envelope { return { kind: 'response', method: this.method, id, result }; }
  fail(id: number, error: ProtocolError): Envelope { return failure(this.method, id, error); }
}

/** The answer to a request that failed; by method name, because a request for an unknown method has no descriptor. */
export function failure(method: string, id: number, error: ProtocolError): Envelope {
  return { kind: 'response', method, id, error };
}

export function isEnvelope(message: unknown): message is Envelope {
  return typeof message === 'object' && message !== null && typeof (message as Envelope).method === 'string'
    && ['notification', 'request', 'response', 'command'].includes((message as Envelope).kind);
}

export function isResponse(message: unknown): message is Envelope & { kind: 'response'; id: number } {
  return isEnvelope(message) && message.kind === 'response' && typeof message.id === 'number';
}

// ---- Shapes -------------------------------------------------------------------------------------------

// The view model lives in core, where the HTML report and the run index build it; the wire format only carries it.
export type { CaseDetail, CaseListItem, CompareRow, RunDetail, RunListing } from './core/report/viewModel.js';
export type { CaseExplanation, ExplainPlan, RunExplanation, VariantOutcome } from './core/explain/model.js';
export type { VerdictChange, VerdictsView } from './core/verdicts/view.js';
export type { SweepCellModel, SweepCellRun } from './core/report/sweepCellRun.js';
export type { QuestionReviewView, ReviewChange } from './core/corpus/questions/reviewView.js';

// ---- Messages -----------------------------------------------------------------------------------------

// A new message is one descriptor here and one handler: in the host's table (panel.ts) for a request or command, in
// the view (api.on) for a notification; the static report's table (webview/api/staticApi.ts) only if it can answer.

/** The params of a message that has none. */
export type NoParams = Record<string, never>;

export const Ready = new Command<{ protocolVersion: number }>('webview/ready', object({ protocolVersion: num }));
export const ListRuns = new Request<NoParams, RunListing[]>('runs/list', none);
export const GetRun = new Request<{ runId: string }, RunDetail>('run/get', object({ runId: text }));
export const GetCase = new Request<{ runId: string; key: string }, CaseDetail>('case/get', object({ runId: text, key: text }));
/** A person's verdicts on a run's cases and the judge's agreement with them (core/verdicts). */
export const GetVerdicts = new Request<{ runId: string }, VerdictsView>('verdicts/get', object({ runId: text }));
/** Marks cases correct / wrong (label null: a note only, so the note is then required); answers the run's verdicts after it. */
const verdictChange = where(
  object({ keys: list(text, { min: 1 }), label: oneOf('correct', 'wrong', null), note: optional(text), metric: optional(text) }),
  (change) => (change.label === null && !change.note ? { field: 'note', expected: 'a non-empty string when the label is null' } : undefined),
);
export const SetVerdicts = new Request<{ runId: string; change: VerdictChange }, VerdictsView>('verdicts/set', object({ runId: text, change: verdictChange }));
export const CompareRuns = new Request<{ before: string; after: string }, CompareRow[]>('runs/compare', object({ before: text, after: text }));

export const OpenDatasetRow = new Command<{ file: string; line: number }>('open/datasetRow', object({ file: text, line: num }));
export const OpenTemplate = new Command<{ file: string }>('open/template', object({ file: text }));
export const RerunCase = new Command<{ runId: string; key: string }>('case/rerun', object({ runId: text, key: text }));
export const CancelRun = new Command<{ runId: string }>('run/cancel', object({ runId: text }));
/** Finish an interrupted run (the Resume Interrupted Run command, on that run). */
export const ResumeRun = new Command<{ runId: string }>('run/resume', object({ runId: text }));
/** Save an image the view exported (a heatmap as SVG or PNG): VS Code webviews cannot download, so the host writes it. */
export const ExportImage = new Command<{ fileName: string; dataUrl: string }>('export/image', object({ fileName: text, dataUrl: text }));

export const RunStarted = new Notification<{ runId: string; total: number; listing: RunListing }>('run/started');
export const CaseFinished = new Notification<{ runId: string; item: CaseListItem; done: number; total: number }>('run/caseFinished');
export const RunFinished = new Notification<{ runId: string; detail: RunDetail }>('run/finished');
/**
 * Batch mode: where the run's vendor batches stand together (engine/batchProgress.ts BatchTally) — sent as each is
 * submitted and polled, since no case finishes until a batch's results come back.
 */
export const BatchProgress = new Notification<{ runId: string; open: number; batches: number; done: number; total: number }>('run/batchProgress');
/** Ask the view to show a run and optionally one case (from a CodeLens, a diagnostic, Test Explorer). */
export const Reveal = new Notification<{ runId: string; key?: string }>('view/reveal');
/** Open the compare view on two runs (the Compare Runs command). */
export const ShowCompare = new Notification<{ before: string; after: string }>('view/compare');


// ---- Explain a failure ----------------------------------------------------------------------------------

/** The run's stored explanation (.rag-inspector/explanations/<run-id>.json); null when it was never explained. */
export const GetExplanation = new Request<{ runId: string }, RunExplanation | null>('explain/get', object({ runId: text }));
/** Explain one (case, model) of a run: the host shows the cost, asks above the limit, then runs it with progress. */
export const ExplainCase = new Command<{ runId: string; key: string }>('explain/case', object({ runId: text, key: text }));
/** Explain every failed (case, model) of a run. */
export const ExplainFailed = new Command<{ runId: string }>('explain/failed', object({ runId: text }));
/** Stop the explanation running on this run; finished variants are kept and a later Explain resumes. */
export const CancelExplain = new Command<{ runId: string }>('explain/cancel', object({ runId: text }));

/** The cost was accepted and variants start running. */
export const ExplainStarted = new Notification<{ runId: string; plan: ExplainPlan }>('explain/started');
/** One variant run finished: `key` is the explained (case, model); a leave-one-out outcome fills in a card at once. */
export const ExplainProgress = new Notification<{ runId: string; key: string; variantIds: string[]; outcome: VariantOutcome; done: number; total: number }>('explain/progress');
/** Every variant of a case has finished: its explanation. */
export const CaseExplained = new Notification<{ runId: string; key: string; explanation: CaseExplanation }>('explain/caseExplained');
/**
 * The explanation ended: `explanation` is the run's stored one (complete, or cancelled and partial); null with
 * `error` when it failed before anything was stored.
 */
export const ExplainFinished = new Notification<{ runId: string; explanation: RunExplanation | null; error?: string }>('explain/finished');

// ---- Sweep panel: cells end to end ----------------------------------------------------------------------

/** Run these cells of the shown sweep end to end: the host shows the cost plan first, then runs them with progress. */
export const RunSweepCells = new Command<{ cells: string[] }>('sweep/runCells', object({ cells: list(text, { min: 1 }) }));
/** Stop the end-to-end runs going; finished cells and the finished cases of the stopped one are kept. */
export const CancelSweepCells = new Command<NoParams>('sweep/cancelCells', none);
/** Open a cell's run in the inspector (its cases). */
export const OpenSweepCellRun = new Command<{ runId: string }>('sweep/openRun', object({ runId: text }));
/**
 * The sweep's end-to-end cells: every cell with a run on disk (the newest) or going now, sent whole at each change;
 * `running` while this panel runs cells; `message` says what the last request came to (declined, cancelled);
 * `named`: the cells the eval file's `sweep.endToEnd` names (the CLI's `--end-to-end` runs these), picked at first.
 */
export const SweepCellRuns = new Notification<{ runs: SweepCellRun[]; running: boolean; message?: string; named: string[] }>('sweep/cellRuns');

// The review of generated questions (its own panel, extension/questionReviewPanel.ts, on one questions file).
/** The questions file the panel shows, with its checks, sources, reviews and rejected ones. */
export const GetQuestionReview = new Request<NoParams, QuestionReviewView>('questions/review/get', none);
/** Keeps or drops questions (decision null: a comment only, so the comment is then required); answers the view after it. */
const reviewChange = where(
  object({ ids: list(text, { min: 1 }), decision: oneOf('keep', 'drop', null), comment: optional(text) }),
  (change) => (change.decision === null && !change.comment ? { field: 'comment', expected: 'a non-empty string when the decision is null' } : undefined),
);
export const SetQuestionReview = new Request<{ change: ReviewChange }, QuestionReviewView>('questions/review/set', object({ change: reviewChange }));
