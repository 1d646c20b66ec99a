// After a run (or `report` on a run log): sends its cases as OpenInference traces to the OTLP endpoint named by
// --export-otlp or the eval file's `export.otlp`. Never changes the exit code: a failed export is a warning.
import type { RunData } from '../core/report/runData.js';
import { otlpHeaderValues, otlpSettingsOf, sendRunTraces } from '../core/report/runTraces.js';
import type { OtlpExportSpec } from '../core/spec/types.js';
import type { OtlpTarget } from '../core/traces/otlpExport.js';
import { print } from './terminal.js';

export interface ExportIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

/**
 * `flagEndpoint` (--export-otlp) wins over the eval file's endpoint. Without either nothing is sent. Standard
 * OTEL_EXPORTER_OTLP_HEADERS are added by the OTLP exporter itself. Under --contain (`contained`) the eval file is not
 * trusted: its endpoint is used only when listed with --allow-endpoint, and its headers (environment variables it
 * names, possibly keys) go nowhere else. `loaded`: the eval file's `export` as the run loaded it (a run just made);
 * without it (`report` on an older log) the eval file is read again.
 */
export async function exportRunTraces(run: RunData, flagEndpoint: string | undefined, contained?: { allowEndpoints: string[] }, loaded?: { otlp?: OtlpExportSpec }, io: ExportIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<void> {
  const configured = loaded ? loaded.otlp : await otlpSettingsOf(run.specFile);
  const endpoint = flagEndpoint ?? configured?.endpoint;
  if (!endpoint) return;
  const fileChoseIt = flagEndpoint === undefined;
  if (contained && fileChoseIt && !contained.allowEndpoints.includes(endpoint)) {
    print(io.stderr, `warning: --contain: the eval file's export.otlp endpoint ${endpoint} was not sent anything — add --allow-endpoint ${endpoint} if it is yours\n`);
    return;
  }
  const fileHeaders = contained && !fileChoseIt ? {} : configured?.headers ?? {};
  const headers = otlpHeaderValues(fileHeaders, io.env, (message) => print(io.stderr, `warning: ${message}\n`));
  const target: OtlpTarget = { endpoint, headers, batchSize: configured?.batchSize };
  try {
    const summary = await sendRunTraces(run, target);
    for (const warning of summary.warnings) print(io.stderr, `warning: ${warning}\n`);
    if (summary.sent > 0) print(io.stdout, `Traces: ${summary.sent} case(s) sent to ${summary.endpoint}\n`);
  } catch (error) {
    // The export is an extra: whatever went wrong in it leaves the run's outcome alone.
    print(io.stderr, `warning: OTLP export failed: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
