// Builders for RGB test data: dataset rows, built cases, results and a scripted judge, so tests read as examples.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { DatasetRow, EvalCase, ModelClient, Score } from '../../../src/core/model.js';
import type { RgbParams } from '../../../src/core/suites/rgb/params.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { scoreContext } from '../suites/builders.js';

export { find, noSignal, result, scriptedJudge } from '../suites/builders.js';

export const SUITE_ID = 'rgb-test';
export const RUN_SEED = 2333;

let nextIndex = 0;

export function datasetRow(data: Record<string, unknown>, file = 'test.jsonl'): DatasetRow {
  const index = nextIndex++;
  return { ref: { file, line: index + 1, index }, data };
}

export function params(raw: Record<string, unknown>): RgbParams {
  return rgbSuite.parseParams(raw, { file: 'test.eval.yaml' });
}

export function build(data: Record<string, unknown>, raw: Record<string, unknown>, seed = RUN_SEED): EvalCase[] {
  return rgbSuite.expandRow(datasetRow(data), params(raw), { suiteId: SUITE_ID, seed, models: [] });
}

/** A plain row with `positives` answer-bearing passages and `negatives` noise passages. */
export function plainRow(answer: unknown, positives: number, negatives: number, id: number | string = 0): Record<string, unknown> {
  return {
    id,
    query: 'Where was Super Bowl LV held?',
    answer,
    positive: Array.from({ length: positives }, (_, i) => `Positive ${i}: Super Bowl LV was played in Tampa, Florida.`),
    negative: Array.from({ length: negatives }, (_, i) => `Negative ${i}: Super Bowl LVII was played in Glendale, Arizona.`),
  };
}

export async function score(evalCase: EvalCase, response: string, p: RgbParams, judge?: ModelClient): Promise<Score[]> {
  return rgbSuite.score(evalCase, response, p, scoreContext(judge));
}

/** The simple JSONL loop the RGB files need (one object per line). */
export async function readJsonl(file: string): Promise<DatasetRow[]> {
  const rows: DatasetRow[] = [];
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    rows.push({ ref: { file, line, index: rows.length }, data: JSON.parse(text) as Record<string, unknown> });
  }
  return rows;
}
