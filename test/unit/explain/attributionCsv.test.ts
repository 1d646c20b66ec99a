// attribution.csv writes its yes/no cells as cases.csv does: true, false, or empty when undetermined — a false is
// never an empty cell (that reads as undetermined) and a true never a 1.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { explainCase } from '../../../src/core/explain/attribute.js';
import { planVariants } from '../../../src/core/explain/variants.js';
import type { ExplainSource, RunExplanation, VariantOutcome } from '../../../src/core/explain/model.js';
import { attributionCsv } from '../../../src/core/report/explanationReport.js';

const sources: ExplainSource[] = ['d0', 'd1', 'd2'].map((id, i) => ({ id, role: i === 0 ? 'positive' : 'negative', answerBearing: i === 0, preview: id }));
const outcome = (variantId: string, pass: boolean | null, undeterminedBecause?: string): VariantOutcome => ({ variantId, pass, signal: pass === null ? null : Number(pass), cached: false, ...(undeterminedBecause ? { undeterminedBecause } : {}) });

it('true, false and undetermined cells read as cases.csv writes them', () => {
  const e = explainCase({
    caseId: 'c', modelKey: 'm', suiteId: 's', method: 'rgb', meaning: '', sources,
    variants: planVariants({ caseId: 'c', seed: 1, sources, sections: [], kinds: ['loo'] }),
    outcomes: new Map([outcome('original', false), outcome('loo:d0', false), outcome('loo:d1', true), outcome('loo:d2', null, 'judge error (x): unreadable')].map((o) => [o.variantId, o])),
  });
  const explanation: RunExplanation = { format: 1, runId: 'r', runLog: 'r.jsonl', variantLog: 'v.jsonl', createdAt: '', status: 'complete', cases: [e], suites: [], calls: { model: 0, cached: 0, judge: 0 } };
  const rows = parse(attributionCsv(explanation), { columns: true }) as Record<string, string>[];
  assert.deepEqual(rows.map((r) => [r.source, r.original_pass, r.answer_bearing, r.without_it_pass]), [
    ['d0', 'false', 'true', 'false'],
    ['d1', 'false', 'false', 'true'],
    ['d2', 'false', 'false', ''],
  ]);
  assert.deepEqual(rows.map((r) => [r.faithfulness, r.faithfulness_removed]), [['flips', 'd1'], ['flips', 'd1'], ['flips', 'd1']]);
});
