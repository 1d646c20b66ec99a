// What the batch client tests of both vendors read results with.
import type { BatchItemResult } from '../../../src/core/providers/batch.js';

/** A batch's results by custom_id: the vendors return them in no promised order. */
export function byId(results: BatchItemResult[]): Map<string, BatchItemResult> {
  return new Map(results.map((result) => [result.customId, result]));
}
