// Decodes OTLP JSON trace data: an ExportTraceServiceRequest (what OTLP/HTTP JSON carries) or a TracesData (what
// the Collector's file exporter writes, one per line); both hold `resourceSpans[].scopeSpans[].spans[]`.
// The encoding follows open-telemetry/opentelemetry-proto docs/specification.md, "JSON Protobuf Encoding": trace and
// span ids are hex strings (not base64), enums are integers, keys are lowerCamelCase, and 64-bit integers (times,
// intValue) are decimal strings — numbers are accepted too, as the spec asks of receivers.
import { SPAN_KIND } from './conventions.js';
import { flattenAttributes, isPlainObject } from './span.js';
import type { AttributeValue, TraceSpan } from './span.js';
import { scoresFromAttributes, scoresFromEvents } from './scores.js';
import { nanosToMs } from './span.js';

export interface DecodeProblem {
  line: number;
  message: string;
}

export interface Decoded {
  spans: TraceSpan[];
  problems: DecodeProblem[];
}

/** True for a document that is OTLP trace data, so the reader can tell it from the other formats. */
export function isOtlpTraces(document: unknown): boolean {
  return isPlainObject(document) && Array.isArray(document.resourceSpans);
}

/**
 * The spans of one OTLP document. `lineOf` places a span in the file (by its span id) when the document spans
 * several lines; a document read from one line passes that line.
 */
export function decodeOtlpTraces(document: Record<string, unknown>, file: string, lineOf: (spanId: string) => number): Decoded {
  const decoded: Decoded = { spans: [], problems: [] };
  for (const resourceSpans of asList(document.resourceSpans)) {
    const resourceAttributes = flattenAttributes(keyValues((resourceSpans.resource as Record<string, unknown> | undefined)?.attributes));
    // instrumentationLibrarySpans: the name before OTLP 0.15, still written by old Collector builds.
    for (const scopeSpans of [...asList(resourceSpans.scopeSpans), ...asList(resourceSpans.instrumentationLibrarySpans)]) {
      const scope = (scopeSpans.scope ?? scopeSpans.instrumentationLibrary) as Record<string, unknown> | undefined;
      const scopeAttributes: Record<string, AttributeValue> = flattenAttributes(keyValues(scope?.attributes));
      if (typeof scope?.name === 'string' && scope.name !== '') scopeAttributes['otel.scope.name'] = scope.name;
      if (typeof scope?.version === 'string' && scope.version !== '') scopeAttributes['otel.scope.version'] = scope.version;
      for (const span of asList(scopeSpans.spans)) {
        const result = decodeSpan(span, file, lineOf);
        if (typeof result === 'string') decoded.problems.push({ line: lineOf(String(span.spanId ?? '')), message: result });
        else decoded.spans.push({ ...result, resourceAttributes, scopeAttributes });
      }
    }
  }
  return decoded;
}

function decodeSpan(span: Record<string, unknown>, file: string, lineOf: (spanId: string) => number): TraceSpan | string {
  const traceId = otlpId(span.traceId, 16);
  const spanId = otlpId(span.spanId, 8);
  if (!traceId) return `span ${JSON.stringify(span.name ?? '')}: traceId is not 32 hex digits (${JSON.stringify(span.traceId)})`;
  if (!spanId) return `span ${JSON.stringify(span.name ?? '')}: spanId is not 16 hex digits (${JSON.stringify(span.spanId)})`;
  // Some SDKs send a list attribute whole (retrieval.documents as an arrayValue of kvlistValues) instead of flattened.
  const attributes = flattenAttributes(keyValues(span.attributes));
  const parentSpanId = otlpId(span.parentSpanId, 8);
  const kind = attributes[SPAN_KIND];
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name: typeof span.name === 'string' ? span.name : '',
    ...(typeof kind === 'string' ? { kind: kind.toUpperCase() } : {}),
    startMs: nanosToMs(span.startTimeUnixNano),
    endMs: nanosToMs(span.endTimeUnixNano),
    attributes,
    scores: { ...scoresFromAttributes(attributes), ...scoresFromEvents(asList(span.events).map((event) => ({ name: event.name, attributes: keyValues(event.attributes) }))) },
    source: { file, line: lineOf(spanId) },
  };
}

/** An id as lower-case hex: hex as the spec says, or base64 as early OTLP/JSON writers did. Empty ids are absent. */
export function otlpId(value: unknown, bytes: number): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(value)) return /^0+$/.test(value) ? undefined : value.toLowerCase();
  const decoded = Buffer.from(value, 'base64');
  if (decoded.length === bytes && decoded.toString('base64') === value) return decoded.toString('hex');
  return undefined;
}

/** OTLP `KeyValue[]` as a record; a key given twice keeps its last value. */
export function keyValues(list: unknown): Record<string, AttributeValue> {
  const record: Record<string, AttributeValue> = {};
  for (const entry of asList(list)) {
    if (typeof entry.key === 'string') record[entry.key] = anyValue(entry.value);
  }
  return record;
}

/** OTLP `AnyValue`: exactly one of its fields is set. */
export function anyValue(value: unknown): AttributeValue {
  if (!isPlainObject(value)) return null;
  if ('stringValue' in value) return String(value.stringValue);
  if ('boolValue' in value) return value.boolValue === true || value.boolValue === 'true';
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('arrayValue' in value) return asList((value.arrayValue as Record<string, unknown> | undefined)?.values, true).map(anyValue);
  if ('kvlistValue' in value) return keyValues((value.kvlistValue as Record<string, unknown> | undefined)?.values);
  if ('bytesValue' in value) return String(value.bytesValue);
  return null;
}

function asList(value: unknown, any = false): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return (any ? value : value.filter(isPlainObject)) as Record<string, unknown>[];
}
