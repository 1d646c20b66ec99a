// The self-consistency table a suite's report gets when its cases were scored with judgeSamples: k — per metric and
// model, how many cases' samples disagreed and how far — so the headline (majority or mean) comes with its spread.
import type { ReportTable, SuiteReport } from './contract.js';
import type { ReportResult } from './reportView.js';

interface Tally { cases: number; unstable: number; stdevSum: number; stdevN: number; undeterminedSamples: number; k: number; aggregation: string }

function tallies(results: readonly ReportResult[]): Map<string, Map<string, Tally>> {
  const byMetric = new Map<string, Map<string, Tally>>();
  for (const result of results) {
    for (const score of result.scores) {
      const samples = score.samples;
      if (!samples) continue;
      const byModel = byMetric.get(score.metric) ?? new Map<string, Tally>();
      byMetric.set(score.metric, byModel);
      const t = byModel.get(result.modelKey) ?? { cases: 0, unstable: 0, stdevSum: 0, stdevN: 0, undeterminedSamples: 0, k: samples.k, aggregation: samples.aggregation };
      byModel.set(result.modelKey, t);
      t.cases += 1;
      if (samples.unstable) t.unstable += 1;
      if (samples.stdev !== null) {
        t.stdevSum += samples.stdev;
        t.stdevN += 1;
      }
      t.undeterminedSamples += samples.undetermined;
    }
  }
  return byMetric;
}

/**
 * A headline metric named as a score is (LLM-Eval's dimensions, RAGAS's metrics) gets its undetermined count: the
 * results of that model whose score was null or a judge error, so the number is shown with what it left out.
 */
export function withUndeterminedCounts(report: SuiteReport, results: readonly ReportResult[]): SuiteReport {
  const metrics = report.metrics.map((m) => {
    if (m.undetermined !== undefined) return m;
    const scores = results.filter((r) => r.modelKey === m.modelKey).map((r) => ({ status: r.status, score: r.scores.find((s) => s.metric === m.name) }));
    if (!scores.some((s) => s.score)) return m;
    const undetermined = scores.filter((s) => s.status !== 'success' || !s.score || s.score.value === null || s.score.judgeError !== undefined).length;
    return { ...m, undetermined };
  });
  return { ...report, metrics };
}

/** The report with the self-consistency table and a note added; unchanged when no score was sampled. */
export function withSampleStability(input: SuiteReport, results: readonly ReportResult[]): SuiteReport {
  const report = withUndeterminedCounts(input, results);
  const byMetric = tallies(results);
  if (byMetric.size === 0) return report;
  const models = [...new Set([...byMetric.values()].flatMap((m) => [...m.keys()]))];
  const rows: ReportTable['rows'] = [];
  for (const [metric, byModel] of byMetric) {
    const cell = (pick: (t: Tally) => ReportTable['rows'][number]['cells'][number]) => models.map((m) => (byModel.has(m) ? pick(byModel.get(m)!) : { value: null }));
    rows.push({ label: `${metric}: unstable cases`, cells: cell((t) => ({ value: t.unstable, n: t.cases })) });
    rows.push({ label: `${metric}: mean spread (sd of samples)`, cells: cell((t) => ({ value: t.stdevN === 0 ? null : t.stdevSum / t.stdevN, n: t.stdevN, undetermined: t.cases - t.stdevN })) });
    rows.push({ label: `${metric}: undetermined samples`, cells: cell((t) => ({ value: t.undeterminedSamples, n: t.cases * t.k })) });
  }
  const any = [...byMetric.values()].flatMap((m) => [...m.values()]);
  const k = Math.max(...any.map((t) => t.k));
  const unstable = any.reduce((sum, t) => sum + t.unstable, 0);
  const scored = any.reduce((sum, t) => sum + t.cases, 0);
  const table: ReportTable = { id: `${report.suiteId}-judge-samples`, title: `Judge self-consistency (judgeSamples: ${k})`, columns: models, rows };
  const note = `judgeSamples: ${k} — each case was scored ${k} times; a verdict's headline is the majority of its samples (an even split is undetermined), a scale's is their mean. ${unstable} of ${scored} (case, metric) scores had samples that disagree (marked unstable on the case, with every sample's value).`;
  return { ...report, tables: [...report.tables, table], notes: [...report.notes, note] };
}
