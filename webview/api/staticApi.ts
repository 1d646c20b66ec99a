// InspectorApi over runs embedded in the page (the exported HTML report, browser tests): read-only, no host. It answers
// from a table keyed by descriptor; what a page cannot answer (verdicts, reruns, opening files) is absent from it.
import { CompareRuns, ExportImage, GetCase, GetExplanation, GetRun, ListRuns } from '../../src/protocol.js';
import type { CaseDetail, Command, CompareRow, Notification, Request } from '../../src/protocol.js';
import { InspectorError } from './inspectorApi.js';
import type { InspectorApi } from './inspectorApi.js';
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

  /** Every message the page can answer, with how; a new one the report can serve is one row here. */
  private readonly table = new Map<object, (params: never) => unknown>([
    answer(ListRuns, () => [...this.runs.values()].map((run) => run.detail.listing)),
    answer(GetRun, ({ runId }) => this.run(runId).detail),
    answer(GetCase, ({ runId, key }) => {
      const detail = this.cases(runId).get(key);
      if (!detail) throw new InspectorError({ code: 'not-found', message: `Case ${key.replace('\u0000', ' / ')} is not in this report` });
      return detail;
    }),
    answer(CompareRuns, ({ before, after }): CompareRow[] => flippedCases(this.run(before).detail.cases, this.run(after).detail.cases, (side, item) =>
      responseTextOf(this.cases(side === 'before' ? before : after).get(item.key)))),
    // The report embeds the run's explanation when it had one (htmlReportFile.ts).
    answer(GetExplanation, ({ runId }) => this.run(runId).explanation ?? null),
    perform(ExportImage, ({ fileName, dataUrl }) => download(fileName, dataUrl)),
  ]);

  handles<P, R>(descriptor: Request<P, R> | Command<P>): boolean {
    return this.table.has(descriptor);
  }

  async request<P, R>(descriptor: Request<P, R>, params: P): Promise<R> {
    const handler = this.table.get(descriptor);
    if (!handler) throw new InspectorError({ code: 'not-found', message: `This report cannot answer ${descriptor.method}: it needs VS Code` });
    return handler(params as never) as R;
  }

  command<P>(descriptor: Command<P>, params: P): void {
    this.table.get(descriptor)?.(params as never);
  }

  /** Nothing is ever sent: the page is a finished report. */
  on<P>(_descriptor: Notification<P>, _listener: (params: P) => void): () => void {
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

/** A row of the table: the descriptor, and its handler typed by it. */
type Row = [object, (params: never) => unknown];

function answer<P, R>(descriptor: Request<P, R>, handle: (params: P) => R): Row {
  return [descriptor, handle as (params: never) => unknown];
}

function perform<P>(descriptor: Command<P>, handle: (params: P) => void): Row {
  return [descriptor, handle as (params: never) => unknown];
}

/** Saves an exported image as a browser download. */
function download(fileName: string, dataUrl: string): void {
  // A data: URL, not a blob: one: the report's CSP allows data: and the page may be a file:// URL.
  const link = document.createElement('a');
  link.href = dataUrl;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}
