// The stress report: RGB's tables (rgbReport, Wilson intervals) computed on the user's data, and for the position
// testbed the accuracy-by-position curve ("lost in the middle"), one column per model.
import type { ReportCase, ReportResult } from '../reportView.js';
import type { ReportMetric, ReportTable, SuiteAggregator, SuiteReport } from '../contract.js';
import { modelColumns, reportThrough } from '../aggregator.js';
import { wilsonCell } from '../reportCells.js';
import { createRgbAggregator } from '../rgb/report.js';
import { TallyBook } from '../rgb/tallies.js';
import { STRESS_METHOD, stressCaseParams } from './cases.js';
import type { StressParams } from './params.js';
import { rgbParamsFor } from './score.js';

function positionLabel(position: number, last: number): string {
  const where = position === 0 ? ' (first)' : position === last ? ' (last)' : '';
  return `${position + 1}${where}`;
}

const ALL = 'all';
const atPosition = (position: number | null | undefined) => `position=${String(position)}`;

/**
 * Accuracy with the answer-bearing passage at each position (1 = first), the same tally RGB's accuracy uses, counted
 * case by case: the positions and short rows from the suite's cases, the tallies from the results.
 */
class PositionTables {
  private readonly book = new TallyBook(['correct']);
  private readonly positions = new Set<number>();
  private readonly models = new Set<string>();
  private shortRows = 0;

  constructor(private readonly suiteId: string) {}

  addCase(evalCase: ReportCase): void {
    if (evalCase.suiteId !== this.suiteId) return;
    const { position, distractorsDrawn, distractorsRequested } = stressCaseParams(evalCase);
    if (position !== null && position !== undefined) this.positions.add(position);
    if (position === 0 && distractorsDrawn < distractorsRequested) this.shortRows++;
  }

  add(evalCase: ReportCase, result: ReportResult): void {
    this.models.add(result.modelKey);
    this.book.add(result.modelKey, [ALL, atPosition(stressCaseParams(evalCase).position)], result);
  }

  finish(): { tables: ReportTable[]; metrics: ReportMetric[]; notes: string[] } {
    const { book, suiteId } = this;
    const models = modelColumns(this.models);
    const positions = [...this.positions].sort((a, b) => a - b);
    const last = positions[positions.length - 1] ?? 0;
    const table: ReportTable = {
      id: 'stress-position',
      title: 'Position: accuracy with the answer-bearing passage at each position among the distractors',
      columns: models,
      rows: positions.map((position) => ({
        label: positionLabel(position, last),
        cells: models.map((model) => {
          const tally = book.tally(model, atPosition(position), 'correct');
          return wilsonCell(tally.hits, tally.n, tally.undetermined);
        }),
      })),
      notes: ['Each row\'s distractors keep one drawn order; only the answer-bearing passage moves, so a dip in the middle is the position\'s effect.'],
    };
    const metrics = models.flatMap((model) => {
      const overall = book.tally(model, ALL, 'correct');
      return [
        { suiteId, modelKey: model, name: 'accuracy', value: overall.n === 0 ? null : overall.hits / overall.n, n: overall.n },
        ...positions.map((position) => {
          const tally = book.tally(model, atPosition(position), 'correct');
          return { suiteId, modelKey: model, name: `accuracy@position=${position + 1}`, value: tally.n === 0 ? null : tally.hits / tally.n, n: tally.n };
        }),
      ];
    });
    const notes = this.shortRows > 0 ? [`${this.shortRows} row(s) had fewer distractors than k: their cases have fewer positions, so the last rows of the table have a smaller n.`] : [];
    return { tables: [table], metrics, notes };
  }
}

function stressNotes(params: StressParams): string[] {
  const source = params.distractors.kind === 'dataset' ? 'other rows\' passages that bear no answer of their own row' : `paragraphs of the corpus folder ${params.distractors.folder}`;
  const bearing = params.answerBearing === 'judge'
    ? 'those the judge found to contain the reference answer, word for word or paraphrased (each verdict and its reason are in the case\'s params)'
    : 'those containing the reference answer by RGB\'s rule (lowercase substring, any alternative of each part)';
  const cleared = params.answerBearing === 'judge' ? ' word for word, nor stating it paraphrased by the judge\'s verdict (candidates it passed over are in the case\'s params)' : '';
  const notes = [
    `Built from your rows: answer-bearing passages are ${bearing}, or those a row names in its answer_bearing column; distractors are ${source}, drawn with the run seed and never mentioning the row's answer${cleared}.`,
  ];
  if (params.testbed === 'negative_rejection') notes.push(`Rejection phrase${params.refusal.length > 1 ? 's' : ''}: ${params.refusal.map((p) => `'${p}'`).join(', ')} (in place of RGB's markers, matched by RGB's rule).`);
  if (params.testbed === 'counterfactual_robustness') notes.push(`Factual-error phrase${params.factualError.length > 1 ? 's' : ''}: ${params.factualError.map((p) => `'${p}'`).join(', ')} (in place of RGB's markers, matched by RGB's rule).`);
  return notes;
}

/** Suite.createAggregator for stress: RGB's aggregator on the user's data, and the position tables for that testbed. */
export function createStressAggregator(params: StressParams, suiteId: string): SuiteAggregator {
  const rgb = createRgbAggregator(rgbParamsFor(params), suiteId);
  const position = params.testbed === 'position' ? new PositionTables(suiteId) : undefined;
  return {
    addCase(evalCase) {
      rgb.addCase(evalCase);
      position?.addCase(evalCase);
    },
    add(evalCase, result) {
      rgb.add(evalCase, result);
      if (evalCase) position?.add(evalCase, result);
    },
    finish() {
      const report = rgb.finish();
      if (!position) return { ...report, method: STRESS_METHOD, notes: [...stressNotes(params), ...report.notes] };
      const built = position.finish();
      // RGB's notes minus its ratio notes: the position testbed has no requested ratio to differ from.
      const rgbNotes = report.notes.filter((note) => !note.startsWith('Noise ratio'));
      return { suiteId, method: STRESS_METHOD, tables: [...built.tables, ...report.tables.filter((t) => t.id === 'rgb-failure-labels')], metrics: built.metrics, notes: [...stressNotes(params), ...built.notes, ...rgbNotes] };
    },
  };
}

/** Suite.report for stress: the aggregator fed from arrays. */
export function stressReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: StressParams, suiteId: string): SuiteReport {
  return reportThrough(createStressAggregator(params, suiteId), cases, results);
}
