// A logged run sent as OpenInference traces: the steps the CLI (--export-otlp, export.otlp) and VS Code's Export
// Report share — the eval file's export settings read back, header values taken from the environment, each case
// with its result streamed from the run log to the exporter. Which endpoint may be used is the caller's policy.
import { loadEvalSpec } from '../spec/load.js';
import type { OtlpExportSpec } from '../spec/types.js';
import { exportCasesToOtlp } from '../traces/otlpExport.js';
import type { ExportSummary, OtlpTarget } from '../traces/otlpExport.js';
import type { CaseEntry } from '../model.js';
import type { RunData } from './runData.js';

/** The eval file's export.otlp, if the file still loads (it may have changed or gone since the run). */
export async function otlpSettingsOf(specFile: string): Promise<OtlpExportSpec | undefined> {
  try {
    return (await loadEvalSpec(specFile)).export?.otlp;
  } catch {
    return undefined;
  }
}

/**
 * The header values an export sends, each read from the environment variable the eval file names. A variable that is
 * not set is left out with a warning (naming the variable, never a value).
 */
export function otlpHeaderValues(headers: OtlpExportSpec['headers'], env: Record<string, string | undefined>, warn: (message: string) => void): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, { env: variable, prefix }] of Object.entries(headers)) {
    const value = env[variable];
    if (value === undefined || value === '') {
      warn(`OTLP export: header ${name}: environment variable ${variable} is not set; sending without it`);
      continue;
    }
    values[name] = `${prefix ?? ''}${value}`;
  }
  return values;
}

/** Sends every case of `run` that has its case (a run read from its log always does) to `target`. */
export function sendRunTraces(run: RunData, target: OtlpTarget): Promise<ExportSummary> {
  return exportCasesToOtlp(withCases(run), { runId: run.runId, name: run.name }, target);
}

async function* withCases(run: RunData): AsyncIterable<CaseEntry> {
  for await (const { evalCase, result } of run.entries()) if (evalCase) yield { evalCase, result };
}
