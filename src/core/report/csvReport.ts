// The CSV report: one row per case and model, one column per metric, for spreadsheets; streamed row by row.
import { stringify } from 'csv-stringify/sync';
import { isTruncated } from '../model.js';
import { failureMessage } from './runData.js';
import type { RunData } from './runData.js';
import { spoolsIn, writeInOnePass } from './reportPass.js';
import type { ReportWriter, SpoolFactory } from './reportPass.js';
import { renderToString } from './textSink.js';
import type { TextSink } from './textSink.js';

/** Spreadsheets run cells that start like a formula; model output is untrusted, so such cells get a leading quote. */
export function defuseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A yes/no cell: true, false, or empty when unknown (never 1/0, never an empty false). */
export function booleanCell(value: boolean | null | undefined): string {
  return value === undefined || value === null ? '' : String(value);
}

export function renderCsvReport(run: RunData): Promise<string> {
  return renderToString((sink) => writeCsvReport(run, sink));
}

export function writeCsvReport(run: RunData, sink: TextSink, spool: SpoolFactory = spoolsIn()): Promise<void> {
  return writeInOnePass(run, [csvReportWriter(sink, spool)]);
}

/**
 * The CSV report in one pass (reportPass.ts): the metric columns (every metric any case has) come first, so each row is
 * spooled as its cells before and after them and its metrics' cells, and written out once the columns are known.
 */
export function csvReportWriter(sink: TextSink, newSpool: SpoolFactory): ReportWriter {
  const seen = new Set<string>();
  const rows = newSpool();
  return {
    async add({ evalCase, result }) {
      const cells = Object.create(null) as Record<string, string>;
      for (const score of result.scores) {
        seen.add(score.metric);
        cells[score.metric] = score.judgeError ? 'judge_error' : score.value === null ? 'undetermined' : String(score.value);
      }
      const before = [
        evalCase?.suiteId ?? '',
        result.caseId,
        result.modelKey,
        evalCase?.testbed ?? '',
        evalCase?.row.file ?? '',
        evalCase?.row.line ?? '',
        result.status,
        booleanCell(result.pass),
      ];
      const after = [
        defuseFormula(result.pass === true ? '' : failureMessage(result)),
        defuseFormula(evalCase?.question ?? ''),
        defuseFormula(result.response?.text ?? ''),
        result.response?.usage.inputTokens ?? '',
        result.response?.usage.outputTokens ?? '',
        result.response?.latencyMs ?? '',
        result.response?.costUsd ?? '',
        booleanCell(result.response?.cached),
        result.response?.finishReason ?? '',
        booleanCell(result.response ? isTruncated(result.response) : undefined),
      ];
      // One spooled line per row: JSON never holds a raw newline, whatever the cells hold.
      await rows.write(`${JSON.stringify([csvCells(before), cells, csvCells(after)])}\n`);
    },
    async finish() {
      const metrics = [...seen].sort();
      const header = ['suite', 'case_id', 'model', 'testbed', 'dataset_file', 'dataset_line', 'status', 'pass', ...metrics, 'message', 'question', 'response', 'input_tokens', 'output_tokens', 'latency_ms', 'cost_usd', 'cached', 'finish_reason', 'truncated'];
      await sink.write(stringify([header]));
      for await (const line of rows.lines()) {
        const [before, cells, after] = JSON.parse(line) as [string, Record<string, string>, string];
        // The metric cells are numbers and words, never quoted: the row is the cells joined as csv-stringify joins them.
        await sink.write(`${[before, ...metrics.map((metric) => Object.prototype.hasOwnProperty.call(cells, metric) ? cells[metric] : ''), after].join(',')}\n`);
      }
      await rows.dispose();
    },
    dispose: () => rows.dispose(),
  };
}

/** Cells as csv-stringify writes them in a row, without the row's newline. */
function csvCells(cells: (string | number)[]): string {
  return stringify([cells]).slice(0, -1);
}
