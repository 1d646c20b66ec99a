// The judge's agreement with the person, per judge metric of a run: each finished case whose metric gave a verdict
// (pass / fail) and that the person marked correct / wrong on the same response. A stale verdict (the response
// changed since) and an undetermined judge score are counted apart, never as agreement or disagreement.
import { caseKey } from '../model.js';
import type { CaseEntry } from '../model.js';
import { agreementOf } from './agreement.js';
import type { Agreement, VerdictPair } from './agreement.js';
import { requestHash, responseHash } from './model.js';
import type { HumanLabel } from './model.js';
import type { VerdictIndex } from './store.js';

export interface MetricAgreement extends Agreement {
  metric: string;
  /** Marked cases whose response changed since: shown, not counted. */
  stale: number;
  /** Marked cases the judge left undetermined (judge error): not counted. */
  undetermined: number;
}

/** The label a person gave this case (or this metric of it) on this response, if not stale; else the dataset's label. */
export function humanLabelOf(entry: CaseEntry, index: VerdictIndex, metric?: string): { label?: HumanLabel; stale: boolean } {
  const response = entry.result.response?.text;
  if (response !== undefined) {
    const verdict = index.lookup(requestHash(entry.evalCase.messages), responseHash(response), entry.result.modelKey, metric);
    if (verdict?.stale) return { stale: true };
    if (verdict?.label) return { label: verdict.label, stale: false };
  }
  const fromData = entry.evalCase.humanLabel;
  return fromData === undefined ? { stale: false } : { label: fromData ? 'correct' : 'wrong', stale: false };
}

export function runAgreement(entries: Iterable<CaseEntry>, index: VerdictIndex): MetricAgreement[] {
  const counter = new RunAgreementCounter(index);
  for (const entry of entries) counter.add(entry);
  return counter.list();
}

/**
 * runAgreement one case at a time, for a report that streams a run's cases: per metric it keeps only the marked
 * cases' verdict pairs (a key and two booleans) and the counts, never the cases.
 */
export class RunAgreementCounter {
  private readonly byMetric = new Map<string, { pairs: VerdictPair[]; stale: number; undetermined: number }>();

  constructor(private readonly index: VerdictIndex) {}

  add(entry: CaseEntry): void {
    if (entry.result.status !== 'success') return;
    for (const score of entry.result.scores) {
      const gaveVerdict = score.pass !== undefined || score.judgeError !== undefined;
      if (!gaveVerdict) continue;
      const human = humanLabelOf(entry, this.index, score.metric);
      const bucket = this.byMetric.get(score.metric) ?? { pairs: [], stale: 0, undetermined: 0 };
      this.byMetric.set(score.metric, bucket);
      if (human.stale) bucket.stale += 1;
      if (!human.label) continue;
      if (score.judgeError !== undefined || score.pass === undefined) {
        bucket.undetermined += 1;
        continue;
      }
      bucket.pairs.push({ key: caseKey(entry.evalCase.id, entry.result.modelKey), judge: score.pass, human: human.label === 'correct' });
    }
  }

  list(): MetricAgreement[] {
    return [...this.byMetric].filter(([, b]) => b.pairs.length + b.stale + b.undetermined > 0)
      .map(([metric, b]) => ({ metric, ...agreementOf(b.pairs), stale: b.stale, undetermined: b.undetermined }));
  }
}
