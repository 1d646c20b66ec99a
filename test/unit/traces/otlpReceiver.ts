// A local OTLP/HTTP JSON receiver for the tests: records each request's headers and decoded body, and answers with
// the status a test scripts (200 by default), so the exporter is tested against a real HTTP server.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  /** The status the receiver answered with; only 200s are counted by spans(). */
  status: number;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent, and parsed as JSON. */
  text: string;
  body: OtlpRequest;
}

/** ExportTraceServiceRequest as OTLP JSON writes it (open-telemetry/opentelemetry-proto docs/specification.md). */
export interface OtlpRequest {
  resourceSpans: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans: { scope?: { name?: string }; spans: OtlpSpan[] }[];
  }[];
}

export interface OtlpKeyValue { key: string; value: Record<string, unknown> }

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  events?: { name: string; attributes?: OtlpKeyValue[] }[];
  status?: { code?: number; message?: string };
}

export interface Reply { status: number; headers?: Record<string, string>; body?: string }

export interface OtlpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answers request number n (0-based); default 200 with an empty ExportTraceServiceResponse. */
  reply: (n: number) => Reply;
  /** Every span received, in order. */
  spans(): OtlpSpan[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  let count = 0;
  const receiver: OtlpReceiver = {
    url: '',
    requests,
    reply: () => ({ status: 200, body: '{}' }),
    spans: () => requests.filter((r) => r.status === 200).flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const reply = receiver.reply(count++);
      requests.push({ status: reply.status, path: req.url ?? '', headers: req.headers, text, body: JSON.parse(text) as OtlpRequest });
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  return receiver;
}

/** A span's attributes as a plain record, decoding OTLP AnyValue the way the spec writes it. */
export function attributesOf(span: { attributes?: OtlpKeyValue[] }): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { key, value } of span.attributes ?? []) record[key] = decode(value);
  return record;
}

function decode(value: Record<string, unknown>): unknown {
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('boolValue' in value) return value.boolValue;
  if ('arrayValue' in value) return ((value.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(decode);
  return value;
}
