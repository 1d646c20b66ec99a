// IF-RAG's tables: accuracy per data kind (one instruction per suite), over-refusal (Figure 3), and the 9-column Table 1 from three suites.
import * as path from 'node:path';
import { joined, modelColumns, orphansNote, reportThrough } from '../aggregator.js';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import type { ReportCell, ReportMetric, ReportTable, SuiteAggregator, SuiteReport } from '../contract.js';
import { CITATION_RULE } from './citations.js';
import { IFRAG_METHOD, ifragCaseParams } from './cases.js';
import { NORMALISATION_RULES } from './normalise.js';
import { DATA_KINDS, INSTRUCTIONS } from './params.js';
import type { DataKind, IfRagParams, Instruction, Normalisation } from './params.js';
import { wilsonCell } from '../reportCells.js';

/** What combineIfRagTables needs to line suites up: the instruction and the dataset file(s) the cases came from. */
export interface IfRagReportInfo {
  instruction: Instruction;
  /** Dataset files (absolute), sorted. */
  datasets: string[];
  kinds: DataKind[];
  normalise: Normalisation;
  idFormat: string;
}

/** A SuiteReport that also says which instruction and dataset it scored; it travels in run logs like any report. */
export interface IfRagSuiteReport extends SuiteReport {
  ifrag: IfRagReportInfo;
}

export const KIND_NAMES: Readonly<Record<DataKind, string>> = {
  factual: 'factual',
  counterfactual: 'counterfactual',
  multi: 'multi-answer',
};

const INSTRUCTION_NAMES: Readonly<Record<Instruction, string>> = {
  A: 'A (answer only)',
  B: 'B (answer and helpful document ID)',
  C: 'C (all answers)',
};

interface Tally {
  hits: number;
  n: number;
  undetermined: number;
}

const emptyTally = (): Tally => ({ hits: 0, n: 0, undetermined: 0 });

function scoreOf(result: ReportResult, metric: string): ReportScore | undefined {
  return result.scores.find((score) => score.metric === metric);
}

/** One result into a metric's tally: hits / determined; model errors and missing scores are undetermined, never wrong. */
function countInto(t: Tally, result: ReportResult, metric: string): void {
  const score = result.status === 'success' ? scoreOf(result, metric) : undefined;
  if (!score || score.value === null) t.undetermined++;
  else {
    t.n++;
    if (score.value === 1) t.hits++;
  }
}

function cell(t: Tally): ReportCell {
  return wilsonCell(t.hits, t.n, t.undetermined);
}

const METRICS = ['correct', 'over_refusal'] as const;
const CITATION_OUTCOMES = ['correct', 'wrong-citation', 'missing-citation'] as const;
/** Tallies of a model's results over all kinds (ALL) or one data kind. */
const ALL = 'all';
const columnName = (kind: DataKind, instruction: Instruction) => `${KIND_NAMES[kind]}-${instruction}`;

/** A model's counts: per scope and metric, and instruction B's citation outcomes (among results scored "correct"). */
interface ModelCounts {
  tallies: Map<string, Tally>;
  results: number;
  scored: number;
  labels: Map<string, number>;
}

class IfRagCounts {
  private readonly byModel = new Map<string, ModelCounts>();

  add(evalCase: ReportCase, result: ReportResult): void {
    let counts = this.byModel.get(result.modelKey);
    if (!counts) {
      counts = { tallies: new Map(), results: 0, scored: 0, labels: new Map() };
      this.byModel.set(result.modelKey, counts);
    }
    for (const scope of [ALL, ifragCaseParams(evalCase).kind]) {
      for (const metric of METRICS) {
        const key = `${scope}\u0000${metric}`;
        const tally = counts.tallies.get(key) ?? emptyTally();
        counts.tallies.set(key, tally);
        countInto(tally, result, metric);
      }
    }
    counts.results++;
    const correct = result.status === 'success' ? scoreOf(result, 'correct') : undefined;
    if (!correct) return;
    counts.scored++;
    if (correct.label !== undefined) counts.labels.set(correct.label, (counts.labels.get(correct.label) ?? 0) + 1);
  }

  models(): string[] {
    return modelColumns(this.byModel.keys());
  }

  tally(model: string, scope: string, metric: string): Tally {
    return { ...(this.byModel.get(model)?.tallies.get(`${scope}\u0000${metric}`) ?? emptyTally()) };
  }

  /** Among the model's results scored "correct", the share with this citation outcome; the rest are undetermined. */
  labelTally(model: string, label: string): Tally {
    const counts = this.byModel.get(model);
    if (!counts) return emptyTally();
    return { hits: counts.labels.get(label) ?? 0, n: counts.scored, undetermined: counts.results - counts.scored };
  }
}

// ——— tables ———

/** Table 1 for one instruction: rows = models (as in the paper), columns = the data kinds. */
function accuracyTable(counts: IfRagCounts, models: string[], params: IfRagParams): ReportTable {
  return {
    id: `ifrag-accuracy-${params.instruction}`,
    title: `IF-RAG accuracy, instruction ${INSTRUCTION_NAMES[params.instruction]}, by data kind (IF-RAG Table 1)`,
    columns: params.kinds.map((kind) => columnName(kind, params.instruction)),
    rows: models.map((model) => ({ label: model, cells: params.kinds.map((kind) => cell(counts.tally(model, kind, 'correct'))) })),
    notes: ['Rows are models and columns data kinds, as in the paper. Three suites (A, B, C) over one dataset make the 9-column table.'],
  };
}

function overRefusalTable(counts: IfRagCounts, models: string[], params: IfRagParams): ReportTable {
  return {
    id: `ifrag-over-refusal-${params.instruction}`,
    title: `IF-RAG over-refusal: answerable cases answered with the refusal sentence, instruction ${params.instruction} (IF-RAG Figure 3)`,
    columns: params.kinds.map((kind) => columnName(kind, params.instruction)),
    rows: models.map((model) => ({ label: model, cells: params.kinds.map((kind) => cell(counts.tally(model, kind, 'over_refusal'))) })),
    notes: ['The paper\'s Figure 3 is the factual column under instruction A.'],
  };
}

/** Instruction B only: how responses fell short — the answer without an ID, or with the wrong one. */
function citationTable(counts: IfRagCounts, models: string[]): ReportTable {
  return {
    id: 'ifrag-citations-B',
    title: 'IF-RAG instruction B: answer with a helpful document ID (correct), with only other IDs (wrong-citation), with no ID (missing-citation)',
    columns: [...CITATION_OUTCOMES],
    rows: models.map((model) => ({ label: model, cells: CITATION_OUTCOMES.map((o) => cell(counts.labelTally(model, o))) })),
  };
}

// ——— metrics and notes ———

function metricsFor(counts: IfRagCounts, models: string[], params: IfRagParams, suiteId: string): ReportMetric[] {
  const metric = (model: string, name: string, t: Tally): ReportMetric => ({ suiteId, modelKey: model, name, value: t.n === 0 ? null : t.hits / t.n, n: t.n });
  return models.flatMap((model) => [
    metric(model, 'accuracy', counts.tally(model, ALL, 'correct')),
    ...params.kinds.map((kind) => metric(model, `accuracy@${kind}`, counts.tally(model, kind, 'correct'))),
    metric(model, 'over_refusal', counts.tally(model, ALL, 'over_refusal')),
    ...params.kinds.map((kind) => metric(model, `over_refusal@${kind}`, counts.tally(model, kind, 'over_refusal'))),
  ]);
}

/**
 * What the notes read of the suite's own cases, case by case: the rows that gave no counterfactual or multi-answer
 * case (each row once, with its last case's reason: kept per such row only), the cases short of irrelevant
 * passages, and the dataset files.
 */
class OwnCases {
  private readonly skippedRows = new Map<string, string>();
  private short = 0;
  private readonly files = new Set<string>();

  constructor(private readonly suiteId: string) {}

  addCase(evalCase: ReportCase): void {
    if (evalCase.suiteId !== this.suiteId || evalCase.method !== IFRAG_METHOD) return;
    const p = ifragCaseParams(evalCase);
    if (p.skippedKinds.length > 0) this.skippedRows.set(`${evalCase.row.file}#${evalCase.row.index}`, p.skippedKinds[0]?.reason ?? '');
    if (p.irrelevant < p.requestedIrrelevant) this.short++;
    this.files.add(evalCase.row.file);
  }

  datasets(): string[] {
    return [...this.files].sort();
  }

  notes(params: IfRagParams): string[] {
    const notes = [
      `Answers and the refusal sentence matched by ${NORMALISATION_RULES[params.normalise]}. Refusal: ${params.refusal.map((r) => `'${r}'`).join(', ')}.`,
      `Documents labelled ${params.idFormat.replace('{n}', 'N')}, N = 1..${params.k} in the order shown.${params.instruction === 'B' ? ` Citations: ${CITATION_RULE}` : ''}`,
      `k = ${params.k}: the evidence plus irrelevant passages drawn from other rows (passages mentioning one of the row's answers are passed over), one seeded draw per row shared by the data kinds and by suites A, B and C, so the instruction is the only difference between them.`,
    ];
    if (this.skippedRows.size > 0) {
      const failed = [...this.skippedRows.values()].filter((reason) => reason.startsWith('counterfactual generation failed')).length;
      const detail = failed > 0 ? ` (${failed} of them because counterfactual generation failed)` : '';
      notes.push(`${this.skippedRows.size} row(s) have no counterfactual data${detail}: they appear in the factual column only. Rows that gave no case at all are not counted here.`);
    }
    if (this.short > 0) notes.push(`${this.short} case(s) show fewer than k passages: the other rows had too few passages that do not mention the row's answers.`);
    return notes;
  }
}

/** Suite.createAggregator for IF-RAG: counts per model, data kind and metric; the notes' few facts about the cases. */
export function createIfRagAggregator(params: IfRagParams, suiteId: string): SuiteAggregator {
  const counts = new IfRagCounts();
  const own = new OwnCases(suiteId);
  let errors = 0;
  return joined({
    addCase: (evalCase) => own.addCase(evalCase),
    add(evalCase, result) {
      counts.add(evalCase, result);
      if (result.status !== 'success') errors++;
    },
    finish(orphans): IfRagSuiteReport {
      const models = counts.models();
      const tables = [accuracyTable(counts, models, params), overRefusalTable(counts, models, params)];
      if (params.instruction === 'B') tables.push(citationTable(counts, models));
      const notes = own.notes(params);
      if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined, not as wrong.`);
      notes.push(...orphansNote(orphans));
      return {
        suiteId,
        method: IFRAG_METHOD,
        tables,
        metrics: metricsFor(counts, models, params, suiteId),
        notes,
        ifrag: { instruction: params.instruction, datasets: own.datasets(), kinds: params.kinds, normalise: params.normalise, idFormat: params.idFormat },
      };
    },
  });
}

/** Suite.report for IF-RAG: the aggregator fed from arrays. */
export function ifragReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: IfRagParams, suiteId: string): IfRagSuiteReport {
  return reportThrough(createIfRagAggregator(params, suiteId), cases, results) as IfRagSuiteReport;
}

// ——— the 9-column table ———

/** A report from this suite, also when read back from a run log (so the shape is checked, not assumed). */
export function isIfRagReport(report: SuiteReport): report is IfRagSuiteReport {
  const info = (report as Partial<IfRagSuiteReport>).ifrag;
  return report.method === IFRAG_METHOD && typeof info === 'object' && info !== null
    && INSTRUCTIONS.includes(info.instruction) && Array.isArray(info.datasets) && Array.isArray(info.kinds);
}

function accuracyCells(report: IfRagSuiteReport): Map<string, Map<DataKind, ReportCell>> {
  const table = report.tables.find((t) => t.id === `ifrag-accuracy-${report.ifrag.instruction}`);
  const byModel = new Map<string, Map<DataKind, ReportCell>>();
  for (const row of table?.rows ?? []) {
    byModel.set(row.label, new Map(report.ifrag.kinds.map((kind, i) => [kind, row.cells[i] ?? { value: null }])));
  }
  return byModel;
}

interface Column {
  name: string;
  report: IfRagSuiteReport;
  kind: DataKind;
}

/** Kind-major like the paper (factual-A, factual-B, factual-C, counterfactual-A…); a repeated instruction is named by suite. */
function byInstruction(group: readonly IfRagSuiteReport[]): IfRagSuiteReport[] {
  return [...group].sort((a, b) => INSTRUCTIONS.indexOf(a.ifrag.instruction) - INSTRUCTIONS.indexOf(b.ifrag.instruction));
}

function columnsOf(group: readonly IfRagSuiteReport[]): Column[] {
  const ordered = byInstruction(group);
  const repeated = (r: IfRagSuiteReport) => group.filter((o) => o.ifrag.instruction === r.ifrag.instruction).length > 1;
  return DATA_KINDS.flatMap((kind) => ordered
    .filter((r) => r.ifrag.kinds.includes(kind))
    .map((report) => ({ name: `${columnName(kind, report.ifrag.instruction)}${repeated(report) ? ` [${report.suiteId}]` : ''}`, report, kind })));
}

function combinedNotes(group: readonly IfRagSuiteReport[]): string[] {
  const notes = [`From suites ${byInstruction(group).map((r) => `${r.suiteId} (${r.ifrag.instruction})`).join(', ')}.`];
  if (new Set(group.map((r) => r.ifrag.normalise)).size > 1) notes.push('The suites use different normalisation: columns are not scored alike.');
  if (new Set(group.map((r) => r.ifrag.idFormat)).size > 1) notes.push('The suites label documents differently.');
  return notes;
}

/**
 * The paper's Table 1 (data kind × instruction, 9 columns, one row per model) from the reports of several ifrag
 * suites: one table per dataset the suites share. Other methods' reports are ignored; a dataset with a single
 * ifrag suite gets no combined table (its own report already is that table).
 */
export function combineIfRagTables(reports: readonly SuiteReport[]): ReportTable[] {
  const groups = new Map<string, IfRagSuiteReport[]>();
  for (const report of reports.filter(isIfRagReport)) {
    const key = report.ifrag.datasets.join('\n');
    groups.set(key, [...(groups.get(key) ?? []), report]);
  }
  return [...groups.values()].filter((group) => group.length > 1).map((group) => {
    const columns = columnsOf(group);
    const cells = new Map(group.map((r) => [r, accuracyCells(r)]));
    const models = modelColumns(group.flatMap((r) => [...(cells.get(r)?.keys() ?? [])]));
    const datasets = group[0]?.ifrag.datasets ?? [];
    return {
      id: `ifrag-table1:${datasets.map((d) => path.basename(d)).join('+')}`,
      title: `IF-RAG accuracy, data kind × instruction (IF-RAG Table 1): ${datasets.map((d) => path.basename(d)).join(', ')}`,
      columns: columns.map((c) => c.name),
      rows: models.map((model) => ({ label: model, cells: columns.map((c) => cells.get(c.report)?.get(model)?.get(c.kind) ?? { value: null }) })),
      notes: combinedNotes(group),
    };
  });
}
