// The shape of a row import-traces writes, as the tests read it (src/core/traces/importTraces.ts, toDatasetRow).
export interface ImportedRow {
  id: string;
  question: string;
  retrieved_contexts: string[];
  response: string;
  passages: { id: string; content: string; score: number; metadata: Record<string, unknown> }[];
  template: string;
  template_variables: Record<string, unknown>;
  model: string;
  model_parameters: Record<string, unknown>;
  messages: { role: string; content: string }[];
  trace_scores: Record<string, number>;
  trace_id: string;
  started_at: string;
}

export const asRows = (rows: Record<string, unknown>[]): ImportedRow[] => rows as unknown as ImportedRow[];
