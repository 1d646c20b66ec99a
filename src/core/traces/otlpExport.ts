// Sends a run's cases to an OTLP/HTTP endpoint as OpenInference traces, in batches, and never fails the run: what
// could not be sent comes back as warnings. The official OTLP exporter does the encoding (OTLP JSON) and the
// retries the OTLP spec asks for (429/502/503/504 and dropped connections, with backoff and Retry-After); the
// tracer of the OpenTelemetry SDK makes the spans. Header values (API keys) are never put in a warning. All of it is
// loaded when an export starts (vendor/otel.ts), not when the CLI or the extension does.
import type { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { SEMRESATTRS_PROJECT_NAME } from '@arizeai/openinference-semantic-conventions';
import { redact } from '../redact.js';
import { loadVendor } from '../vendor/load.js';
import { emitCaseTrace } from './caseSpans.js';
import type { CaseEntry } from '../model.js';
import type { RunIdentity } from './caseSpans.js';

export interface OtlpTarget {
  /** The traces URL; a bare origin gets the OTLP default path /v1/traces. */
  endpoint: string;
  /** Sent with every request; values usually come from environment variables and are secrets. */
  headers: Record<string, string>;
  /** Cases (traces) per request; default 50. */
  batchSize?: number;
  /** Per request, retries included; default 10 s, the OTLP exporter's own default. */
  timeoutMs?: number;
}

export interface ExportSummary {
  endpoint: string;
  sent: number;
  notSent: number;
  warnings: string[];
}

const DEFAULT_BATCH = 50;

/**
 * Why an OTLP endpoint cannot be used, or undefined when it can. Stricter than `new URL`, which takes an empty port
 * ("http://127.0.0.1:/v1/traces") as the default one: a typo must be caught when the endpoint is given, not found when
 * nothing arrives.
 */
export function otlpEndpointProblem(endpoint: string): string | undefined {
  const authority = /^https?:\/\/([^/?#]*)/i.exec(endpoint)?.[1];
  if (authority === undefined) return `'${endpoint}' is not an http(s) URL`;
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const bracketed = /^\[[0-9a-fA-F:.]+\](?::(.*))?$/.exec(hostPort);
  const colon = hostPort.indexOf(':');
  const host = bracketed ? hostPort : colon < 0 ? hostPort : hostPort.slice(0, colon);
  const port = bracketed ? bracketed[1] : colon < 0 ? undefined : hostPort.slice(colon + 1);
  if (host === '') return `'${endpoint}' has no host`;
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535)) return `'${endpoint}' has ${port === '' ? 'an empty port after its colon' : `port '${port}', not a number from 0 to 65535`}`;
  try {
    new URL(endpoint);
  } catch {
    return `'${endpoint}' is not a URL`;
  }
  return undefined;
}

/** The OTLP default path is added to an endpoint given as an origin (http://localhost:6006 → …/v1/traces). */
export function tracesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1/traces';
  return url.toString();
}

export async function exportCasesToOtlp(entries: AsyncIterable<CaseEntry>, run: RunIdentity, target: OtlpTarget): Promise<ExportSummary> {
  const secrets = Object.values(target.headers);
  const summary: ExportSummary = { endpoint: target.endpoint, sent: 0, notSent: 0, warnings: [] };
  let url: string;
  try {
    url = tracesUrl(target.endpoint);
  } catch {
    summary.warnings.push(`OTLP export: '${target.endpoint}' is not a URL (e.g. http://localhost:4318/v1/traces); nothing was sent`);
    return summary;
  }
  summary.endpoint = url;
  const { InMemorySpanExporter, OTLPTraceExporter, SimpleSpanProcessor, TracerProvider, resourceFromAttributes } = loadVendor('otel');
  const collected = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'rag-inspector', [SEMRESATTRS_PROJECT_NAME]: run.name }),
    spanProcessors: [new SimpleSpanProcessor({ exporter: collected })],
    // A case with twenty documents carries well over the default 128 attributes on its RETRIEVER span.
    spanLimits: { attributeCountLimit: 100_000, eventCountLimit: 10_000 },
  });
  const tracer = provider.getTracer('rag-inspector');
  const exporter = new OTLPTraceExporter({ url, headers: target.headers, timeoutMillis: target.timeoutMs ?? 10_000 });
  const batchSize = target.batchSize ?? DEFAULT_BATCH;
  let inBatch = 0;
  let gaveUp = false;

  const flush = async () => {
    await provider.forceFlush();
    const spans = collected.getFinishedSpans().slice();
    collected.reset();
    const cases = inBatch;
    inBatch = 0;
    if (cases === 0) return;
    if (gaveUp) {
      summary.notSent += cases;
      return;
    }
    const error = await send(exporter, spans);
    if (error === undefined) {
      summary.sent += cases;
      return;
    }
    summary.notSent += cases;
    summary.warnings.push(`OTLP export to ${url} failed for ${cases} case(s): ${redact(error, secrets)}`);
    // The exporter has already retried what the spec calls retryable; later batches would only wait out the same failure.
    gaveUp = true;
  };

  try {
    for await (const entry of entries) {
      if (gaveUp) {
        summary.notSent += 1;
        continue;
      }
      emitCaseTrace(tracer, run, entry);
      inBatch += 1;
      if (inBatch >= batchSize) await flush();
    }
    await flush();
  } finally {
    await provider.shutdown().catch(() => undefined);
    await exporter.shutdown().catch(() => undefined);
  }
  if (gaveUp && summary.notSent > 0) summary.warnings.push(`${summary.notSent} case(s) were not exported; the run and its reports are complete`);
  return summary;
}

/** Undefined when the endpoint took the batch, else why not. */
function send(exporter: OTLPTraceExporter, spans: ReadableSpan[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      exporter.export(spans, (result) => {
        resolve(result.code === loadVendor('otel').ExportResultCode.SUCCESS ? undefined : describe(result.error));
      });
    } catch (error) {
      resolve(describe(error));
    }
  });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'the endpoint did not accept the traces';
  const code = (error as { code?: unknown }).code;
  const data = (error as { data?: unknown }).data;
  const detail = typeof data === 'string' && data.trim() !== '' ? ` (${data.trim().slice(0, 200)})` : '';
  return `${error.message}${typeof code === 'number' || typeof code === 'string' ? ` [${code}]` : ''}${detail}`;
}
