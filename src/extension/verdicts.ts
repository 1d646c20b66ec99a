// The host side of human verdicts: the workspace's .rag-inspector/verdicts.jsonl, read for a run's cases and appended
// to from the inspector's keys (core/verdicts). The run's cases are read from its log one by one (getCase).
import type { CaseEntry } from '../core/model.js';
import type { CaseDetail, RunDetail } from '../core/report/viewModel.js';
import { VerdictStore } from '../core/verdicts/store.js';
import { buildVerdictsView, verdictLines } from '../core/verdicts/view.js';
import type { VerdictChange, VerdictsView } from '../core/verdicts/view.js';

export interface VerdictRunData {
  getRun(runId: string): Promise<RunDetail>;
  getCase(runId: string, key: string): Promise<CaseDetail>;
}

export class VerdictService {
  constructor(private readonly folder: () => string | undefined, private readonly data: VerdictRunData) {}

  private store(): VerdictStore {
    const folder = this.folder();
    if (!folder) throw new Error('open a folder to keep verdicts: they are stored in its .rag-inspector/verdicts.jsonl');
    return VerdictStore.inWorkspace(folder);
  }

  private async entries(runId: string, keys?: readonly string[]): Promise<CaseEntry[]> {
    const wanted = keys ?? (await this.data.getRun(runId)).cases.map((c) => c.key);
    const details = await Promise.all(wanted.map((key) => this.data.getCase(runId, key)));
    return details.map(({ evalCase, result }) => ({ evalCase, result }));
  }

  async view(runId: string): Promise<VerdictsView> {
    if (!this.folder()) return { cases: {}, agreement: [] };
    return buildVerdictsView(await this.entries(runId), await this.store().latest());
  }

  /** `change` was checked on arrival (SetVerdicts' shape); returns the run's view after the change. */
  async set(runId: string, change: VerdictChange): Promise<VerdictsView> {
    await this.store().append(verdictLines(await this.entries(runId, change.keys), change));
    return this.view(runId);
  }
}
