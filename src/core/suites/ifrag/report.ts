// IF-RAG's tables: accuracy per data kind (one instruction per suite), over-refusal (Figure 3), and the 9-column Table 1 from three suites.
import { entriesForModel, joinEntries, modelsOf } from '../reportEntries.js';
import type { ReportEntry } from '../reportEntries.js';
import * as path from 'node:path';
import type { ReportCase, ReportResult, ReportScore } from '../reportView.js';
import type { ReportCell, ReportMetric, ReportTable, SuiteReport } from '../contract.js';
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

type Entry = ReportEntry;

interface Tally {
  hits: number;
  n: number;
  undetermined: number;
}

function scoreOf(result: ReportResult, metric: string): ReportScore | undefined {
  return result.scores.find((score) => score.metric === metric);
}

/** hits / determined; model errors and missing scores are undetermined, never wrong. */
function tally(entries: readonly Entry[], metric: string): Tally {
  const t: Tally = { hits: 0, n: 0, undetermined: 0 };
  for (const { result } of entries) {
    const score = result.status === 'success' ? scoreOf(result, metric) : undefined;
    if (!score || score.value === null) t.undetermined++;
    else {
      t.n++;
      if (score.value === 1) t.hits++;
    }
  }
  return t;
}

function cell(t: Tally): ReportCell {
  return wilsonCell(t.hits, t.n, t.undetermined);
}

function labelTally(entries: readonly Entry[], label: string): Tally {
  const scored = entries.filter((e) => e.result.status === 'success' && scoreOf(e.result, 'correct'));
  return { hits: scored.filter((e) => scoreOf(e.result, 'correct')?.label === label).length, n: scored.length, undetermined: entries.length - scored.length };
}


const forModel = entriesForModel;
const ofKind = (entries: readonly Entry[], kind: DataKind) => entries.filter((e) => ifragCaseParams(e.evalCase).kind === kind);
const columnName = (kind: DataKind, instruction: Instruction) => `${KIND_NAMES[kind]}-${instruction}`;

// ——— tables ———

/** Table 1 for one instruction: rows = models (as in the paper), columns = the data kinds. */
function accuracyTable(entries: Entry[], models: string[], params: IfRagParams): ReportTable {
  return {
    id: `ifrag-accuracy-${params.instruction}`,
    title: `IF-RAG accuracy, instruction ${INSTRUCTION_NAMES[params.instruction]}, by data kind (IF-RAG Table 1)`,
    columns: params.kinds.map((kind) => columnName(kind, params.instruction)),
    rows: models.map((model) => ({ label: model, cells: params.kinds.map((kind) => cell(tally(ofKind(forModel(entries, model), kind), 'correct'))) })),
    notes: ['Rows are models and columns data kinds, as in the paper. Three suites (A, B, C) over one dataset make the 9-column table.'],
  };
}

function overRefusalTable(entries: Entry[], models: string[], params: IfRagParams): ReportTable {
  return {
    id: `ifrag-over-refusal-${params.instruction}`,
    title: `IF-RAG over-refusal: answerable cases answered with the refusal sentence, instruction ${params.instruction} (IF-RAG Figure 3)`,
    columns: params.kinds.map((kind) => columnName(kind, params.instruction)),
    rows: models.map((model) => ({ label: model, cells: params.kinds.map((kind) => cell(tally(ofKind(forModel(entries, model), kind), 'over_refusal'))) })),
    notes: ['The paper\'s Figure 3 is the factual column under instruction A.'],
  };
}

/** Instruction B only: how responses fell short — the answer without an ID, or with the wrong one. */
function citationTable(entries: Entry[], models: string[]): ReportTable {
  const outcomes = ['correct', 'wrong-citation', 'missing-citation'] as const;
  return {
    id: 'ifrag-citations-B',
    title: 'IF-RAG instruction B: answer with a helpful document ID (correct), with only other IDs (wrong-citation), with no ID (missing-citation)',
    columns: [...outcomes],
    rows: models.map((model) => ({ label: model, cells: outcomes.map((o) => cell(labelTally(forModel(entries, model), o))) })),
  };
}

// ——— metrics and notes ———

function metricsFor(entries: Entry[], models: string[], params: IfRagParams, suiteId: string): ReportMetric[] {
  const metric = (model: string, name: string, t: Tally): ReportMetric => ({ suiteId, modelKey: model, name, value: t.n === 0 ? null : t.hits / t.n, n: t.n });
  return models.flatMap((model) => {
    const mine = forModel(entries, model);
    return [
      metric(model, 'accuracy', tally(mine, 'correct')),
      ...params.kinds.map((kind) => metric(model, `accuracy@${kind}`, tally(ofKind(mine, kind), 'correct'))),
      metric(model, 'over_refusal', tally(mine, 'over_refusal')),
      ...params.kinds.map((kind) => metric(model, `over_refusal@${kind}`, tally(ofKind(mine, kind), 'over_refusal'))),
    ];
  });
}

function suiteCases(cases: ReadonlyMap<string, ReportCase>, suiteId: string): ReportCase[] {
  return [...cases.values()].filter((c) => c.suiteId === suiteId && c.method === IFRAG_METHOD);
}

/** Rows that gave no counterfactual or multi-answer case, counted once per row (each of their cases carries the reason). */
function skippedNote(own: readonly ReportCase[]): string | undefined {
  const rows = new Map<string, string>();
  for (const evalCase of own) {
    const skipped = ifragCaseParams(evalCase).skippedKinds;
    if (skipped.length > 0) rows.set(`${evalCase.row.file}#${evalCase.row.index}`, skipped[0]?.reason ?? '');
  }
  if (rows.size === 0) return undefined;
  const failed = [...rows.values()].filter((reason) => reason.startsWith('counterfactual generation failed')).length;
  const detail = failed > 0 ? ` (${failed} of them because counterfactual generation failed)` : '';
  return `${rows.size} row(s) have no counterfactual data${detail}: they appear in the factual column only. Rows that gave no case at all are not counted here.`;
}

function shortPoolNote(own: readonly ReportCase[]): string | undefined {
  const short = own.filter((c) => ifragCaseParams(c).irrelevant < ifragCaseParams(c).requestedIrrelevant);
  if (short.length === 0) return undefined;
  return `${short.length} case(s) show fewer than k passages: the other rows had too few passages that do not mention the row's answers.`;
}

function notesFor(own: readonly ReportCase[], params: IfRagParams): string[] {
  const notes = [
    `Answers and the refusal sentence matched by ${NORMALISATION_RULES[params.normalise]}. Refusal: ${params.refusal.map((r) => `'${r}'`).join(', ')}.`,
    `Documents labelled ${params.idFormat.replace('{n}', 'N')}, N = 1..${params.k} in the order shown.${params.instruction === 'B' ? ` Citations: ${CITATION_RULE}` : ''}`,
    `k = ${params.k}: the evidence plus irrelevant passages drawn from other rows (passages mentioning one of the row's answers are passed over), one seeded draw per row shared by the data kinds and by suites A, B and C, so the instruction is the only difference between them.`,
  ];
  const skipped = skippedNote(own);
  if (skipped) notes.push(skipped);
  const short = shortPoolNote(own);
  if (short) notes.push(short);
  return notes;
}

/** Suite.report for IF-RAG. */
export function ifragReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: IfRagParams, suiteId: string): IfRagSuiteReport {
  const { entries, orphans } = joinEntries(cases, results);
  // Sorted, so a table's rows do not depend on which model finished first.
  const models = modelsOf(entries);
  const own = suiteCases(cases, suiteId);
  const tables = [accuracyTable(entries, models, params), overRefusalTable(entries, models, params)];
  if (params.instruction === 'B') tables.push(citationTable(entries, models));
  const notes = notesFor(own, params);
  const errors = entries.filter((e) => e.result.status !== 'success').length;
  if (errors > 0) notes.push(`${errors} result(s) ended in a model error: shown as undetermined, not as wrong.`);
  if (orphans > 0) notes.push(`${orphans} result(s) had no matching case and were left out.`);
  const datasets = [...new Set(own.map((c) => c.row.file))].sort();
  return {
    suiteId,
    method: IFRAG_METHOD,
    tables,
    metrics: metricsFor(entries, models, params, suiteId),
    notes,
    ifrag: { instruction: params.instruction, datasets, kinds: params.kinds, normalise: params.normalise, idFormat: params.idFormat },
  };
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
    const models = [...new Set(group.flatMap((r) => [...(cells.get(r)?.keys() ?? [])]))].sort();
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
