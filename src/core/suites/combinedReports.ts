// Tables that span several suite entries of one run (IF-RAG's 9-column Table 1 comes from three entries A, B, C).
import { combineIfRagTables } from './ifrag/report.js';
import type { SuiteReport } from './contract.js';

/**
 * Extra reports built from the per-suite ones, appended after them, so every consumer (terminal, JSON, run log,
 * inspector) shows them without knowing which method produced them.
 */
export function combinedReports(reports: readonly SuiteReport[]): SuiteReport[] {
  const ifragTables = combineIfRagTables(reports);
  if (ifragTables.length === 0) return [];
  return [{
    suiteId: 'ifrag (combined)',
    method: 'ifrag',
    tables: ifragTables,
    metrics: [],
    notes: ['Accuracy per data kind × instruction, from the IF-RAG suite entries that share a dataset (the paper\'s Table 1).'],
  }];
}
