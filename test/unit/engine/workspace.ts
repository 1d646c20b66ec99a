// Builds a throwaway workspace (eval file, RGB-format dataset, template) for engine and CLI tests.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface RgbRow {
  id: number;
  query: string;
  answer: string | (string | string[])[];
  positive: string[];
  negative: string[];
}

/** Row i asks about city i; its answer "Answer<i>" sits in the positive passages only. `from`: the first i. */
export function rgbRows(count: number, from = 0): RgbRow[] {
  return Array.from({ length: count }, (_, n) => from + n).map((i) => ({
    id: i,
    query: `Where is landmark number ${i}?`,
    answer: [`Answer${i}`],
    positive: [`Landmark number ${i} is in Answer${i}.`, `Visitors reach landmark ${i} via Answer${i} station.`],
    negative: [`Landmark number ${i + 1000} is famous.`, `Many landmarks exist.`, `Landmarks are numbered.`],
  }));
}

/** Scripts `server` to answer rgbRows' first `count` questions correctly ("Answer<i>."). */
export function answerLandmarks(server: { addRule(rule: { match: { contains: string }; reply: string }): unknown }, count: number): void {
  for (let i = 0; i < count; i++) server.addRule({ match: { contains: `landmark number ${i}?` }, reply: `Answer${i}.` });
}

export interface Workspace {
  dir: string;
  evalFile: string;
  datasetFile: string;
  write(name: string, text: string): string;
  cleanup(): void;
}

export function createWorkspace(options: { rows: RgbRow[]; evalYaml: (paths: { dataset: string }) => string; extraLines?: string[] }): Workspace {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-engine-'));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text, 'utf8');
    return file;
  };
  const lines = options.rows.map((row) => JSON.stringify(row));
  const datasetFile = write('data.jsonl', [...lines, ...(options.extraLines ?? [])].join('\n') + '\n');
  const evalFile = write('test.eval.yaml', options.evalYaml({ dataset: 'data.jsonl' }));
  return { dir, evalFile, datasetFile, write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An eval file running one RGB noise suite on the fixture server through the real OpenAI SDK. */
export function fixtureEvalYaml(baseUrl: string, extra: { suite?: string; top?: string } = {}): string {
  return `version: 1
name: engine test
models:
  - provider: openai-compatible
    model: fixture-model
    baseUrl: ${baseUrl}
concurrency: 4
maxRetries: 3
timeoutMs: 5000
${extra.top ?? ''}
suites:
  - id: noise
    method: rgb
    dataset: data.jsonl
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
${extra.suite ?? ''}
`;
}
