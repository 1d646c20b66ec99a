// What the inspector UI needs from wherever runs live: the VS Code host (vscodeApi) or data embedded in the page (staticApi).
import type { CaseDetail, CompareRow, ProtocolError, RunDetail, RunExplanation, RunListing, VerdictChange, VerdictsView } from '../../src/protocol.js';
import type {
  BatchProgress, CaseExplained, CaseFinished, ExplainFinished, ExplainProgress, ExplainStarted, Notification, Reveal, RunFinished, RunStarted, ShowCompare,
} from '../../src/protocol.js';

type ParamsOf<N> = N extends Notification<infer P> ? P : never;

/** Host → view events, as a union the app can switch on. */
export type InspectorNotification =
  | { type: 'runStarted'; params: ParamsOf<typeof RunStarted> }
  | { type: 'caseFinished'; params: ParamsOf<typeof CaseFinished> }
  | { type: 'runFinished'; params: ParamsOf<typeof RunFinished> }
  | { type: 'batchProgress'; params: ParamsOf<typeof BatchProgress> }
  | { type: 'reveal'; params: ParamsOf<typeof Reveal> }
  | { type: 'showCompare'; params: ParamsOf<typeof ShowCompare> }
  | { type: 'explainStarted'; params: ParamsOf<typeof ExplainStarted> }
  | { type: 'explainProgress'; params: ParamsOf<typeof ExplainProgress> }
  | { type: 'caseExplained'; params: ParamsOf<typeof CaseExplained> }
  | { type: 'explainFinished'; params: ParamsOf<typeof ExplainFinished> };

export interface InspectorApi {
  /** "static" has no host: no files to open, nothing to rerun, cancel or resume; the UI hides those actions. */
  readonly kind: 'vscode' | 'static';
  readonly canRunCommands: boolean;

  /** Call once the UI listens for notifications: the VS Code implementation sends Ready then. */
  start(): void;

  listRuns(): Promise<RunListing[]>;
  getRun(runId: string): Promise<RunDetail>;
  getCase(runId: string, key: string): Promise<CaseDetail>;
  compareRuns(before: string, after: string): Promise<CompareRow[]>;
  /** The run's stored explanation (every case explained so far); null when it was never explained. */
  getExplanation(runId: string): Promise<RunExplanation | null>;
  /** Human verdicts (absent where there is no workspace to keep them, e.g. the static report). */
  getVerdicts?(runId: string): Promise<VerdictsView>;
  setVerdicts?(runId: string, change: VerdictChange): Promise<VerdictsView>;

  openDatasetRow(file: string, line: number): void;
  openTemplate(file: string): void;
  rerunCase(runId: string, key: string): void;
  cancelRun(runId: string): void;
  /** Explain one case, or with no key the run's failed cases: the host shows the cost first and reports progress. */
  explain(runId: string, key?: string): void;
  cancelExplain(runId: string): void;
  /** Finishes an interrupted run (listing.interrupted); the host asks anything it must. */
  resumeRun(runId: string): void;
  /** Saves an exported image: a download in a browser, a file the host writes in VS Code (webviews cannot download). */
  exportImage(fileName: string, dataUrl: string): void;

  /** Returns an unsubscribe function. */
  onNotification(listener: (notification: InspectorNotification) => void): () => void;

  /** Navigation/view state only (see viewState.ts); never run data, which is fetched again. */
  getViewState(): unknown;
  setViewState(state: unknown): void;
}

/** A failed request, keeping the protocol's code so the view can word it. */
export class InspectorError extends Error {
  readonly code: ProtocolError['code'];
  constructor(error: ProtocolError) {
    super(error.message);
    this.name = 'InspectorError';
    this.code = error.code;
  }
}

/** A message for any rejection, including ones that are not InspectorErrors. */
export function describeError(error: unknown): string {
  if (error instanceof InspectorError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
