// One case on one model as an OpenInference trace, made with the OpenTelemetry SDK's tracer: a CHAIN span for the
// case (question in, response out, its scores as OpenInference evaluations and as span events), a RETRIEVER span with
// the documents the model saw (their roles as document metadata), the LLM span as sent (messages, response, tokens,
// template variables), and one EVALUATOR span per score. The attributes are made by the OpenInference helpers
// (@arizeai/openinference-core: getRetrieverAttributes, getLLMAttributes, getEvaluationAttributes…) so their names and
// flattening are the conventions' own (Arize-ai/openinference spec/semantic_conventions.md).
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { CaseEntry, CaseResult, EvalCase, Score } from '../model.js';
import { outcomeOf } from '../model.js';
import type { Annotation } from '@arizeai/openinference-core';
import { MimeType } from '@arizeai/openinference-semantic-conventions';
import { loadVendor } from '../vendor/load.js';
import { OpenInferenceSpanKind, SC, SPAN_KIND } from './conventions.js';

/** The OpenTelemetry API and the OpenInference helpers, loaded with the exporter (vendor/otel.ts) when an export starts. */
const otel = () => loadVendor('otel');

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
  const { SpanStatusCode, context, trace } = otel();
  const inCase = trace.setSpan(context.active(), root);
  child(tracer, inCase, 'retrieve', start, start, retrieverAttributes(evalCase));
  if (response && !response.given) child(tracer, inCase, result.modelKey, start, llmEnd, llmAttributes(evalCase, result));
  for (const score of result.scores) child(tracer, inCase, `evaluate ${score.metric}`, llmEnd, finish, evaluatorAttributes(score, response?.text));
  result.scores.forEach((score) => {
    if (score.value !== null) root.addEvent('evaluation', evaluationAttributes(score), llmEnd);
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
  const scored = result.scores.filter((s) => s.value !== null);
  return {
    [SPAN_KIND]: OpenInferenceSpanKind.CHAIN,
    ...otel().getInputAttributes(evalCase.question),
    ...(result.response ? otel().getOutputAttributes(result.response.text) : {}),
    // A run is a session: Phoenix and Langfuse group its cases together.
    [SC.SESSION_ID]: run.runId,
    [SC.TAG_TAGS]: [evalCase.suiteId, evalCase.method, outcomeOf(result)],
    ...otel().getMetadataAttributes({
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
    ...(scored.length ? otel().getEvaluationAttributes({ evaluations: scored.map(toEvaluation) }) : {}),
  };
}

/** A score as an OpenInference evaluation (name, score, label, explanation, annotator kind). */
function toEvaluation(score: Score): Annotation {
  const label = score.label ?? (score.pass === undefined ? undefined : score.pass ? 'pass' : 'fail');
  const explanation = score.judgeError ?? score.explanation;
  return {
    name: score.metric,
    // A judged metric came from a model; the rest (RGB's match, Needle's overlap) from code.
    annotatorKind: score.judgeError !== undefined || score.explanation !== undefined ? 'LLM' : 'CODE',
    ...(score.value === null ? {} : { score: score.value }),
    ...(label === undefined ? {} : { label }),
    ...(explanation === undefined ? {} : { explanation }),
    // A score with neither value, label nor explanation still says the metric had nothing to judge.
    ...(score.value === null && label === undefined && explanation === undefined ? { label: 'not scored' } : {}),
  } as Annotation;
}

/** The same evaluation without the list index, for a span event or an EVALUATOR span of its own. */
function evaluationAttributes(score: Score): Attributes {
  const flat: Attributes = {};
  for (const [key, value] of Object.entries(otel().getEvaluationAttributes({ evaluations: [toEvaluation(score)] }))) {
    flat[key.slice(`${SC.EVALUATIONS}.0.`.length)] = value;
  }
  return flat;
}

function retrieverAttributes(evalCase: EvalCase): Attributes {
  return {
    [SPAN_KIND]: OpenInferenceSpanKind.RETRIEVER,
    ...otel().getInputAttributes(evalCase.question),
    ...otel().getRetrieverAttributes({
      // A passage imported from traces goes back with the retriever's own id, score and metadata.
      documents: evalCase.documents.map((doc) => ({
        id: doc.retrieved?.id ?? doc.id,
        content: doc.text,
        ...(doc.retrieved?.score === undefined ? {} : { score: doc.retrieved.score }),
        metadata: { ...(doc.source ? { source: doc.source } : {}), ...doc.retrieved?.metadata, role: doc.role },
      })),
    }),
  };
}

function llmAttributes(evalCase: EvalCase, result: CaseResult): Attributes {
  const response = result.response!;
  const colon = result.modelKey.indexOf(':');
  return {
    [SPAN_KIND]: OpenInferenceSpanKind.LLM,
    ...otel().getLLMAttributes({
      ...(colon > 0 ? { provider: result.modelKey.slice(0, colon) } : {}),
      modelName: colon > 0 ? result.modelKey.slice(colon + 1) : result.modelKey,
      inputMessages: evalCase.messages.map((m) => ({ role: m.role, content: m.content })),
      outputMessages: [{ role: 'assistant', content: response.text }],
      tokenCount: { prompt: response.usage.inputTokens, completion: response.usage.outputTokens, total: response.usage.inputTokens + response.usage.outputTokens },
    }),
    ...otel().getInputAttributes({ value: JSON.stringify({ messages: evalCase.messages }), mimeType: MimeType.JSON }),
    ...otel().getOutputAttributes(response.text),
    [SC.PROMPT_TEMPLATE_VARIABLES]: JSON.stringify(evalCase.variables),
    ...(response.finishReason ? { [SC.LLM_FINISH_REASON]: response.finishReason } : {}),
    ...(response.costUsd === undefined ? {} : { [SC.LLM_COST_TOTAL]: response.costUsd }),
  };
}

function evaluatorAttributes(score: Score, responseText: string | undefined): Attributes {
  return {
    [SPAN_KIND]: OpenInferenceSpanKind.EVALUATOR,
    ...(responseText === undefined ? {} : otel().getInputAttributes(responseText)),
    ...otel().getOutputAttributes({ value: JSON.stringify({ score: score.value, ...(score.pass === undefined ? {} : { pass: score.pass }), ...(score.label ? { label: score.label } : {}) }), mimeType: MimeType.JSON }),
    ...evaluationAttributes(score),
  };
}

function dateOr(text: string | undefined, fallback: Date): Date {
  const ms = text ? Date.parse(text) : NaN;
  return Number.isNaN(ms) ? fallback : new Date(ms);
}
