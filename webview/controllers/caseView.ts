// The open case's state: its detail, fetched when it is opened; a later click wins over a slower earlier answer.
import { GetCase, RunFinished } from '../../src/protocol.js';
import type { CaseDetail } from '../../src/protocol.js';
import { describeError } from '../api/inspectorApi.js';
import type { AppContext } from './appContext.js';

export class CaseViewState {
  detail: CaseDetail | undefined;
  loading = false;
  error = '';
  private request = 0;

  constructor(private readonly app: AppContext) {}

  listen(): (() => void)[] {
    // A rerun may have changed the case on screen: fetch it again.
    return [this.app.api.on(RunFinished, ({ runId }) => {
      const key = this.app.shownCase();
      if (runId === this.app.shownRun() && key) void this.load(runId, key);
    })];
  }

  clear(): void {
    this.detail = undefined;
    this.error = '';
    this.app.changed();
  }

  async load(runId: string, key: string): Promise<void> {
    const request = ++this.request;
    this.loading = true;
    this.error = '';
    this.app.changed();
    try {
      const detail = await this.app.api.request(GetCase, { runId, key });
      if (request !== this.request) return;
      this.detail = detail;
    } catch (error) {
      if (request !== this.request) return;
      this.detail = undefined;
      this.error = `Could not load the case: ${describeError(error)}`;
    } finally {
      if (request === this.request) {
        this.loading = false;
        this.app.changed();
      }
    }
  }
}
