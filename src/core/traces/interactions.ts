// Turns the spans of one trace into one RAG interaction: the question, the passages the retriever returned (in its
// order, with ids, scores and metadata), the response, the prompt template and its variables, the model and its
// parameters. Read from the OpenInference attributes (spec/semantic_conventions.md, spec/traces.md of
// Arize-ai/openinference): RETRIEVER spans carry retrieval.documents, LLM spans llm.input_messages,
// llm.output_messages, llm.prompt_template.*, llm.model_name and llm.invocation_parameters; any span input.value and
// output.value.
import { InputError } from '../errors.js';
import { OpenInferenceSpanKind, SC, listKey } from './conventions.js';
import { numeric } from './scores.js';
import { isPlainObject } from './span.js';
import type { AttributeValue, TraceSpan } from './span.js';

export interface Passage {
  id?: string;
  content: string;
  score?: number;
  metadata?: unknown;
}

export interface Interaction {
  traceId: string;
  startMs?: number;
  question: string;
  passages: Passage[];
  response?: string;
  template?: string;
  templateVariables?: Record<string, unknown>;
  model?: string;
  modelParameters?: Record<string, unknown>;
  messages?: { role: string; content: string }[];
  /** Every score recorded on the trace's spans, by name (the last span that has a name wins). */
  scores: Record<string, number>;
  spans: TraceSpan[];
}

export function groupByTrace(spans: readonly TraceSpan[]): Map<string, TraceSpan[]> {
  const traces = new Map<string, TraceSpan[]>();
  for (const span of spans) {
    const list = traces.get(span.traceId);
    if (list) list.push(span);
    else traces.set(span.traceId, [span]);
  }
  for (const list of traces.values()) list.sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0));
  return traces;
}

/** The interaction of one trace, or an InputError at its first span saying why it is not one. */
export function interactionOf(traceId: string, spans: TraceSpan[]): Interaction | InputError {
  const first = spans[0]!;
  const where = { file: first.source.file, line: first.source.line };
  const retrievers = spans.filter((s) => s.kind === OpenInferenceSpanKind.RETRIEVER);
  if (retrievers.length === 0) {
    return new InputError(where, `trace ${traceId}: no RETRIEVER span, so no retrieved passages; skipped`, 'RAG rows need what the retriever returned: record it as an OpenInference RETRIEVER span with retrieval.documents');
  }
  const llm = lastToEnd(spans.filter((s) => s.kind === OpenInferenceSpanKind.LLM));
  const root = rootOf(spans);
  const messages = llm ? messagesOf(llm, SC.LLM_INPUT_MESSAGES) : [];
  // An LLM span's input.value is the whole request (model, messages…), so a root that is the LLM call is passed over.
  const question = (root && root !== llm ? pickText(root.attributes[SC.INPUT_VALUE], QUESTION_KEYS) : undefined)
    ?? pickText(retrievers[0]!.attributes[SC.INPUT_VALUE], QUESTION_KEYS)
    ?? [...messages].reverse().find((m) => m.role === 'user')?.content;
  if (question === undefined || question.trim() === '') {
    return new InputError(where, `trace ${traceId}: no question found (input.value of the root or RETRIEVER span, or a user message); skipped`);
  }
  // The application's answer is the root's output, unless the root is itself the retriever (its output: the documents).
  const answersAtRoot = root && root !== llm && root.kind !== OpenInferenceSpanKind.RETRIEVER;
  const response = (answersAtRoot ? pickText(root.attributes[SC.OUTPUT_VALUE], ANSWER_KEYS) : undefined)
    ?? (llm ? messagesOf(llm, SC.LLM_OUTPUT_MESSAGES).find((m) => m.role !== 'user')?.content ?? pickText(llm.attributes[SC.OUTPUT_VALUE], ANSWER_KEYS) : undefined);
  const template = llm ? text(llm.attributes[SC.PROMPT_TEMPLATE_TEMPLATE]) : undefined;
  const templateVariables = llm ? jsonObject(llm.attributes[SC.PROMPT_TEMPLATE_VARIABLES]) : undefined;
  const model = llm ? text(llm.attributes[SC.LLM_MODEL_NAME]) ?? text(llm.attributes[SC.LLM_RESPONSE_MODEL_NAME]) : undefined;
  const modelParameters = llm ? jsonObject(llm.attributes[SC.LLM_INVOCATION_PARAMETERS]) : undefined;
  const startMs = Math.min(...spans.map((s) => s.startMs ?? Infinity));
  return {
    traceId,
    ...(Number.isFinite(startMs) ? { startMs } : {}),
    question,
    passages: retrievers.flatMap((span) => passagesOf(span.attributes)),
    ...(response === undefined ? {} : { response }),
    ...(template === undefined ? {} : { template }),
    ...(templateVariables === undefined ? {} : { templateVariables }),
    ...(model === undefined ? {} : { model }),
    ...(modelParameters === undefined ? {} : { modelParameters }),
    ...(messages.length ? { messages } : {}),
    scores: Object.assign({}, ...spans.map((s) => s.scores)) as Record<string, number>,
    spans,
  };
}

/** Keys an application's JSON input or output puts its question or answer under (LangChain, LlamaIndex, our exporter). */
const QUESTION_KEYS = ['question', 'query', 'input', 'user_input', 'query_str', 'prompt'];
const ANSWER_KEYS = ['answer', 'response', 'output', 'result', 'text', 'content'];

/** The root span: the one whose parent is not in the trace (a trace exported in parts may have several: earliest). */
function rootOf(spans: TraceSpan[]): TraceSpan | undefined {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.find((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
}

/** The LLM call that produced the answer: the one that ended last. */
function lastToEnd(spans: TraceSpan[]): TraceSpan | undefined {
  return spans.reduce<TraceSpan | undefined>((last, span) => (!last || (span.endMs ?? 0) >= (last.endMs ?? 0) ? span : last), undefined);
}

function passagesOf(attributes: Record<string, AttributeValue>): Passage[] {
  const passages: Passage[] = [];
  for (let i = 0; ; i++) {
    const field = (name: string) => attributes[listKey(SC.RETRIEVAL_DOCUMENTS, i, name)];
    const content = field(SC.DOCUMENT_CONTENT);
    const id = field(SC.DOCUMENT_ID);
    if (content === undefined && id === undefined) break;
    const score = numeric(field(SC.DOCUMENT_SCORE));
    const metadata = field(SC.DOCUMENT_METADATA);
    passages.push({
      ...(id === undefined || id === null ? {} : { id: String(id) }),
      content: text(content) ?? '',
      ...(score === undefined ? {} : { score }),
      // The conventions store metadata as a JSON string; a nested export may already hold the object.
      ...(metadata === undefined ? {} : { metadata: typeof metadata === 'string' ? parseOr(metadata) : metadata }),
    });
  }
  return passages;
}

function messagesOf(span: TraceSpan, list: string): { role: string; content: string }[] {
  const messages = [];
  for (let i = 0; ; i++) {
    const role = span.attributes[listKey(list, i, SC.MESSAGE_ROLE)];
    const content = span.attributes[listKey(list, i, SC.MESSAGE_CONTENT)] ?? contentsText(span, listKey(list, i, SC.MESSAGE_CONTENTS));
    if (role === undefined && content === undefined) break;
    messages.push({ role: text(role) ?? '', content: text(content) ?? '' });
  }
  return messages;
}

/** A message sent as parts (`message.contents.{j}.message_content.text`): its text parts joined. */
function contentsText(span: TraceSpan, prefix: string): string | undefined {
  const parts: string[] = [];
  for (let j = 0; ; j++) {
    const type = span.attributes[`${prefix}.${j}.${SC.MESSAGE_CONTENT_TYPE}`];
    const part = span.attributes[`${prefix}.${j}.${SC.MESSAGE_CONTENT_TEXT}`];
    if (type === undefined && part === undefined) break;
    if (typeof part === 'string') parts.push(part);
  }
  return parts.length ? parts.join('\n') : undefined;
}

/** Plain text as it is; a JSON object's first string under one of `keys`, a one-string JSON list's string; other JSON as its text. */
function pickText(value: AttributeValue | undefined, keys: readonly string[]): string | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const parsed = parseOr(raw);
  if (isPlainObject(parsed)) {
    for (const key of keys) if (typeof parsed[key] === 'string') return parsed[key];
  }
  // The OpenInference function wrappers record a call's arguments as a JSON list: one string argument is the text.
  if (Array.isArray(parsed) && parsed.length === 1 && typeof parsed[0] === 'string') return parsed[0];
  return typeof parsed === 'string' ? parsed : raw;
}

function text(value: AttributeValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function jsonObject(value: AttributeValue | undefined): Record<string, unknown> | undefined {
  if (isPlainObject(value)) return value;
  const parsed = typeof value === 'string' ? parseOr(value) : undefined;
  return isPlainObject(parsed) ? parsed : undefined;
}

function parseOr(raw: string): unknown {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[') && !trimmed.startsWith('"')) return raw;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return raw;
  }
}
