// The shown run's state: its detail (listing, reports, causes) and, while it runs, its progress and vendor batches.
import { BatchProgress, CaseFinished, GetRun, RunFinished, RunStarted } from '../../src/protocol.js';
import type { RunDetail, RunListing } from '../../src/protocol.js';
import { describeError } from '../api/inspectorApi.js';
import type { AppContext } from './appContext.js';

export interface BatchState { open: number; batches: number; done: number; total: number }

export class SummaryState {
  detail: RunDetail | undefined;
  progress: { done: number; total: number } | undefined;
  /** Batch mode: the running run's vendor batches, while one is open (no case finishes until its results come). */
  batches: BatchState | undefined;

  constructor(private readonly app: AppContext) {}

  listen(): (() => void)[] {
    const { api } = this.app;
    const shown = (runId: string) => this.app.shownRun() === runId;
    return [
      api.on(RunStarted, ({ runId, total, listing }) => {
        if (!shown(runId)) return;
        this.progress = { done: 0, total };
        this.batches = undefined;
        // A resumed run starts again under its own id: it is no longer interrupted.
        if (this.detail?.listing.runId === runId) this.detail = { ...this.detail, listing };
        this.app.changed();
      }),
      api.on(BatchProgress, (params) => {
        if (!shown(params.runId)) return;
        this.batches = params;
        this.app.changed();
      }),
      api.on(CaseFinished, ({ runId, done, total }) => {
        if (!shown(runId)) return;
        this.progress = { done, total };
        this.app.changed();
      }),
      api.on(RunFinished, ({ runId, detail }) => {
        if (!shown(runId)) return;
        this.detail = detail;
        this.progress = undefined;
        this.batches = undefined;
        this.app.changed();
      }),
    ];
  }

  /** Loads a run picked or restored; undefined when it failed (the banner says why) or another run is shown by now. */
  async load(runId: string): Promise<RunDetail | undefined> {
    return this.fetch(runId, (error) => `Could not load run ${runId}: ${error}`);
  }

  /** After Explain, the run's list and failure split again: the host lists Explain's causes of the explained cases. */
  async reload(runId: string): Promise<RunDetail | undefined> {
    return this.fetch(runId, (error) => `Could not reload run ${runId} after Explain: ${error}`);
  }

  /** A newer listing of the shown run (the host now calls it interrupted). */
  relisted(listing: RunListing | undefined): void {
    if (!listing || this.detail?.listing.runId !== listing.runId) return;
    this.detail = { ...this.detail, listing };
    this.app.changed();
  }

  /** A 'started' run that no event has moved (not this window's): worth asking the host whether it is interrupted. */
  isQuiet(): boolean {
    const shown = this.detail?.listing;
    return shown !== undefined && shown.status === 'started' && !shown.interrupted && !this.progress;
  }

  private async fetch(runId: string, words: (error: string) => string): Promise<RunDetail | undefined> {
    try {
      const detail = await this.app.api.request(GetRun, { runId });
      if (this.app.shownRun() !== runId) return undefined; // another run is shown now
      this.detail = detail;
      this.progress = undefined;
      this.app.changed();
      return detail;
    } catch (error) {
      if (this.app.shownRun() === runId) this.app.showError(words(describeError(error)));
      return undefined;
    }
  }
}
