// Checks the eval file's thresholds against the metrics the suites reported, per model.
import type { SuiteSpec } from '../spec/types.js';
import type { SuiteReport } from '../suites/contract.js';
import type { ThresholdOutcome } from '../model.js';

/**
 * One outcome per (suite threshold, model). A metric the suite did not report, or could not determine
 * (null: e.g. a judge metric with no judge), fails the threshold: a gate that silently passes on missing
 * data would let a broken CI run through.
 */
export function evaluateThresholds(suites: readonly SuiteSpec[], reports: readonly SuiteReport[], models: readonly string[]): ThresholdOutcome[] {
  const outcomes: ThresholdOutcome[] = [];
  for (const suite of suites) {
    const report = reports.find((r) => r.suiteId === suite.id);
    for (const threshold of suite.thresholds) {
      for (const modelKey of models) {
        const metric = report?.metrics.find((m) => m.modelKey === modelKey && m.name === threshold.metric);
        const value = metric?.value ?? null;
        const passed = value !== null
          && (threshold.min === undefined || value >= threshold.min)
          && (threshold.max === undefined || value <= threshold.max);
        const counts = metric ? { n: metric.n, ...(metric.undetermined !== undefined ? { undetermined: metric.undetermined } : {}) } : {};
        outcomes.push({ suiteId: suite.id, modelKey, metric: threshold.metric, value, ...counts, min: threshold.min, max: threshold.max, passed });
      }
    }
  }
  return outcomes;
}
