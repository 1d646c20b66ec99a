// Phoenix span exports: the REST API's span objects (GET /v1/projects/{project}/spans answers { data: [span] }, each
// { name, context: { trace_id, span_id }, span_kind, parent_id, start_time, end_time, attributes, events }) and the
// rows of `px.Client().get_spans_dataframe()` written with DataFrame.to_json(orient="records"), whose columns are
// dotted: `context.trace_id`, `span_kind`, `attributes.retrieval.documents`… Attributes use the OpenInference names
// either way, nested or dotted, so they are flattened into the importer's one shape.
import { SPAN_KIND } from './conventions.js';
import { scoresFromAttributes, scoresFromEvents } from './scores.js';
import { flattenAttributes, isoToMs, isPlainObject } from './span.js';
import type { AttributeValue, SpanSource, TraceSpan } from './span.js';

export function isPhoenixSpan(record: Record<string, unknown>): boolean {
  return (isPlainObject(record.context) && 'span_id' in record.context && 'trace_id' in record.context) || 'context.span_id' in record;
}

/** The span, or why it cannot be read. */
export function decodePhoenixSpan(record: Record<string, unknown>, source: SpanSource): TraceSpan | string {
  const dotted = 'context.span_id' in record;
  const context = dotted ? { trace_id: record['context.trace_id'], span_id: record['context.span_id'] } : (record.context as Record<string, unknown>);
  const traceId = idText(context.trace_id);
  const spanId = idText(context.span_id);
  if (!traceId || !spanId) return 'Phoenix span without context.trace_id and context.span_id';
  const attributes = dotted ? flattenAttributes(attributeColumns(record)) : flattenAttributes(isPlainObject(record.attributes) ? record.attributes : {});
  const kind = typeof record.span_kind === 'string' ? record.span_kind : attributes[SPAN_KIND];
  const parent = idText(record.parent_id);
  const events = Array.isArray(record.events) ? record.events.filter(isPlainObject) : [];
  return {
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name: typeof record.name === 'string' ? record.name : '',
    ...(typeof kind === 'string' && kind !== 'UNKNOWN' ? { kind: kind.toUpperCase() } : {}),
    startMs: timeMs(record.start_time),
    endMs: timeMs(record.end_time),
    attributes,
    scores: {
      ...scoresFromAttributes(attributes),
      ...scoresFromEvents(events.map((e) => ({ name: e.name, attributes: flattenAttributes(isPlainObject(e.attributes) ? e.attributes : {}) }))),
    },
    source,
  };
}

/** `attributes.input.value` → `input.value`; the dataframe's other columns (context, timing) are not attributes. */
function attributeColumns(record: Record<string, unknown>): Record<string, AttributeValue> {
  const columns: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key.startsWith('attributes.') && value !== null) columns[key.slice('attributes.'.length)] = value as AttributeValue;
  }
  return columns;
}

function idText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value.toLowerCase() : undefined;
}

/** ISO text (the REST API, to_json(date_format="iso")) or epoch milliseconds (to_json's default). */
function timeMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return isoToMs(value);
}
