// The run picker's state: the runs listed (newest first), the first load, a Resume run click waiting for its run.
import { RunFinished, RunStarted, ListRuns, ResumeRun } from '../../src/protocol.js';
import type { RunListing } from '../../src/protocol.js';
import type { AppContext } from './appContext.js';
import { sortRuns } from './appContext.js';

/** How long a clicked Resume run stays disabled when the run does not start (the host asked something or refused). */
const RESUME_ASKED_MS = 8_000;

export class RunPickerState {
  runs: RunListing[] = [];
  loading = true;
  /** The run whose Resume run was just clicked, until it starts again (see askResume). */
  resumeAsked: string | undefined;
  private resumeAskedTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly app: AppContext) {}

  listen(): (() => void)[] {
    const { api } = this.app;
    return [
      api.on(RunStarted, ({ runId, listing }) => {
        if (this.resumeAsked === runId) this.resumeAsked = undefined;
        this.runs = sortRuns([listing, ...this.runs.filter((r) => r.runId !== runId)]);
        this.app.changed();
      }),
      api.on(RunFinished, ({ runId, detail }) => {
        this.runs = sortRuns(this.runs.map((r) => (r.runId === runId ? detail.listing : r)));
        this.app.changed();
      }),
    ];
  }

  /** Lists the runs again; rejects when the host cannot. */
  async list(): Promise<RunListing[]> {
    this.runs = sortRuns(await this.app.api.request(ListRuns, {}));
    this.app.changed();
    return this.runs;
  }

  loaded(): void {
    this.loading = false;
    this.app.changed();
  }

  has(runId: string): boolean {
    return this.runs.some((r) => r.runId === runId);
  }

  /**
   * One click, one request: the button waits until the run starts again (RunStarted clears it). The host may instead
   * ask a question or refuse with a message of its own (a run in progress, the eval file changed), and sends nothing
   * back then, so the button comes back after RESUME_ASKED_MS.
   */
  askResume(runId: string): void {
    if (this.resumeAsked === runId) return;
    this.resumeAsked = runId;
    clearTimeout(this.resumeAskedTimer);
    this.resumeAskedTimer = setTimeout(() => { this.resumeAsked = undefined; this.app.changed(); }, RESUME_ASKED_MS);
    this.app.api.command(ResumeRun, { runId });
    this.app.changed();
  }

  dispose(): void {
    clearTimeout(this.resumeAskedTimer);
  }
}
