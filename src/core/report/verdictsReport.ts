// verdicts.json beside the other reports: the person's verdicts on this run's cases and the judge's agreement with
// them per metric. Verdicts live in the workspace (.rag-inspector/verdicts.jsonl), never in the run log, so the
// export looks for that file from the eval file's folder upwards, where the inspector keeps it.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { CaseEntry } from '../model.js';
import { VERDICTS_FILE, VerdictStore } from '../verdicts/store.js';
import { buildVerdictsView } from '../verdicts/view.js';
import type { RunData } from './runData.js';
import { writeFileStreaming } from './textSink.js';

export function findVerdictsFile(specFile: string): string | undefined {
  for (let folder = path.dirname(specFile); ; folder = path.dirname(folder)) {
    const file = path.join(folder, VERDICTS_FILE);
    if (existsSync(file)) return file;
    if (path.dirname(folder) === folder) return undefined;
  }
}

/** Writes verdicts.json when the workspace has verdicts; returns its path, or undefined when there are none. */
export async function writeVerdictsReport(run: RunData, outDir: string): Promise<string | undefined> {
  const file = findVerdictsFile(run.specFile);
  if (!file) return undefined;
  const index = await new VerdictStore(file).latest();
  if (index.size === 0) return undefined;
  const entries: CaseEntry[] = [];
  for await (const { evalCase, result } of run.entries()) if (evalCase) entries.push({ evalCase, result });
  const view = buildVerdictsView(entries, index);
  const target = path.join(outDir, 'verdicts.json');
  await writeFileStreaming(target, async (sink) => {
    await sink.write(`${JSON.stringify({ format: 'rag-inspector/verdicts', version: 1, runId: run.runId, source: file, ...view }, null, 2)}\n`);
  });
  return target;
}
