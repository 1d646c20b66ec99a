// The stress report: RGB's tables (rgbReport, Wilson intervals) computed on the user's data, and for the position
// testbed the accuracy-by-position curve ("lost in the middle"), one column per model.
import type { ReportCase, ReportResult } from '../reportView.js';
import type { ReportMetric, ReportTable, SuiteReport } from '../contract.js';
import { entriesForModel, joinEntries, modelsOf } from '../reportEntries.js';
import type { ReportEntry } from '../reportEntries.js';
import { wilsonCell } from '../reportCells.js';
import { rgbReport, tallyMetric } from '../rgb/report.js';
import { STRESS_METHOD, stressCaseParams } from './cases.js';
import type { StressParams } from './params.js';
import { rgbParamsFor } from './score.js';

function positionsOf(cases: ReadonlyMap<string, ReportCase>, suiteId: string): number[] {
  const positions = new Set<number>();
  for (const c of cases.values()) {
    const position = c.suiteId === suiteId ? stressCaseParams(c).position : null;
    if (position !== null && position !== undefined) positions.add(position);
  }
  return [...positions].sort((a, b) => a - b);
}

function positionLabel(position: number, last: number): string {
  const where = position === 0 ? ' (first)' : position === last ? ' (last)' : '';
  return `${position + 1}${where}`;
}

/** Accuracy with the answer-bearing passage at each position (1 = first), the same tally RGB's accuracy uses. */
function positionReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], suiteId: string): { tables: ReportTable[]; metrics: ReportMetric[]; notes: string[] } {
  const { entries } = joinEntries(cases, results);
  const models = modelsOf(entries);
  const positions = positionsOf(cases, suiteId);
  const last = positions[positions.length - 1] ?? 0;
  const at = (position: number) => (e: ReportEntry) => stressCaseParams(e.evalCase).position === position;
  const table: ReportTable = {
    id: 'stress-position',
    title: 'Position: accuracy with the answer-bearing passage at each position among the distractors',
    columns: models,
    rows: positions.map((position) => ({
      label: positionLabel(position, last),
      cells: models.map((model) => {
        const tally = tallyMetric(entriesForModel(entries, model), 'correct', at(position));
        return wilsonCell(tally.hits, tally.n, tally.undetermined);
      }),
    })),
    notes: ['Each row\'s distractors keep one drawn order; only the answer-bearing passage moves, so a dip in the middle is the position\'s effect.'],
  };
  const metrics = models.flatMap((model) => {
    const mine = entriesForModel(entries, model);
    const overall = tallyMetric(mine, 'correct');
    return [
      { suiteId, modelKey: model, name: 'accuracy', value: overall.n === 0 ? null : overall.hits / overall.n, n: overall.n },
      ...positions.map((position) => {
        const tally = tallyMetric(mine, 'correct', at(position));
        return { suiteId, modelKey: model, name: `accuracy@position=${position + 1}`, value: tally.n === 0 ? null : tally.hits / tally.n, n: tally.n };
      }),
    ];
  });
  const shortRows = [...cases.values()].filter((c) => c.suiteId === suiteId && stressCaseParams(c).position === 0 && stressCaseParams(c).distractorsDrawn < stressCaseParams(c).distractorsRequested).length;
  const notes = shortRows > 0 ? [`${shortRows} row(s) had fewer distractors than k: their cases have fewer positions, so the last rows of the table have a smaller n.`] : [];
  return { tables: [table], metrics, notes };
}

function stressNotes(params: StressParams): string[] {
  const source = params.distractors.kind === 'dataset' ? 'other rows\' passages that bear no answer of their own row' : `paragraphs of the corpus folder ${params.distractors.folder}`;
  const bearing = params.answerBearing === 'judge'
    ? 'those the judge found to contain the reference answer, word for word or paraphrased (each verdict and its reason are in the case\'s params)'
    : 'those containing the reference answer by RGB\'s rule (lowercase substring, any alternative of each part)';
  const notes = [
    `Built from your rows: answer-bearing passages are ${bearing}, or those a row names in its answer_bearing column; distractors are ${source}, drawn with the run seed and never mentioning the row's answer.`,
  ];
  if (params.testbed === 'negative_rejection') notes.push(`Rejection phrase${params.refusal.length > 1 ? 's' : ''}: ${params.refusal.map((p) => `'${p}'`).join(', ')} (in place of RGB's markers, matched by RGB's rule).`);
  if (params.testbed === 'counterfactual_robustness') notes.push(`Factual-error phrase${params.factualError.length > 1 ? 's' : ''}: ${params.factualError.map((p) => `'${p}'`).join(', ')} (in place of RGB's markers, matched by RGB's rule).`);
  return notes;
}

/** Suite.report for stress. */
export function stressReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: StressParams, suiteId: string): SuiteReport {
  const rgb = rgbReport(cases, results, rgbParamsFor(params), suiteId);
  if (params.testbed !== 'position') return { ...rgb, method: STRESS_METHOD, notes: [...stressNotes(params), ...rgb.notes] };
  const position = positionReport(cases, results, suiteId);
  // RGB's notes minus its ratio notes: the position testbed has no requested ratio to differ from.
  const rgbNotes = rgb.notes.filter((note) => !note.startsWith('Noise ratio'));
  return { suiteId, method: STRESS_METHOD, tables: [...position.tables, ...rgb.tables.filter((t) => t.id === 'rgb-failure-labels')], metrics: position.metrics, notes: [...stressNotes(params), ...position.notes, ...rgbNotes] };
}
