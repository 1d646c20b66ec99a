// The explanation of a run as report files beside the run's own: explanation.json (the whole RunExplanation),
// attribution.csv (one row per explained case, model and document, with the case's faithfulness check, for spreadsheets)
// and, for a run with rag cases, failure-causes.csv (one row per failed case: its one cause and the evidence in words).
import { mkdir } from 'node:fs/promises';
import { writeFileAtomically } from '../atomicFile.js';
import * as path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { RunExplanation } from '../explain/model.js';
import type { RunFailureCauses } from './failureCauses.js';
import { booleanCell, defuseFormula } from './csvReport.js';
import type { ReportFormat } from './writeReports.js';

export const EXPLANATION_FILES = { json: 'explanation.json', csv: 'attribution.csv', causes: 'failure-causes.csv' } as const;

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

/** One row per failed rag case: where its cause came from (Explain's evidence, or what the case recorded) and why. */
export function failureCausesCsv(causes: RunFailureCauses): string {
  const header = ['suite', 'case_id', 'model', 'cause', 'from', 'passage_id', 'rank', 'evidence'];
  const rows = [...causes.cases.values()].map((c) => [
    c.suiteId, c.caseId, c.modelKey, c.finding.cause, c.from, defuseFormula(c.finding.passageId ?? ''), c.finding.rank ?? '', defuseFormula(c.finding.words),
  ]);
  return stringify([header, ...rows]);
}

/**
 * Writes the formats that carry an explanation (json, csv); the others have no explanation form and are skipped. With
 * `causes` (a run with failed rag cases), csv also writes failure-causes.csv.
 */
export async function writeExplanationReports(explanation: RunExplanation, outDir: string, formats: readonly ReportFormat[], causes?: RunFailureCauses): Promise<string[]> {
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
    if (causes && causes.cases.size > 0) {
      const causesFile = path.join(outDir, EXPLANATION_FILES.causes);
      await writeFileAtomically(causesFile, failureCausesCsv(causes));
      written.push(causesFile);
    }
  }
  return written;
}
