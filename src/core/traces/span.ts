// One span as the importer sees it, whatever file format it came from: ids in lower-case hex, times in Unix
// milliseconds, attributes flat under their dotted OpenInference names, and the file line it was read at.

/** An attribute value after decoding: OTLP AnyValue, or a plain JSON value from the Phoenix and Langfuse exports. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

export interface SpanSource {
  file: string;
  /** 1-based line where the span (or the record holding it) starts. */
  line: number;
}

export interface TraceSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** `openinference.span.kind` in upper case (LLM, RETRIEVER, CHAIN…); undefined when the span has none. */
  kind?: string;
  startMs?: number;
  endMs?: number;
  attributes: Record<string, AttributeValue>;
  /**
   * OTLP only: the attributes of the resource that emitted the span (service.name, deployment.environment) and of its
   * instrumentation scope, with the scope's name and version as `otel.scope.name` / `otel.scope.version`.
   */
  resourceAttributes?: Record<string, AttributeValue>;
  scopeAttributes?: Record<string, AttributeValue>;
  /** Scores found on the span (OpenInference evaluations/annotations, span events, Langfuse scores), by name. */
  scores: Record<string, number>;
  source: SpanSource;
}

/**
 * Nested objects become dotted keys and lists of objects get their index in the key, so `{ retrieval: { documents:
 * [{ document: { content } }] } }` and the flat `retrieval.documents.0.document.content` read the same. Lists of plain
 * values (tag.tags) stay lists.
 */
export function flattenAttributes(value: Record<string, unknown>, prefix = '', into: Record<string, AttributeValue> = {}): Record<string, AttributeValue> {
  for (const [key, item] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(item) && item.some((entry) => isPlainObject(entry))) {
      item.forEach((entry, i) => {
        if (isPlainObject(entry)) flattenAttributes(entry, `${name}.${i}`, into);
        else into[`${name}.${i}`] = entry as AttributeValue;
      });
    } else if (isPlainObject(item)) {
      flattenAttributes(item, name, into);
    } else if (item !== undefined) {
      into[name] = item as AttributeValue;
    }
  }
  return into;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A timestamp given as an ISO date, or as Unix nanoseconds (a decimal string or number, as OTLP JSON writes them). */
export function nanosToMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value / 1e6;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(BigInt(value) / 1000n) / 1000;
  return undefined;
}

export function isoToMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  // Phoenix writes "2024-05-01T10:00:00.123456+00:00"; Date.parse takes up to milliseconds and a zone.
  const ms = Date.parse(value.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(ms) ? undefined : ms;
}
