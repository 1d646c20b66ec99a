// Which method Run Evaluation proposes first for a dataset: a RAGAS-style file (a user's own questions, retrieved
// passages and references) is what the stress method is for, so it goes to the top with a word on why.
import { readDataset } from '../core/data/readDataset.js';
import { looksLikeStressRow } from '../core/suites/stress/counterfactual.js';

export interface MethodItem {
  label: string;
  description?: string;
}

/** The first readable row of a dataset (undefined for an empty or unreadable file); reads no further. */
export async function firstRowOf(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    for await (const item of readDataset(file)) {
      if (item.ok) return item.row.data;
    }
  } catch {
    // A file that cannot be read gets no proposal; the run reports the problem at its line.
  }
  return undefined;
}

export function methodItems(methods: readonly string[], firstRow: Record<string, unknown> | undefined): MethodItem[] {
  const proposeStress = firstRow !== undefined && looksLikeStressRow(firstRow) && methods.includes('stress');
  if (!proposeStress) return methods.map((label) => ({ label }));
  return [
    { label: 'stress', description: 'proposed: your RAG rows (RAGAS columns) → RGB\'s abilities and the position curve' },
    ...methods.filter((m) => m !== 'stress').map((label) => ({ label })),
  ];
}
