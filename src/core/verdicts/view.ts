// What the inspector shows of human verdicts for one run: each case's verdict (and whether it is stale), and the
// judge's agreement with them per metric. Built from the run's cases and the workspace's verdicts; the host sends it.
import type { CaseEntry } from '../model.js';
import { requestHash, responseHash } from './model.js';
import type { HumanLabel, VerdictLine } from './model.js';
import { RunAgreementCounter } from './runAgreement.js';
import type { MetricAgreement } from './runAgreement.js';
import type { VerdictIndex } from './store.js';

export interface CaseVerdictView {
  label: HumanLabel | null;
  note?: string;
  stale: boolean;
}

export interface VerdictsView {
  /** By case key (caseKey(caseId, modelKey)); only cases a person marked. */
  cases: Record<string, CaseVerdictView>;
  agreement: MetricAgreement[];
}

/** A person's change to one or more cases, from the inspector (y, x, c; also on a multi-selection). */
export interface VerdictChange {
  keys: string[];
  /** null: a note only. */
  label: HumanLabel | null;
  note?: string;
  metric?: string;
}

export function buildVerdictsView(entries: readonly CaseEntry[], index: VerdictIndex): VerdictsView {
  const builder = new VerdictsViewBuilder(index);
  for (const entry of entries) builder.add(entry);
  return builder.view();
}

/** buildVerdictsView one case at a time (a report streaming a run): keeps the marked cases' verdicts and the agreement's counts only. */
export class VerdictsViewBuilder {
  private readonly cases: Record<string, CaseVerdictView> = {};
  private readonly agreement: RunAgreementCounter;

  constructor(private readonly index: VerdictIndex) {
    this.agreement = new RunAgreementCounter(index);
  }

  add(entry: CaseEntry): void {
    const { evalCase, result } = entry;
    const text = result.response?.text;
    if (text !== undefined) {
      const verdict = this.index.lookup(requestHash(evalCase.messages), responseHash(text), result.modelKey);
      if (verdict) this.cases[`${evalCase.id}\u0000${result.modelKey}`] = { label: verdict.label, ...(verdict.note !== undefined ? { note: verdict.note } : {}), stale: verdict.stale };
    }
    this.agreement.add(entry);
  }

  view(): VerdictsView {
    return { cases: this.cases, agreement: this.agreement.list() };
  }
}

/** The lines a change appends: one per case that has a response (a case that errored before answering has nothing to judge). */
export function verdictLines(entries: readonly CaseEntry[], change: VerdictChange, at = new Date().toISOString()): VerdictLine[] {
  return entries.flatMap(({ evalCase, result }) => {
    const text = result.response?.text;
    if (text === undefined) return [];
    return [{
      type: 'verdict' as const, request: requestHash(evalCase.messages), response: responseHash(text), modelKey: result.modelKey,
      ...(change.metric !== undefined ? { metric: change.metric } : {}), label: change.label, ...(change.note ? { note: change.note } : {}), caseId: evalCase.id, at,
    }];
  });
}
