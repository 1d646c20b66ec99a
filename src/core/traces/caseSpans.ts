// One case on one model as an OpenInference trace, made with the OpenTelemetry SDK's tracer: a CHAIN span for the
// case (question in, response out, its scores as OpenInference evaluations and as span events), a RETRIEVER span with
// the documents the model saw (their roles as document metadata), the LLM span as sent (messages, response, tokens,
// template variables), and one EVALUATOR span per score. Attribute names come from the conventions package
// (Arize-ai/openinference spec/semantic_conventions.md; lists flattened with their index).
import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { CaseResult, EvalCase, Score } from '../model.js';
import { outcomeOf } from '../model.js';
import { OpenInferenceSpanKind, SC, SPAN_KIND, listKey } from './conventions.js';

export interface CaseEntry {
  evalCase: EvalCase;
  result: CaseResult;
}

export interface RunIdentity {
  runId: string;
  name: string;
}

/** Starts and ends the spans of one case; they reach the tracer's span processors as each ends. */
export function emitCaseTrace(tracer: Tracer, run: RunIdentity, { evalCase, result }: CaseEntry): void {
  const start = dateOr(result.startedAt, new Date());
  const finish = dateOr(result.finishedAt, start);
  const response = result.response;
  const llmEnd = response && !response.given ? new Date(Math.min(finish.getTime(), start.getTime() + Math.max(0, response.latencyMs))) : start;

  const root = tracer.startSpan(evalCase.id, { startTime: start, attributes: caseAttributes(run, evalCase, result) });
  const inCase = trace.setSpan(context.active(), root);
  child(tracer, inCase, 'retrieve', start, start, retrieverAttributes(evalCase));
  if (response && !response.given) child(tracer, inCase, result.modelKey, start, llmEnd, llmAttributes(evalCase, result));
  for (const score of result.scores) child(tracer, inCase, `evaluate ${score.metric}`, llmEnd, finish, evaluatorAttributes(score, response?.text));
  result.scores.forEach((score) => {
    if (score.value !== null) root.addEvent('evaluation', evaluationAttributes(score, ''), llmEnd);
  });
  if (result.status === 'error') root.setStatus({ code: SpanStatusCode.ERROR, message: result.error ? `${result.error.stage}: ${result.error.message}` : 'error' });
  else root.setStatus({ code: SpanStatusCode.OK });
  root.end(finish);
}

function child(tracer: Tracer, parent: Context, name: string, start: Date, end: Date, attributes: Attributes): Span {
  const span = tracer.startSpan(name, { startTime: start, attributes }, parent);
  span.end(end);
  return span;
}

function caseAttributes(run: RunIdentity, evalCase: EvalCase, result: CaseResult): Attributes {
  const attributes: Attributes = {
    [SPAN_KIND]: OpenInferenceSpanKind.CHAIN,
    [SC.INPUT_VALUE]: evalCase.question,
    // A run is a session: Phoenix and Langfuse group its cases together.
    [SC.SESSION_ID]: run.runId,
    [SC.TAG_TAGS]: [evalCase.suiteId, evalCase.method, outcomeOf(result)],
    [SC.METADATA]: JSON.stringify({
      run_id: run.runId,
      eval: run.name,
      case_id: evalCase.id,
      suite_id: evalCase.suiteId,
      method: evalCase.method,
      ...(evalCase.testbed ? { testbed: evalCase.testbed } : {}),
      model: result.modelKey,
      outcome: outcomeOf(result),
      row: `${evalCase.row.file}:${evalCase.row.line}`,
      ...(result.response?.given ? { given_response: true } : {}),
      ...(result.error ? { error: result.error } : {}),
    }),
  };
  if (result.response) attributes[SC.OUTPUT_VALUE] = result.response.text;
  const scored = result.scores.filter((s) => s.value !== null);
  scored.forEach((score, i) => Object.assign(attributes, evaluationAttributes(score, `${SC.EVALUATIONS}.${i}.`)));
  return attributes;
}

/** OpenInference's feedback attributes (evaluation.name, .score, .label, .explanation, .annotator_kind) under `prefix`. */
function evaluationAttributes(score: Score, prefix: string): Attributes {
  const attributes: Attributes = {
    [`${prefix}${SC.EVALUATION_NAME}`]: score.metric,
    // A judged metric came from a model; the rest (RGB's match, Needle's overlap) from code.
    [`${prefix}${SC.EVALUATION_ANNOTATOR_KIND}`]: score.judgeError !== undefined || score.explanation !== undefined ? 'LLM' : 'CODE',
  };
  if (score.value !== null) attributes[`${prefix}${SC.EVALUATION_SCORE}`] = score.value;
  const label = score.label ?? (score.pass === undefined ? undefined : score.pass ? 'pass' : 'fail');
  if (label !== undefined) attributes[`${prefix}${SC.EVALUATION_LABEL}`] = label;
  const explanation = score.judgeError ?? score.explanation;
  if (explanation !== undefined) attributes[`${prefix}${SC.EVALUATION_EXPLANATION}`] = explanation;
  return attributes;
}

function retrieverAttributes(evalCase: EvalCase): Attributes {
  const attributes: Attributes = { [SPAN_KIND]: OpenInferenceSpanKind.RETRIEVER, [SC.INPUT_VALUE]: evalCase.question };
  evalCase.documents.forEach((doc, i) => {
    attributes[listKey(SC.RETRIEVAL_DOCUMENTS, i, SC.DOCUMENT_ID)] = doc.id;
    attributes[listKey(SC.RETRIEVAL_DOCUMENTS, i, SC.DOCUMENT_CONTENT)] = doc.text;
    attributes[listKey(SC.RETRIEVAL_DOCUMENTS, i, SC.DOCUMENT_METADATA)] = JSON.stringify({ role: doc.role, ...(doc.source ? { source: doc.source } : {}) });
  });
  return attributes;
}

function llmAttributes(evalCase: EvalCase, result: CaseResult): Attributes {
  const response = result.response!;
  const colon = result.modelKey.indexOf(':');
  const attributes: Attributes = {
    [SPAN_KIND]: OpenInferenceSpanKind.LLM,
    [SC.LLM_MODEL_NAME]: colon > 0 ? result.modelKey.slice(colon + 1) : result.modelKey,
    [SC.LLM_PROVIDER]: colon > 0 ? result.modelKey.slice(0, colon) : '',
    [SC.INPUT_VALUE]: JSON.stringify({ messages: evalCase.messages }),
    [SC.INPUT_MIME_TYPE]: 'application/json',
    [SC.OUTPUT_VALUE]: response.text,
    [listKey(SC.LLM_OUTPUT_MESSAGES, 0, SC.MESSAGE_ROLE)]: 'assistant',
    [listKey(SC.LLM_OUTPUT_MESSAGES, 0, SC.MESSAGE_CONTENT)]: response.text,
    [SC.LLM_TOKEN_COUNT_PROMPT]: response.usage.inputTokens,
    [SC.LLM_TOKEN_COUNT_COMPLETION]: response.usage.outputTokens,
    [SC.LLM_TOKEN_COUNT_TOTAL]: response.usage.inputTokens + response.usage.outputTokens,
    [SC.PROMPT_TEMPLATE_VARIABLES]: JSON.stringify(evalCase.variables),
  };
  evalCase.messages.forEach((message, i) => {
    attributes[listKey(SC.LLM_INPUT_MESSAGES, i, SC.MESSAGE_ROLE)] = message.role;
    attributes[listKey(SC.LLM_INPUT_MESSAGES, i, SC.MESSAGE_CONTENT)] = message.content;
  });
  if (response.finishReason) attributes[SC.LLM_FINISH_REASON] = response.finishReason;
  if (response.costUsd !== undefined) attributes[SC.LLM_COST_TOTAL] = response.costUsd;
  return attributes;
}

function evaluatorAttributes(score: Score, responseText: string | undefined): Attributes {
  return {
    [SPAN_KIND]: OpenInferenceSpanKind.EVALUATOR,
    ...(responseText === undefined ? {} : { [SC.INPUT_VALUE]: responseText }),
    [SC.OUTPUT_VALUE]: JSON.stringify({ score: score.value, ...(score.pass === undefined ? {} : { pass: score.pass }), ...(score.label ? { label: score.label } : {}) }),
    [SC.OUTPUT_MIME_TYPE]: 'application/json',
    ...evaluationAttributes(score, ''),
  };
}

function dateOr(text: string | undefined, fallback: Date): Date {
  const ms = text ? Date.parse(text) : NaN;
  return Number.isNaN(ms) ? fallback : new Date(ms);
}
