// Langfuse exports: observations as the public API returns them (GET /api/public/observations answers { data: [...] },
// each { id, traceId, type, name, startTime, endTime, parentObservationId, model, modelParameters, input, output,
// usage | usageDetails, metadata }) and traces with their observations and scores (GET /api/public/traces/{id}).
// Langfuse has its own field names, so each observation is turned into the OpenInference attributes the importer
// reads: a GENERATION becomes an LLM span, a RETRIEVER observation a RETRIEVER span with retrieval.documents.
// Observations ingested over OpenTelemetry keep their span attributes in metadata.attributes; those are used as they are.
import { OpenInferenceSpanKind, SC, SPAN_KIND, listKey } from './conventions.js';
import { numeric } from './scores.js';
import { flattenAttributes, isoToMs, isPlainObject } from './span.js';
import type { AttributeValue, SpanSource, TraceSpan } from './span.js';

export function isLangfuseObservation(record: Record<string, unknown>): boolean {
  return typeof record.id === 'string' && typeof record.traceId === 'string' && typeof record.type === 'string';
}

export function isLangfuseTrace(record: Record<string, unknown>): boolean {
  return typeof record.id === 'string' && Array.isArray(record.observations);
}

/** A trace with its observations: the trace itself is the root (a CHAIN span) and carries the trace's scores. */
export function decodeLangfuseTrace(record: Record<string, unknown>, source: SpanSource): (TraceSpan | string)[] {
  const traceId = record.id as string;
  const root: TraceSpan = {
    traceId,
    spanId: traceId,
    name: typeof record.name === 'string' ? record.name : 'trace',
    kind: OpenInferenceSpanKind.CHAIN,
    startMs: isoToMs(record.timestamp),
    attributes: { [SPAN_KIND]: OpenInferenceSpanKind.CHAIN, ...ioAttributes(record.input, record.output) },
    scores: scoreList(record.scores),
    source,
  };
  const observations = (record.observations as unknown[]).filter(isPlainObject).map((o) => decodeLangfuseObservation({ traceId, ...o, parentObservationId: o.parentObservationId ?? traceId }, source));
  return [root, ...observations];
}

export function decodeLangfuseObservation(record: Record<string, unknown>, source: SpanSource): TraceSpan | string {
  if (typeof record.id !== 'string' || typeof record.traceId !== 'string') return 'Langfuse observation without id and traceId';
  const type = String(record.type).toUpperCase();
  const metadata = isPlainObject(record.metadata) ? record.metadata : {};
  const otelAttributes = isPlainObject(metadata.attributes) ? flattenAttributes(metadata.attributes) : {};
  const kind = kindOf(type, otelAttributes[SPAN_KIND]);
  const attributes: Record<string, AttributeValue> = {
    ...(kind === OpenInferenceSpanKind.LLM ? generationAttributes(record) : {}),
    ...(kind === OpenInferenceSpanKind.RETRIEVER ? retrieverAttributes(record) : {}),
    ...(kind !== OpenInferenceSpanKind.LLM && kind !== OpenInferenceSpanKind.RETRIEVER ? ioAttributes(record.input, record.output) : {}),
    ...otelAttributes,
    ...(kind ? { [SPAN_KIND]: kind } : {}),
  };
  const parent = record.parentObservationId;
  return {
    traceId: record.traceId,
    spanId: record.id,
    ...(typeof parent === 'string' && parent !== '' ? { parentSpanId: parent } : {}),
    name: typeof record.name === 'string' ? record.name : type.toLowerCase(),
    ...(kind ? { kind } : {}),
    startMs: isoToMs(record.startTime),
    endMs: isoToMs(record.endTime),
    attributes,
    scores: scoreList(record.scores),
    source,
  };
}

/** Langfuse's observation types since v3 include the OpenInference kinds; GENERATION is its LLM call, SPAN a step. */
function kindOf(type: string, otelKind: AttributeValue | undefined): string | undefined {
  if (typeof otelKind === 'string') return otelKind.toUpperCase();
  if (type === 'GENERATION') return OpenInferenceSpanKind.LLM;
  if (type === 'SPAN') return OpenInferenceSpanKind.CHAIN;
  return (Object.values(OpenInferenceSpanKind) as string[]).includes(type) ? type : undefined;
}

function generationAttributes(record: Record<string, unknown>): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  if (typeof record.model === 'string') attributes[SC.LLM_MODEL_NAME] = record.model;
  if (isPlainObject(record.modelParameters)) attributes[SC.LLM_INVOCATION_PARAMETERS] = JSON.stringify(record.modelParameters);
  const messages = Array.isArray(record.input) ? record.input : isPlainObject(record.input) && Array.isArray(record.input.messages) ? record.input.messages : undefined;
  if (messages) {
    messages.filter(isPlainObject).forEach((message, i) => {
      if (typeof message.role === 'string') attributes[listKey(SC.LLM_INPUT_MESSAGES, i, SC.MESSAGE_ROLE)] = message.role;
      attributes[listKey(SC.LLM_INPUT_MESSAGES, i, SC.MESSAGE_CONTENT)] = textOf(message.content);
    });
  } else if (record.input !== undefined && record.input !== null) {
    attributes[SC.INPUT_VALUE] = textOf(record.input);
  }
  const output = isPlainObject(record.output) && 'content' in record.output ? record.output.content : record.output;
  if (output !== undefined && output !== null) {
    attributes[listKey(SC.LLM_OUTPUT_MESSAGES, 0, SC.MESSAGE_ROLE)] = 'assistant';
    attributes[listKey(SC.LLM_OUTPUT_MESSAGES, 0, SC.MESSAGE_CONTENT)] = textOf(output);
  }
  const usage = isPlainObject(record.usageDetails) ? record.usageDetails : isPlainObject(record.usage) ? record.usage : {};
  const prompt = numeric(usage.input ?? usage.promptTokens);
  const completion = numeric(usage.output ?? usage.completionTokens);
  if (prompt !== undefined) attributes[SC.LLM_TOKEN_COUNT_PROMPT] = prompt;
  if (completion !== undefined) attributes[SC.LLM_TOKEN_COUNT_COMPLETION] = completion;
  return attributes;
}

/** Retrieved documents as LangChain and LlamaIndex hand them to Langfuse: strings or { pageContent | content | text, id, score, metadata }. */
function retrieverAttributes(record: Record<string, unknown>): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = { ...ioAttributes(record.input, undefined) };
  const output = isPlainObject(record.output) && Array.isArray(record.output.documents) ? record.output.documents : record.output;
  if (!Array.isArray(output)) return attributes;
  output.forEach((doc, i) => {
    const key = (field: string) => listKey(SC.RETRIEVAL_DOCUMENTS, i, field);
    if (typeof doc === 'string') {
      attributes[key(SC.DOCUMENT_CONTENT)] = doc;
      return;
    }
    if (!isPlainObject(doc)) return;
    const content = doc.pageContent ?? doc.page_content ?? doc.content ?? doc.text;
    if (content !== undefined) attributes[key(SC.DOCUMENT_CONTENT)] = textOf(content);
    if (doc.id !== undefined && doc.id !== null) attributes[key(SC.DOCUMENT_ID)] = String(doc.id);
    const score = numeric(doc.score);
    if (score !== undefined) attributes[key(SC.DOCUMENT_SCORE)] = score;
    if (doc.metadata !== undefined) attributes[key(SC.DOCUMENT_METADATA)] = JSON.stringify(doc.metadata);
  });
  return attributes;
}

function ioAttributes(input: unknown, output: unknown): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  if (input !== undefined && input !== null) attributes[SC.INPUT_VALUE] = textOf(input);
  if (output !== undefined && output !== null) attributes[SC.OUTPUT_VALUE] = textOf(output);
  return attributes;
}

function scoreList(value: unknown): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const score of Array.isArray(value) ? value.filter(isPlainObject) : []) {
    const number = numeric(score.value);
    if (typeof score.name === 'string' && number !== undefined) scores[score.name] = number;
  }
  return scores;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
