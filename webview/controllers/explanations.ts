// Explain a failure, the view's side: the shown run's explained cases, the variant runs of cases being explained, and
// the explanation running (its progress in the header); Explain and Cancel go to the host as commands.
import { CancelExplain, CaseExplained, ExplainCase, ExplainFailed, ExplainFinished, ExplainProgress, ExplainStarted, GetExplanation } from '../../src/protocol.js';
import type { CaseExplanation, ExplainPlan, VariantOutcome } from '../../src/protocol.js';
import { explanationsByKey, withOutcome } from '../state/explanation.js';
import { describeError } from '../api/inspectorApi.js';
import type { AppContext } from './appContext.js';

export class ExplanationsState {
  /** The shown run's explained cases, by list key: stored ones when the run opens, then each as it is explained. */
  explanations: ReadonlyMap<string, CaseExplanation> = new Map();
  /** Cases being explained: their variant runs' outcomes so far (cards show leave-one-out's at once). */
  explainRuns: ReadonlyMap<string, ReadonlyMap<string, VariantOutcome>> = new Map();
  /** The explanation running on a run, after its cost was accepted; `total` comes with the first variant run. */
  explaining: { runId: string; plan: ExplainPlan; done: number; total?: number } | undefined;

  /** `stored`: an explanation finished and was stored for the run (its causes now show in the run's list). */
  constructor(private readonly app: AppContext, private readonly stored: (runId: string) => void) {}

  listen(): (() => void)[] {
    const { api } = this.app;
    const shown = (runId: string) => this.app.shownRun() === runId;
    return [
      api.on(ExplainStarted, ({ runId, plan }) => {
        this.explaining = { runId, plan, done: 0 };
        this.app.changed();
      }),
      api.on(ExplainProgress, ({ runId, key, variantIds, outcome, done, total }) => {
        if (this.explaining?.runId === runId) this.explaining = { ...this.explaining, done, total };
        if (shown(runId)) this.explainRuns = new Map(this.explainRuns).set(key, withOutcome(this.explainRuns.get(key), variantIds, outcome));
        this.app.changed();
      }),
      api.on(CaseExplained, ({ runId, key, explanation }) => {
        if (!shown(runId)) return;
        this.explanations = new Map(this.explanations).set(key, explanation);
        const running = new Map(this.explainRuns);
        running.delete(key);
        this.explainRuns = running;
        this.app.changed();
      }),
      api.on(ExplainFinished, ({ runId, explanation, error }) => {
        if (this.explaining?.runId === runId) this.explaining = undefined;
        this.app.changed();
        if (!shown(runId)) return;
        this.explainRuns = new Map();
        // The stored file holds every case explained so far, partial ones of a cancel included.
        if (explanation) this.explanations = explanationsByKey(explanation);
        if (explanation) this.stored(runId);
        if (error) this.app.showError(`Explain failed: ${error}`);
      }),
    ];
  }

  /** Explanations stored for the run (a run explained earlier, or by the CLI) show as soon as it opens. */
  async load(runId: string): Promise<void> {
    this.explanations = new Map();
    this.explainRuns = new Map();
    this.app.changed();
    try {
      const stored = await this.app.api.request(GetExplanation, { runId });
      if (this.app.shownRun() === runId) this.explanations = explanationsByKey(stored);
      this.app.changed();
    } catch (error) {
      if (this.app.shownRun() === runId) this.app.showError(`Could not read the run's explanation: ${describeError(error)}`);
    }
  }

  /** Explain one case, or with no key the run's failed cases: the host shows the cost first and reports progress. */
  explain(runId: string, key?: string): void {
    if (key === undefined) this.app.api.command(ExplainFailed, { runId });
    else this.app.api.command(ExplainCase, { runId, key });
  }

  cancel(runId: string): void {
    this.app.api.command(CancelExplain, { runId });
  }
}
