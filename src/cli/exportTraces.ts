// After a run (or `report` on a run log): sends its cases as OpenInference traces to the OTLP endpoint named by
// --export-otlp or the eval file's `export.otlp`. Never changes the exit code: a failed export is a warning.
import { loadEvalSpec } from '../core/spec/load.js';
import type { OtlpExportSpec } from '../core/spec/types.js';
import type { RunData } from '../core/report/runData.js';
import { exportCasesToOtlp } from '../core/traces/otlpExport.js';
import type { OtlpTarget } from '../core/traces/otlpExport.js';
import type { CaseEntry } from '../core/model.js';

export interface ExportIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

/**
 * `flagEndpoint` (--export-otlp) wins over the eval file's endpoint. Without either nothing is sent. Standard
 * OTEL_EXPORTER_OTLP_HEADERS are added by the OTLP exporter itself. Under --contain (`contained`) the eval file is not
 * trusted: its endpoint is used only when listed with --allow-endpoint, and its headers (environment variables it
 * names, possibly keys) go nowhere else.
 */
export async function exportRunTraces(run: RunData, flagEndpoint: string | undefined, contained?: { allowEndpoints: string[] }, io: ExportIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<void> {
  const configured = await exportSpecOf(run.specFile);
  const endpoint = flagEndpoint ?? configured?.endpoint;
  if (!endpoint) return;
  const fileChoseIt = flagEndpoint === undefined;
  if (contained && fileChoseIt && !contained.allowEndpoints.includes(endpoint)) {
    io.stderr.write(`warning: --contain: the eval file's export.otlp endpoint ${endpoint} was not sent anything — add --allow-endpoint ${endpoint} if it is yours\n`);
    return;
  }
  const fileHeaders = contained && !fileChoseIt ? {} : configured?.headers ?? {};
  const target: OtlpTarget = { endpoint, headers: headerValues(fileHeaders, io), batchSize: configured?.batchSize };
  try {
    const summary = await exportCasesToOtlp(withCases(run), { runId: run.runId, name: run.name }, target);
    for (const warning of summary.warnings) io.stderr.write(`warning: ${warning}\n`);
    if (summary.sent > 0) io.stdout.write(`Traces: ${summary.sent} case(s) sent to ${summary.endpoint}\n`);
  } catch (error) {
    // The export is an extra: whatever went wrong in it leaves the run's outcome alone.
    io.stderr.write(`warning: OTLP export failed: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** Entries with their case (a run read from its log always has them; one held in memory may not). */
async function* withCases(run: RunData): AsyncIterable<CaseEntry> {
  for await (const { evalCase, result } of run.entries()) if (evalCase) yield { evalCase, result };
}

/** The eval file's export.otlp, if the file still loads (it may have changed or gone since the run). */
async function exportSpecOf(specFile: string): Promise<OtlpExportSpec | undefined> {
  try {
    return (await loadEvalSpec(specFile)).export?.otlp;
  } catch {
    return undefined;
  }
}

function headerValues(headers: OtlpExportSpec['headers'], io: ExportIo): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, { env, prefix }] of Object.entries(headers)) {
    const value = io.env[env];
    if (value === undefined || value === '') {
      io.stderr.write(`warning: OTLP export: header ${name}: environment variable ${env} is not set; sending without it\n`);
      continue;
    }
    values[name] = `${prefix ?? ''}${value}`;
  }
  return values;
}
