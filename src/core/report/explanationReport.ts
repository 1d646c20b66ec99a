// The explanation of a run as report files beside the run's own: explanation.json (the whole RunExplanation) and
// attribution.csv (one row per explained case, model and document, for spreadsheets).
import { mkdir } from 'node:fs/promises';
import { writeFileAtomically } from '../atomicFile.js';
import * as path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { RunExplanation } from '../explain/model.js';
import type { ReportFormat } from './writeReports.js';

export const EXPLANATION_FILES = { json: 'explanation.json', csv: 'attribution.csv' } as const;

/** Spreadsheets run cells that start like a formula; summaries quote documents, so such cells get a leading quote. */
const defuse = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

export function attributionCsv(explanation: RunExplanation): string {
  const header = ['suite', 'case_id', 'model', 'method', 'basis', 'original_pass', 'source', 'role', 'answer_bearing', 'effect', 'without_it_pass', 'change', 'attribution', 'loo_support', 'subsets_with', 'subsets_without', 'fit_r2', 'summary'];
  const rows = explanation.cases.flatMap((c) => c.attributions.map((a) => [
    c.suiteId, c.caseId, c.modelKey, c.method, c.basis, c.original.pass ?? '', a.sourceId, a.role, a.answerBearing, a.effect,
    a.withoutIt ?? '', a.change ?? '', a.attribution ?? '', a.support.leaveOneOut, a.support.subsetsWith, a.support.subsetsWithout,
    c.surrogate?.r2 ?? '', defuse(c.summary),
  ]));
  return stringify([header, ...rows]);
}

/** Writes the formats that carry an explanation (json, csv); the others have no explanation form and are skipped. */
export async function writeExplanationReports(explanation: RunExplanation, outDir: string, formats: readonly ReportFormat[]): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  if (formats.includes('json')) {
    const file = path.join(outDir, EXPLANATION_FILES.json);
    await writeFileAtomically(file, `${JSON.stringify(explanation, null, 1)}\n`);
    written.push(file);
  }
  if (formats.includes('csv')) {
    const file = path.join(outDir, EXPLANATION_FILES.csv);
    await writeFileAtomically(file, attributionCsv(explanation));
    written.push(file);
  }
  return written;
}
