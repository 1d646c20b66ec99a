// Builders for the robustness tests: eval files as data (written as YAML), RGB rows, answers keyed by row, a seeded PRNG.
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import type { RecordedRequest, Rule } from '../../fixtures/llmServer.js';
import { mulberry32 } from '../../../src/core/random.js';
import { parseLogLines } from '../../../src/core/run/runLog.js';

export { createWorkspace, rgbRows } from '../engine/workspace.js';
export type { RgbRow, Workspace } from '../engine/workspace.js';

export type ModelEntry = string | { provider: string; model: string; baseUrl?: string; apiKeyEnv?: string; parameters?: Record<string, unknown> };

export interface SuiteEntry {
  id: string;
  method: string;
  dataset?: string;
  template?: string;
  params?: Record<string, unknown>;
  thresholds?: Record<string, { min?: number; max?: number }>;
  limit?: number;
}

export interface EvalFile {
  name?: string;
  models: ModelEntry[];
  concurrency?: number;
  timeoutMs?: number;
  maxRetries?: number;
  rateLimit?: { requestsPerMinute?: number; tokensPerMinute?: number };
  suites?: SuiteEntry[];
}

/** One RGB noise-robustness suite over `data.jsonl`: one case per row, three passages, no noise. */
export function rgbSuite(overrides: Partial<SuiteEntry> = {}): SuiteEntry {
  return { id: 'noise', method: 'rgb', dataset: 'data.jsonl', params: { testbed: 'noise_robustness', noiseRates: [0], passageNum: 3 }, ...overrides };
}

/** The eval file's text, written by the yaml library so no test hand-writes YAML. */
export function evalYaml(file: EvalFile): string {
  const { name = 'robustness', suites = [rgbSuite()], ...rest } = file;
  return stringify({ version: 1, name, ...rest, suites });
}

/** An OpenAI-compatible model on a fixture server, through the real OpenAI SDK. */
export function fixtureModel(baseUrl: string, model: string, parameters: Record<string, unknown> = {}): ModelEntry {
  return { provider: 'openai-compatible', model, baseUrl, parameters };
}

export function jsonl(rows: readonly object[]): string {
  return rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
}

/** The row a request asks about (rgbRows questions read "Where is landmark number <i>?"), or undefined. */
export function rowOf(request: Pick<RecordedRequest, 'text'>): number | undefined {
  const found = /landmark number (\d+)\?/.exec(request.text);
  return found ? Number(found[1]) : undefined;
}

/** One rule answering every chat request with its row's correct answer, so each case is scored as passed. */
export function correctAnswers(): Rule {
  return { match: (req) => rowOf(req) !== undefined, reply: (req) => `It is in Answer${rowOf(req)}.` };
}

/** The RGB case id of row `i` in a suite built by rgbSuite(). */
export function caseIdOf(row: number, suiteId = 'noise'): string {
  return `${suiteId}/${row}/noise=0`;
}

/** A seeded PRNG (the product's own), so "random" offsets and choices repeat from run to run. */
export const seededRandom = mulberry32;

/** Counts of each key, for "every case exactly once" checks. */
export function countBy<T>(items: Iterable<T>, key: (item: T) => string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Every complete line of a run log, parsed, in file order (the reader dedupes by case; these tests count). */
export function rawLogLines(file: string): { type: string; [field: string]: unknown }[] {
  const text = readFileSync(file, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return parseLogLines(complete.split('\n')) as unknown as { type: string; [field: string]: unknown }[];
}
