// Test questions from an eval file's `index:` corpus, from the loaded spec to the questions file: the jobs planned,
// the cost plan shown and confirmed, the questions generated and written as they finish (a rerun goes on where the last
// stopped). (engine: it opens the model clients and the index the way a run does.) The CLI's `generate-questions`
// and VS Code's Generate Test Questions both call this.
import * as path from 'node:path';
import { createRunClients } from './clients.js';
import { indexRetrieverOf } from './retriever.js';
import { InputErrors } from '../errors.js';
import type { Credentials } from '../providers/registry.js';
import type { ModelSpec } from '../providers/contract.js';
import type { EvalSpec } from '../spec/types.js';
import { corpusChunks } from '../corpus/questions/corpusChunks.js';
import { PdfTextCache, pdfTextCacheDir } from '../corpus/pdfTextCache.js';
import { planCost } from '../corpus/questions/costPlan.js';
import type { CostModels, QuestionCostPlan } from '../corpus/questions/costPlan.js';
import { generateQuestions } from '../corpus/questions/generate.js';
import type { GenerationProgress, GenerationSummary } from '../corpus/questions/generate.js';
import { planJobs } from '../corpus/questions/jobs.js';
import { appendRecord, readLedger, rejectedFileFor } from '../corpus/questions/ledger.js';
import type { QuestionKind } from '../corpus/questions/model.js';

export const DEFAULT_DUPLICATE_THRESHOLD = 0.92;
/** How many questions, the seed that picks their chunks and how many are asked for at once unless told otherwise. */
export const QUESTION_DEFAULTS = { count: 20, seed: 2333, concurrency: 4 } as const;

/**
 * Why the eval file cannot make questions: what is missing, and words every surface can show that say what to add
 * to the eval file. A surface with its own way to name the writing model adds it (the CLI's --model).
 */
export interface QuestionSetupProblem {
  missing: 'index' | 'judge' | 'embeddings' | 'model';
  message: string;
}

/** Undefined when the eval file (with `model`, the writing model a surface chose) can make questions. */
export function questionSetupProblem(spec: EvalSpec, model: ModelSpec | undefined): QuestionSetupProblem | undefined {
  const file = spec.file;
  if (!spec.index) return { missing: 'index', message: `${file} has no index: block: test questions are made from the folder it indexes (add index: {folder: docs})` };
  if (!spec.judge) return { missing: 'judge', message: `${file} has no judge: the judge checks each question (answerable from its chunks, not without them): add judge: {provider: …, model: …}` };
  if (!(spec.embeddings ?? spec.index.embeddings)) return { missing: 'embeddings', message: `${file} names no embedding model: the duplicate check compares questions by embedding; add embeddings: {provider: …, model: …} (or index.embeddings)` };
  if (!model && spec.models.length === 0) return { missing: 'model', message: `no model writes the questions: add a model to ${file}'s models` };
  return undefined;
}

/** What to generate, and where: the CLI's flags, VS Code's defaults. */
export interface QuestionSettings {
  /** The questions file; rejected questions go beside it (rejectedFileFor). */
  out: string;
  count: number;
  kinds: QuestionKind[];
  seed: number;
  /** The model that writes the questions; the eval file's first model by default. */
  model?: ModelSpec;
  concurrency: number;
  duplicateThreshold: number;
  /** Neither read nor write the model and embedding caches. */
  noCache: boolean;
}

export interface QuestionRunOptions extends QuestionSettings {
  /** The environment a command retriever is started with. */
  env: NodeJS.ProcessEnv;
  /** Keys for the generator, judge and embeddings (env vars in the CLI, SecretStorage in VS Code). */
  credentials: Credentials;
  /** Cancels: what finished is already written; the promise rejects. */
  signal: AbortSignal;
  /** Warnings and notes on the way (unreadable documents, too few chunks for a kind, client notices). */
  onNote: (message: string) => void;
  /** The cost plan, before anything is spent: false stops there. */
  confirmPlan: (plan: QuestionCostPlan, models: CostModels) => boolean | Promise<boolean>;
  onProgress?: (progress: GenerationProgress) => void;
}

export type QuestionRunOutcome =
  | { status: 'declined'; plan: QuestionCostPlan; rejectedFile: string }
  | { status: 'done'; plan: QuestionCostPlan; summary: GenerationSummary; rejectedFile: string };

/** The spec must pass questionSetupProblem first. */
export async function runQuestionGeneration(spec: EvalSpec, options: QuestionRunOptions): Promise<QuestionRunOutcome> {
  const problem = questionSetupProblem(spec, options.model);
  if (problem) throw new Error(problem.message);
  const index = spec.index!;
  const { out, signal, onNote } = options;
  const rejectedFile = rejectedFileFor(out);
  const stateDir = path.join(path.dirname(spec.file), '.rag-inspector');
  const corpus = await corpusChunks(index, signal, new PdfTextCache(pdfTextCacheDir(stateDir)));
  for (const warning of corpus.problems) onNote(`warning: ${warning.format()}`);
  if (corpus.chunks.length === 0) {
    if (corpus.problems.length > 0) throw new InputErrors(corpus.problems);
    throw new Error(`the documents under ${index.folder} hold no text to make questions from`);
  }
  const { jobs, shortfalls } = planJobs(corpus.chunks, options.kinds, options.count, options.seed);
  for (const shortfall of shortfalls) onNote(`note: ${shortfall}`);
  const ledger = await readLedger(out, rejectedFile);
  const models = options.model ? [options.model] : spec.models.slice(0, 1);
  const clients = await createRunClients(
    { ...spec, models, embeddings: (spec.embeddings ?? index.embeddings)! },
    options.credentials,
    options.noCache ? undefined : path.join(stateDir, 'cache'),
    undefined,
    false,
    undefined,
    onNote,
  );
  const generator = clients.models[0]!;
  const judge = clients.judge!;
  const embeddings = clients.embeddings!;
  const costModels: CostModels = { generator: generator.key, judge: judge.key, embeddings: embeddings.key, prices: spec.prices };
  const plan = planCost(jobs, ledger.done, costModels);
  if (!(await options.confirmPlan(plan, costModels))) return { status: 'declined', plan, rejectedFile };
  // The unanswerable check searches the corpus as the rag method will: through the eval file's own index (built
  // first if need be, as a run builds it), so "not found" means not found by the retriever under test.
  const retriever = indexRetrieverOf(index, spec, options.env, { stateDir, credentials: options.credentials, noCache: options.noCache });
  try {
    const summary = await generateQuestions({
      jobs,
      generator: generator.client,
      judge: judge.client,
      embeddings: embeddings.client,
      search: async (question, k, searchSignal) => (await retriever.retrieve({ question, k }, searchSignal)).items.map((item) => ({ id: item.id, text: item.text })),
      signal,
      duplicateThreshold: options.duplicateThreshold,
      concurrency: options.concurrency,
      done: ledger.done,
      keptBefore: ledger.kept,
      onKept: (row) => appendRecord(out, row),
      onRejected: (rejected) => appendRecord(rejectedFile, rejected),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    return { status: 'done', plan, summary, rejectedFile };
  } finally {
    await retriever.close?.();
  }
}
