// Trace files in, dataset rows out: reads the spans, groups them by trace, keeps the RAG interactions that pass the
// filters, and writes each as a row that the RAGAS and LLM-Eval suites read as it is (question, retrieved_contexts,
// response: src/core/suites/ragas/rows.ts and llmEval/cases.ts), with the rest of the trace kept for a link back.
import type { InputError } from '../errors.js';
import { applyFilters } from './filters.js';
import type { TraceFilters } from './filters.js';
import { groupByTrace, interactionOf } from './interactions.js';
import type { Interaction } from './interactions.js';
import { readTraceFiles } from './readTraceFiles.js';

export interface ImportOutcome {
  rows: Record<string, unknown>[];
  /** Lines and traces that could not be imported, each at its file:line. */
  problems: InputError[];
  files: string[];
  spans: number;
  traces: number;
  /** Interactions found before the filters. */
  interactions: number;
}

export async function importTraces(target: string, filters: TraceFilters): Promise<ImportOutcome> {
  const read = await readTraceFiles(target);
  const problems = [...read.problems];
  const interactions: Interaction[] = [];
  const traces = groupByTrace(read.spans);
  for (const [traceId, spans] of traces) {
    const interaction = interactionOf(traceId, spans);
    if (interaction instanceof Error) problems.push(interaction);
    else interactions.push(interaction);
  }
  interactions.sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0));
  return {
    rows: applyFilters(interactions, filters).map(toDatasetRow),
    problems,
    files: read.files,
    spans: read.spans.length,
    traces: traces.size,
    interactions: interactions.length,
  };
}

/**
 * One dataset row. `question`, `retrieved_contexts` and `response` are the columns RAGAS reads (its 0.1 name for the
 * question, which LLM-Eval reads too); `passages` keeps what the plain list drops (ids, scores, metadata), and
 * `template` / `template_variables` let a case be regenerated with the prompt the application used.
 */
export function toDatasetRow(interaction: Interaction): Record<string, unknown> {
  const row: Record<string, unknown> = {
    id: interaction.traceId,
    question: interaction.question,
    retrieved_contexts: interaction.passages.map((p) => p.content),
  };
  if (interaction.response !== undefined) row.response = interaction.response;
  row.passages = interaction.passages;
  if (interaction.template !== undefined) row.template = interaction.template;
  if (interaction.templateVariables !== undefined) row.template_variables = interaction.templateVariables;
  if (interaction.model !== undefined) row.model = interaction.model;
  if (interaction.modelParameters !== undefined) row.model_parameters = interaction.modelParameters;
  if (interaction.messages !== undefined) row.messages = interaction.messages;
  if (Object.keys(interaction.scores).length > 0) row.trace_scores = interaction.scores;
  row.trace_id = interaction.traceId;
  if (interaction.startMs !== undefined) row.started_at = new Date(interaction.startMs).toISOString();
  return row;
}

export function toJsonLines(rows: readonly Record<string, unknown>[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
}
