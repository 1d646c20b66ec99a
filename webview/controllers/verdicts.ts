// A person's verdicts on the shown run's cases (y / x / c, the verdict bar) and the judge's agreement with them, where
// the API keeps verdicts (VS Code; the static report has no workspace to keep them in).
import { GetVerdicts, SetVerdicts } from '../../src/protocol.js';
import type { VerdictsView } from '../../src/protocol.js';
import type { VerdictRequestDetail } from '../components/verdictBar.js';
import { describeError } from '../api/inspectorApi.js';
import type { AppContext } from './appContext.js';

export class VerdictsState {
  /** Human verdicts on the shown run, when the host keeps them (core/verdicts). */
  view: VerdictsView | undefined;
  busy = false;

  constructor(private readonly app: AppContext) {}

  /** Whether verdicts can be read (the summary's agreement section shows). */
  get readable(): boolean { return this.app.api.handles(GetVerdicts); }
  /** Whether verdicts can be given (the verdict bar and y / x / c). */
  get writable(): boolean { return this.app.api.handles(SetVerdicts); }

  async load(runId: string): Promise<void> {
    if (!this.readable) return;
    try {
      const view = await this.app.api.request(GetVerdicts, { runId });
      if (this.app.shownRun() === runId) this.view = view;
      this.app.changed();
    } catch (error) {
      this.app.showError(`Could not read your verdicts: ${describeError(error)}`);
    }
  }

  async apply(keys: string[], { label, note }: VerdictRequestDetail): Promise<void> {
    const runId = this.app.shownRun();
    if (!runId || !this.writable || keys.length === 0 || this.busy) return;
    this.busy = true;
    this.app.changed();
    try {
      const view = await this.app.api.request(SetVerdicts, { runId, change: { keys, label, ...(note ? { note } : {}) } });
      if (this.app.shownRun() === runId) this.view = view;
    } catch (error) {
      this.app.showError(`Could not save your verdict: ${describeError(error)}`);
    } finally {
      this.busy = false;
      this.app.changed();
    }
  }
}
