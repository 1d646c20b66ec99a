// The CSV report: one row per case and model, one column per metric, for spreadsheets; streamed row by row.
import { stringify } from 'csv-stringify/sync';
import { isTruncated } from '../model.js';
import { failureMessage } from './runData.js';
import type { RunData } from './runData.js';
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

/** Two passes over the cases: the metric columns first (every metric any case has), then one row at a time. */
export async function writeCsvReport(run: RunData, sink: TextSink): Promise<void> {
  const seen = new Set<string>();
  for await (const { result } of run.entries()) for (const score of result.scores) seen.add(score.metric);
  const metrics = [...seen].sort();
  const header = ['suite', 'case_id', 'model', 'testbed', 'dataset_file', 'dataset_line', 'status', 'pass', ...metrics, 'message', 'question', 'response', 'input_tokens', 'output_tokens', 'latency_ms', 'cost_usd', 'cached', 'finish_reason', 'truncated'];
  await sink.write(stringify([header]));
  for await (const { evalCase, result } of run.entries()) {
    const byMetric = new Map(result.scores.map((s) => [s.metric, s]));
    await sink.write(stringify([[
      evalCase?.suiteId ?? '',
      result.caseId,
      result.modelKey,
      evalCase?.testbed ?? '',
      evalCase?.row.file ?? '',
      evalCase?.row.line ?? '',
      result.status,
      booleanCell(result.pass),
      ...metrics.map((m) => {
        const score = byMetric.get(m);
        if (!score) return '';
        if (score.judgeError) return 'judge_error';
        return score.value === null ? 'undetermined' : String(score.value);
      }),
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
    ]]));
  }
}
