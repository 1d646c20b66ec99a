// The OpenTelemetry SDK, its OTLP/HTTP exporter and the OpenInference attribute helpers as a bundle of their own
// (dist/vendor/otel.js): loaded by load.ts when a run is first exported as traces (traces/otlpExport.ts). Reading
// trace files needs none of it (only the OpenInference names, which stay in the main bundle).
export { SpanStatusCode, context, trace } from '@opentelemetry/api';
export { ExportResultCode } from '@opentelemetry/core';
export { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
export { resourceFromAttributes } from '@opentelemetry/resources';
export { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
export { getEvaluationAttributes, getInputAttributes, getLLMAttributes, getMetadataAttributes, getOutputAttributes, getRetrieverAttributes } from '@arizeai/openinference-core';
