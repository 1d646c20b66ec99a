// The compare view's state: the cases that changed outcome between two runs and the paired verdict of all of them.
import { CompareRuns, GetRun } from '../../src/protocol.js';
import type { CompareRow, RunListing } from '../../src/protocol.js';
import { pairedVerdicts } from '../../src/core/report/pairedRows.js';
import type { PairedVerdicts } from '../../src/core/report/pairedRows.js';
import { flippedOnly } from '../api/compareRuns.js';
import { describeError } from '../api/inspectorApi.js';
import type { CompareSelection } from '../components/compareView.js';
import type { AppContext } from './appContext.js';

export class CompareState {
  rows: CompareRow[] | undefined;
  /** The paired verdict of the two runs' case verdicts, per suite and model. */
  paired: PairedVerdicts | undefined;
  loading = false;
  error = '';
  private key = '';

  constructor(private readonly app: AppContext) {}

  /** The chosen pair, else the shown run against the run before it (runs are newest first); the oldest against the next. */
  static selection(chosen: CompareSelection | undefined, runs: readonly RunListing[], shownRun: string | undefined): CompareSelection | undefined {
    if (chosen) return chosen;
    const index = Math.max(0, runs.findIndex((r) => r.runId === shownRun));
    const selected = runs[index];
    const older = runs[index + 1];
    const newer = runs[index - 1];
    if (selected && older) return { before: older.runId, after: selected.runId };
    if (selected && newer) return { before: selected.runId, after: newer.runId };
    return undefined;
  }

  /** Loads the pair unless it is the one shown already. */
  async load(selection: CompareSelection | undefined): Promise<void> {
    const key = selection ? `${selection.before}\u0000${selection.after}` : '';
    if (key === this.key) return;
    this.key = key;
    this.rows = undefined;
    this.paired = undefined;
    this.error = '';
    this.app.changed();
    if (!selection) return;
    if (selection.before === selection.after) { this.error = 'Choose two different runs.'; return; }
    this.loading = true;
    const { api } = this.app;
    try {
      // Both runs' case lists give the paired verdict (every paired case counts, not only the flipped ones).
      const [rows, earlier, later] = await Promise.all([
        api.request(CompareRuns, { before: selection.before, after: selection.after }), api.request(GetRun, { runId: selection.before }), api.request(GetRun, { runId: selection.after }),
      ]);
      if (this.key === key) {
        this.rows = flippedOnly(rows);
        this.paired = pairedVerdicts(earlier.cases, later.cases);
      }
    } catch (error) {
      if (this.key === key) this.error = `Could not compare: ${describeError(error)}`;
    } finally {
      if (this.key === key) this.loading = false;
      this.app.changed();
    }
  }
}
