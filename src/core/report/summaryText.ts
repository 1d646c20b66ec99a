// Renders suite tables, thresholds and totals as aligned plain text for the terminal and CI logs.
import type { ReportCell, ReportTable, SuiteReport } from '../suites/contract.js';
import type { RunTotals, ThresholdOutcome, InputProblem } from '../model.js';
import type { ErrorCause } from '../errorCauses.js';
import { formatCellNumber } from '../numberFormat.js';

export function formatCell(cell: ReportCell): string {
  // A rate over no cases is no number: "—", never "0 [0, 1] n=0".
  if (cell.value === null || (typeof cell.value === 'number' && cell.n === 0)) return cell.undetermined ? `— (${cell.undetermined} undetermined)` : '—';
  if (typeof cell.value === 'string') return cell.value;
  let text = formatNumber(cell.value);
  if (cell.low !== undefined && cell.high !== undefined) text += ` [${formatNumber(cell.low)}, ${formatNumber(cell.high)}]`;
  if (cell.n !== undefined) text += ` n=${cell.n}`;
  if (cell.undetermined) text += ` (+${cell.undetermined} undetermined)`;
  if (cell.unmatched) text += ` (${cell.unmatched} matched neither verdict)`;
  return text;
}

const formatNumber = formatCellNumber;

/** Display width: CJK characters take two terminal columns. */
function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u.test(char) ? 2 : 1;
  return width;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

export function formatTable(table: ReportTable): string {
  const header = ['', ...table.columns];
  const body = table.rows.map((row) => [row.label, ...row.cells.map(formatCell)]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((r) => displayWidth(r[i] ?? ''))));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i] ?? 0)).join('  ').trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  const notes = (table.notes ?? []).map((n) => `  note: ${n}`);
  return [table.title, line(header), rule, ...body.map(line), ...notes].join('\n');
}

export function formatReports(reports: readonly SuiteReport[]): string {
  return reports.map((report) => [
    `== ${report.suiteId} (${report.method}${report.scoring ? `; scoring: ${report.scoring}` : ''}) ==`,
    ...report.tables.map(formatTable),
    ...report.notes.map((n) => `note: ${n}`),
  ].join('\n\n')).join('\n\n');
}

export function formatThresholds(outcomes: readonly ThresholdOutcome[]): string {
  if (outcomes.length === 0) return '';
  const lines = outcomes.map((t) => {
    const bounds = [t.min !== undefined ? `>= ${t.min}` : '', t.max !== undefined ? `<= ${t.max}` : ''].filter(Boolean).join(' and ');
    const value = t.value === null ? 'undetermined' : formatNumber(t.value);
    const counts = t.n === undefined ? '' : ` n = ${t.n}${t.undetermined !== undefined ? `, ${t.undetermined} undetermined` : ''};`;
    return `  ${t.passed ? 'PASS' : 'FAIL'}  ${t.suiteId}.${t.metric} [${t.modelKey}] = ${value} (${counts}${counts ? ' ' : ''}required ${bounds})`;
  });
  return ['Thresholds:', ...lines].join('\n');
}

export function formatTotals(totals: RunTotals): string {
  const cost = totals.costUsd === undefined ? 'cost unknown (a model has no price: add it under prices:)' : `$${totals.costUsd.toFixed(4)}`;
  const cut = totals.truncated ? ` · ${totals.truncated} answer${totals.truncated === 1 ? '' : 's'} cut at the token limit (finish reason "length"; raise maxTokens, or truncated: error to fail them)` : '';
  return `Cases: ${totals.cases} (${totals.passed} passed, ${totals.failed} failed, ${totals.error} errors)${cut} · model calls: ${totals.modelCalls}, cache hits: ${totals.cacheHits}, judge calls: ${totals.judgeCalls} · tokens in/out: ${totals.inputTokens}/${totals.outputTokens}${failedAttemptsText(totals)} · ${cost}`;
}

/** Tokens servers reported for attempts that failed: paid for, kept apart from the answers' tokens and cost. */
function failedAttemptsText(totals: RunTotals): string {
  const spent = totals.failedAttempts;
  if (!spent) return '';
  const cost = spent.costUsd === undefined ? '' : ` ($${spent.costUsd.toFixed(4)})`;
  return ` + ${spent.inputTokens} in / ${spent.outputTokens} out spent on failed attempts${cost}`;
}

export function formatProblem(problem: InputProblem): string {
  const where = [problem.file, problem.line, problem.column].filter((p) => p !== undefined).join(':');
  return `${where}: ${problem.message}${problem.hint ? ` — ${problem.hint}` : ''}`;
}

/** The grouped causes of errored cases: count, cause, the first case it hit, and the fix when known. */
export function formatCauses(causes: readonly ErrorCause[]): string {
  const caseCauses = causes.filter((c) => !c.judge);
  const judgeCauses = causes.filter((c) => c.judge);
  return [
    ...(caseCauses.length ? [causeSection(caseCauses, 'Errors', 'case')] : []),
    ...(judgeCauses.length ? [causeSection(judgeCauses, 'Judge errors', 'score')] : []),
  ].join('\n\n');
}

function causeSection(causes: readonly ErrorCause[], title: string, unit: string): string {
  const total = causes.reduce((sum, c) => sum + c.count, 0);
  const lines = causes.flatMap((c) => [
    `  ${String(c.count).padStart(5)}  ${c.cause}`,
    `         first: ${c.firstCaseId} on ${c.firstModelKey}`,
    ...(c.fix ? [`         fix: ${c.fix}`] : []),
  ]);
  return [`${title} (${total} ${unit}${total === 1 ? '' : 's'}, ${causes.length} cause${causes.length === 1 ? '' : 's'}):`, ...lines].join('\n');
}
