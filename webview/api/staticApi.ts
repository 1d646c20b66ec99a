// InspectorApi over runs embedded in the page (the exported HTML report, browser tests): read-only, no host.
import type { CaseDetail, CompareRow, RunDetail, RunExplanation, RunListing } from '../../src/protocol.js';
import { InspectorError } from './inspectorApi.js';
import type { InspectorApi, InspectorNotification } from './inspectorApi.js';
import { caseKey, parseStaticData, STATIC_DATA_ELEMENT_ID } from './staticData.js';
import type { StaticData, StaticRun } from './staticData.js';
import { flippedCases, responseTextOf } from './compareRuns.js';

const VIEW_STATE_KEY = 'rag-inspector.viewState';

export class StaticApi implements InspectorApi {
  readonly kind = 'static';
  readonly canRunCommands = false;
  private readonly runs = new Map<string, StaticRun>();
  private readonly caseIndex = new Map<string, Map<string, CaseDetail>>();
  private viewState: unknown;

  constructor(data: StaticData) {
    for (const run of data.runs) this.runs.set(run.detail.listing.runId, run);
    try {
      const saved = sessionStorage.getItem(VIEW_STATE_KEY);
      this.viewState = saved ? JSON.parse(saved) : undefined;
    } catch {
      // file:// pages in some browsers refuse storage; view state then lasts only as long as the page.
    }
  }

  /** Reads the `<script type="application/json" id="rag-inspector-data">` element. */
  static fromDocument(doc: Document = document): StaticApi {
    const element = doc.getElementById(STATIC_DATA_ELEMENT_ID);
    if (!element) throw new Error(`This page has no run data (no #${STATIC_DATA_ELEMENT_ID} element)`);
    return new StaticApi(parseStaticData(element.textContent ?? ''));
  }

  start(): void {}

  async listRuns(): Promise<RunListing[]> {
    return [...this.runs.values()].map((run) => run.detail.listing);
  }

  async getRun(runId: string): Promise<RunDetail> {
    return this.run(runId).detail;
  }

  async getCase(runId: string, key: string): Promise<CaseDetail> {
    const detail = this.cases(runId).get(key);
    if (!detail) throw new InspectorError({ code: 'not-found', message: `Case ${key.replace('\u0000', ' / ')} is not in this report` });
    return detail;
  }

  async compareRuns(before: string, after: string): Promise<CompareRow[]> {
    const earlier = this.run(before);
    const later = this.run(after);
    return flippedCases(earlier.detail.cases, later.detail.cases, (side, item) =>
      responseTextOf(this.cases(side === 'before' ? before : after).get(item.key)));
  }

  /** The report embeds the run's explanation when it had one (htmlReportFile.ts). */
  async getExplanation(runId: string): Promise<RunExplanation | null> {
    return this.run(runId).explanation ?? null;
  }

  openDatasetRow(): void {}
  openTemplate(): void {}
  rerunCase(): void {}
  cancelRun(): void {}
  resumeRun(): void {}
  explain(): void {}
  cancelExplain(): void {}

  exportImage(fileName: string, dataUrl: string): void {
    // A data: URL, not a blob: one: the report's CSP allows data: and the page may be a file:// URL.
    const link = document.createElement('a');
    link.href = dataUrl;
    link.download = fileName;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  }

  onNotification(_listener: (notification: InspectorNotification) => void): () => void {
    return () => {};
  }

  getViewState(): unknown { return this.viewState; }
  setViewState(state: unknown): void {
    this.viewState = state;
    try { sessionStorage.setItem(VIEW_STATE_KEY, JSON.stringify(state)); } catch { /* see constructor */ }
  }

  private run(runId: string): StaticRun {
    const run = this.runs.get(runId);
    if (!run) throw new InspectorError({ code: 'not-found', message: `Run ${runId} is not in this report` });
    return run;
  }

  /** Indexed on first use: a report of 100,000 cases should not pay for it before the list shows. */
  private cases(runId: string): Map<string, CaseDetail> {
    let index = this.caseIndex.get(runId);
    if (!index) {
      index = new Map(this.run(runId).cases.map((c) => [caseKey(c), c]));
      this.caseIndex.set(runId, index);
    }
    return index;
  }
}
