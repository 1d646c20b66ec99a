// Which method Run Evaluation proposes first for a dataset: each method says whether a dataset's first row fits it
// (Suite.proposeFor: stress for a RAGAS-style file), and a fitting one goes to the top with a word on why.
import { readDataset } from '../core/data/readDataset.js';
import { suiteFor } from '../core/suites/registry.js';

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

/** The methods in the registry's order, those that fit the first row (Suite.proposeFor) first, with the reason. */
export function methodItems(methods: readonly string[], firstRow: Record<string, unknown> | undefined): MethodItem[] {
  const items = methods.map((label): MethodItem => {
    const description = firstRow === undefined ? undefined : suiteFor(label)?.proposeFor?.(firstRow);
    return description === undefined ? { label } : { label, description };
  });
  return [...items.filter((item) => item.description !== undefined), ...items.filter((item) => item.description === undefined)];
}
