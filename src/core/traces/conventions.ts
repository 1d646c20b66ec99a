// The OpenInference attribute names this folder reads and writes, taken from the conventions package rather than
// typed by hand (Arize-ai/openinference, spec/semantic_conventions.md; npm @arizeai/openinference-semantic-conventions).
// Lists are flattened with their index in the key: `retrieval.documents.0.document.content`,
// `llm.input_messages.1.message.role` — the "flattened attributes" rule of the same spec.
import { OpenInferenceSpanKind, SemanticConventions } from '@arizeai/openinference-semantic-conventions';

export { OpenInferenceSpanKind, SemanticConventions as SC };

/** `retrieval.documents.{i}.document.content` and the like: a list attribute's item field. */
export function listKey(list: string, index: number, field: string): string {
  return `${list}.${index}.${field}`;
}

export const SPAN_KIND = SemanticConventions.OPENINFERENCE_SPAN_KIND;
