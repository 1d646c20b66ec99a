// The explanation of a run as report files beside the run's own: explanation.json (the whole RunExplanation) and
// attribution.csv (one row per explained case, model and document, with the case's faithfulness check, for spreadsheets).
import { mkdir } from 'node:fs/promises';
import { writeFileAtomically } from '../atomicFile.js';
import * as path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { RunExplanation } from '../explain/model.js';
import { booleanCell, defuseFormula } from './csvReport.js';
import type { ReportFormat } from './writeReports.js';

export const EXPLANATION_FILES = { json: 'explanation.json', csv: 'attribution.csv' } as const;


export function attributionCsv(explanation: RunExplanation): string {
  const header = ['suite', 'case_id', 'model', 'method', 'basis', 'original_pass', 'source', 'role', 'answer_bearing', 'effect', 'without_it_pass', 'change', 'attribution', 'loo_support', 'subsets_with', 'subsets_without', 'fit_r2', 'faithfulness', 'faithfulness_removed', 'summary'];
  // Yes/no cells as cases.csv writes them: true, false, or empty when undetermined.
  const rows = explanation.cases.flatMap((c) => c.attributions.map((a) => [
    c.suiteId, c.caseId, c.modelKey, c.method, c.basis, booleanCell(c.original.pass), a.sourceId, a.role, booleanCell(a.answerBearing), a.effect,
    booleanCell(a.withoutIt), a.change ?? '', a.attribution ?? '', a.support.leaveOneOut, a.support.subsetsWith, a.support.subsetsWithout,
    c.surrogate?.r2 ?? '', c.faithfulness?.status ?? '', c.faithfulness?.removed.join(' ') ?? '', defuseFormula(c.summary),
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
