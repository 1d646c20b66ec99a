// The shared workload of the promptfoo comparison: N deterministic RAG cases (a question, 3 answer-bearing passages, 2 noise passages), written as a RAG Inspector eval and as a promptfoo config with the same prompt text.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { buildPlan } from '../../src/core/engine/plan.js';
import { loadEvalSpec } from '../../src/core/spec/load.js';
import { mulberry32 } from '../../src/core/random.js';

export interface WorkloadRow {
  id: number;
  query: string;
  answer: string[];
  positive: string[];
  negative: string[];
}

/** The product's seeded PRNG: the rows are the same on every machine and in every run. */
const prng = mulberry32;

const SYLLABLES = ['ka', 'lor', 'ven', 'tis', 'mar', 'qua', 'del', 'ori', 'sen', 'bru', 'fal', 'nix', 'pel', 'dra', 'gum', 'hol'];
const SUBJECTS = ['observatory', 'lighthouse', 'seed bank', 'glass museum', 'river lock', 'botanical garden', 'clock tower', 'salt mine'];
const FILLER = [
  'Records kept by the regional archive describe several renovations over the following decades.',
  'Local guides often mention the building when they explain how the district grew after the railway arrived.',
  'A small exhibition near the entrance shows photographs, letters and the original construction drawings.',
  'Visitors usually arrive in the late morning, when the light is best for the view across the valley.',
  'The site is managed by a foundation that publishes a short annual report on repairs and attendance.',
  'Historians still disagree about the exact cost, because two ledgers from the period give different totals.',
];

function word(random: () => number, syllables: number): string {
  let text = '';
  for (let i = 0; i < syllables; i++) text += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  return text[0]!.toUpperCase() + text.slice(1);
}

function filler(random: () => number, count: number): string {
  return Array.from({ length: count }, () => FILLER[Math.floor(random() * FILLER.length)]).join(' ');
}

/** Row i asks where thing i was built; its answer (a made-up town, unique per row) is in the three positive passages only. */
export function workloadRows(count: number, seed = 2333): WorkloadRow[] {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const subject = SUBJECTS[i % SUBJECTS.length]!;
    const founder = `${word(random, 2)} ${word(random, 3)}`;
    const answer = `${word(random, 3)}-${i}`;
    const decoyTown = `${word(random, 3)}-${i + 100_000}`;
    const year = 1800 + Math.floor(random() * 200);
    const query = `In which town did ${founder} build the ${subject} number ${i}?`;
    return {
      id: i,
      query,
      answer: [answer],
      positive: [
        `${founder} built the ${subject} number ${i} in ${answer} in ${year}. ${filler(random, 3)}`,
        `The ${subject} number ${i}, which stands in ${answer}, was the work of ${founder}. ${filler(random, 3)}`,
        `In ${year} the town of ${answer} opened the ${subject} number ${i}, designed and built by ${founder}. ${filler(random, 2)}`,
      ],
      negative: [
        `${founder} later visited ${decoyTown}, where a different ${subject} had been planned but never finished. ${filler(random, 3)}`,
        `Many towns in the region built a ${subject} in the nineteenth century; ${decoyTown} is known for the oldest one. ${filler(random, 3)}`,
      ],
    };
  });
}

/** RGB noise robustness at one noise ratio: 5 passages, 2 of them noise, the reference English prompt, exact-match (contains) scoring. */
export function ragInspectorEval(baseUrl: string, limit?: number): string {
  return `version: 1
name: promptfoo comparison
models:
  - provider: openai-compatible
    model: fixture-model
    baseUrl: ${baseUrl}
suites:
  - id: noise
    method: rgb
    dataset: data.jsonl${limit === undefined ? '' : `\n    limit: ${limit}`}
    params: { testbed: noise_robustness, noiseRates: [0.4], passageNum: 5, language: en }
`;
}

export interface PromptfooCase {
  question: string;
  /** In the order RAG Inspector's plan put them (its seeded shuffle), so both tools send the same text. */
  documents: string[];
  answer: string;
}

export interface WorkloadFiles {
  dir: string;
  evalFile: string;
  /** What promptfoo's config is built from (with each run's server address) — the cases in RAG Inspector's plan order. */
  cases: PromptfooCase[];
}

/** Writes data.jsonl and the eval file, and reads back RAG Inspector's plan to get each case's passages in the order it sends them. */
export async function writeWorkload(dir: string, count: number): Promise<WorkloadFiles> {
  mkdirSync(dir, { recursive: true });
  const rows = workloadRows(count);
  writeFileSync(path.join(dir, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  // The plan does not depend on the base URL; the measured runs get an eval file with the real one.
  const evalFile = path.join(dir, 'plan.eval.yaml');
  writeFileSync(evalFile, ragInspectorEval('http://127.0.0.1:9/v1'));
  const plan = await buildPlan(await loadEvalSpec(evalFile), new AbortController().signal);
  const planned = plan.suites.flatMap((s) => s.cases);
  if (planned.length !== count) throw new Error(`the plan has ${planned.length} cases, expected ${count}`);
  const byQuestion = new Map(rows.map((r) => [r.query, r.answer[0]!]));
  const cases = planned.map((c) => ({ question: c.question, documents: c.documents.map((d) => d.text), answer: byQuestion.get(c.question)! }));
  return { dir, evalFile, cases };
}

export const PROMPT_TEMPLATE = path.join(__dirname, 'rgb-en.njk');

/**
 * promptfoo's config: the RGB prompt as a Nunjucks chat template (promptfoo renders it per case, as RAG Inspector
 * renders its Liquid template) and an `icontains` assertion (RGB's checkanswer lowercases both sides).
 */
export function promptfooConfig(baseUrl: string, cases: PromptfooCase[]): string {
  return stringify({
    description: 'promptfoo comparison',
    prompts: [{ label: 'rgb-en', raw: readFileSync(PROMPT_TEMPLATE, 'utf8') }],
    providers: [{ id: 'openai:chat:fixture-model', config: { apiBaseUrl: baseUrl, temperature: 0.2 } }],
    tests: cases.map((c) => ({
      // One variable per passage: promptfoo expands an array variable into one test per element.
      vars: { question: c.question, ...Object.fromEntries(c.documents.map((text, i) => [`doc${i + 1}`, text])) },
      assert: [{ type: 'icontains', value: c.answer }],
    })),
  }, { lineWidth: 0 });
}
