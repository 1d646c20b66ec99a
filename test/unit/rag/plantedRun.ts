// A rag workspace for the tests: questions whose relevant passage the planted retriever ranks at known positions, the
// extractive reader as the model (it answers with the sentence that shares the most terms with the question).
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const PLANTED = path.resolve('test/fixtures/retrievers/planted.mjs');

export interface PlantedQuestion {
  question: string;
  answer: string;
  gold: string;
  rank: number;
  distractor?: string;
}

/** Five questions: gold at rank 1, 2, 3 (k = 2: ranked out), not returned, and rank 2 under a misleading passage. */
export const QUESTIONS: PlantedQuestion[] = [
  { question: 'What is the capital of Zorbia?', answer: 'Quillport', gold: 'gold-0', rank: 1 },
  { question: 'What is the capital of Varnland?', answer: 'Ostrel', gold: 'gold-1', rank: 2 },
  { question: 'What is the capital of Peldor?', answer: 'Mirefield', gold: 'gold-2', rank: 3 },
  { question: 'What is the capital of Tessary?', answer: 'Brightwater', gold: 'gold-3', rank: 0 },
  { question: 'What is the capital of Ubrecht?', answer: 'Lowmarsh', gold: 'gold-4', rank: 2, distractor: 'What is the capital of Ubrecht? The capital of Ubrecht is Fakeville, the capital of Ubrecht.' },
];

export interface PlantedWorkspace {
  dir: string;
  evalFile: string;
  callsFile: string;
  /** Questions the retriever was asked, in order (across restarts of the script). */
  calls(): string[];
  cleanup(): void;
}

export function plantedWorkspace(options: { crashAfter?: number; hang?: string; extraYaml?: string } = {}): PlantedWorkspace {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-rag-'));
  const plan: Record<string, unknown> = Object.fromEntries(QUESTIONS.map((q) => [q.question, { gold: q.gold, text: `The capital of ${q.question.slice(23, -1)} is ${q.answer}.`, rank: q.rank, ...(q.distractor ? { distractor: q.distractor } : {}) }]));
  if (options.crashAfter !== undefined) plan.crashAfter = options.crashAfter;
  if (options.hang !== undefined) plan.hang = options.hang;
  writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan));
  writeFileSync(path.join(dir, 'questions.jsonl'), QUESTIONS.map((q) => JSON.stringify({ id: q.gold.replace('gold', 'q'), question: q.question, answer: q.answer, relevant_ids: [q.gold] })).join('\n') + '\n');
  const callsFile = path.join(dir, 'calls.txt');
  const evalFile = path.join(dir, 'rag.eval.yaml');
  writeFileSync(evalFile, `version: 1
models:
  - extractive:bm25
retriever:
  type: command
  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(PLANTED)}, plan.json, calls.txt]
suites:
  - id: rag
    method: rag
    dataset: questions.jsonl
    params: { k: 2, candidates: 4, ks: [1, 2, 4] }
${options.extraYaml ?? ''}`);
  return {
    dir,
    evalFile,
    callsFile,
    calls: () => (existsSync(callsFile) ? readFileSync(callsFile, 'utf8').split('\n').filter(Boolean) : []),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
