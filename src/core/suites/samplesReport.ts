// The self-consistency table a suite's report gets when its cases were scored with judgeSamples: k — per metric and
// model, how many cases' samples disagreed and how far — so the headline (majority or mean) comes with its spread.
import type { ReportTable, SuiteReport } from './contract.js';
import type { ReportResult } from './reportView.js';

interface Tally { cases: number; unstable: number; stdevSum: number; stdevN: number; undeterminedSamples: number; k: number; aggregation: string }

/**
 * What the self-consistency table and the undetermined counts read of a suite's results, counted one result at a
 * time: per metric and model, the sampled scores' spread; per model, how many results carried each score determined.
 */
export class SampleCounts {
  private readonly byMetric = new Map<string, Map<string, Tally>>();
  /** modelKey → results of that model. */
  private readonly results = new Map<string, number>();
  /** `${modelKey}\u0000${metric}` → results of that model carrying the score, and of them the determined ones. */
  private readonly scored = new Map<string, { present: number; determined: number }>();

  add(result: ReportResult): void {
    this.results.set(result.modelKey, (this.results.get(result.modelKey) ?? 0) + 1);
    const seen = new Set<string>();
    for (const score of result.scores) {
      // The first score of a metric is the one a report reads (scores.find).
      if (!seen.has(score.metric)) {
        seen.add(score.metric);
        const key = `${result.modelKey}\u0000${score.metric}`;
        const counts = this.scored.get(key) ?? { present: 0, determined: 0 };
        this.scored.set(key, counts);
        counts.present++;
        if (result.status === 'success' && score.value !== null && score.judgeError === undefined) counts.determined++;
      }
      this.addSamples(result.modelKey, score);
    }
  }

  private addSamples(modelKey: string, score: ReportResult['scores'][number]): void {
    const samples = score.samples;
    if (!samples) return;
    const byModel = this.byMetric.get(score.metric) ?? new Map<string, Tally>();
    this.byMetric.set(score.metric, byModel);
    const t = byModel.get(modelKey) ?? { cases: 0, unstable: 0, stdevSum: 0, stdevN: 0, undeterminedSamples: 0, k: samples.k, aggregation: samples.aggregation };
    byModel.set(modelKey, t);
    t.cases += 1;
    if (samples.unstable) t.unstable += 1;
    if (samples.stdev !== null) {
      t.stdevSum += samples.stdev;
      t.stdevN += 1;
    }
    t.undeterminedSamples += samples.undetermined;
  }

  /**
   * A headline metric named as a score is (LLM-Eval's dimensions, RAGAS's metrics) gets its undetermined count: the
   * results of that model whose score was null or a judge error, so the number is shown with what it left out.
   */
  withUndeterminedCounts(report: SuiteReport): SuiteReport {
    const metrics = report.metrics.map((m) => {
      if (m.undetermined !== undefined) return m;
      const counts = this.scored.get(`${m.modelKey}\u0000${m.name}`);
      if (!counts) return m;
      return { ...m, undetermined: (this.results.get(m.modelKey) ?? 0) - counts.determined };
    });
    return { ...report, metrics };
  }

  /** The report with its undetermined counts, the self-consistency table and a note added (no table when no score was sampled). */
  apply(input: SuiteReport): SuiteReport {
    const report = this.withUndeterminedCounts(input);
    const byMetric = this.byMetric;
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
}

function countsOf(results: readonly ReportResult[]): SampleCounts {
  const counts = new SampleCounts();
  for (const result of results) counts.add(result);
  return counts;
}

/** SampleCounts.withUndeterminedCounts over results held in an array. */
export function withUndeterminedCounts(report: SuiteReport, results: readonly ReportResult[]): SuiteReport {
  return countsOf(results).withUndeterminedCounts(report);
}

/** SampleCounts.apply over results held in an array. */
export function withSampleStability(input: SuiteReport, results: readonly ReportResult[]): SuiteReport {
  return countsOf(results).apply(input);
}
