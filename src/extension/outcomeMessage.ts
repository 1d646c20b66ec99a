// The words VS Code uses for how a run ended: the status as every surface says it, the same three counts, and the
// first cause of its errors with the fix, so a notification alone says what to do. No vscode import: unit-tested.
import { causeLine } from '../core/errorCauses.js';
import type { ErrorCause } from '../core/errorCauses.js';
import { runStatusLabel } from '../core/model.js';
import type { RunStatus, RunTotals } from '../core/model.js';

export function outcomeMessage(runId: string, status: RunStatus, totals: RunTotals, causes: readonly ErrorCause[]): string {
  const counts = `${totals.passed} passed, ${totals.failed} failed, ${totals.error} error${totals.error === 1 ? '' : 's'}`;
  const [first, ...others] = causes;
  const cause = first ? ` Cause: ${causeLine(first)}${others.length ? ` (and ${others.length} other cause${others.length === 1 ? '' : 's'}: see the RAG Inspector output)` : ''}.` : '';
  return `run ${runId} ${runStatusLabel(status)}: ${counts}.${cause}`;
}

/** Every cause, one per line, for the output channel. */
export function causeLines(causes: readonly ErrorCause[]): string[] {
  return causes.map((c) => `  ${c.count} × ${causeLine(c)} (first: ${c.firstCaseId} on ${c.firstModelKey})`);
}
