// `rag-inspector generate-questions <eval file> --out questions.jsonl`: test questions from the eval file's `index:`
// corpus, with provenance (source chunk ids and spans) and the checks each passed. The cost plan first; progress on
// stderr; Ctrl-C keeps what finished, and running the command again goes on where it stopped.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createRunClients } from '../core/engine/clients.js';
import { InputErrors } from '../core/errors.js';
import { envCredentials } from '../core/providers/registry.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { indexRetrieverOf } from '../core/engine/retriever.js';
import { corpusChunks } from '../core/corpus/questions/corpusChunks.js';
import { formatCostPlan, planCost } from '../core/corpus/questions/costPlan.js';
import { generateQuestions } from '../core/corpus/questions/generate.js';
import type { GenerationSummary } from '../core/corpus/questions/generate.js';
import { planJobs } from '../core/corpus/questions/jobs.js';
import { appendRecord, readLedger, rejectedFileFor } from '../core/corpus/questions/ledger.js';
import { QUESTION_KINDS } from '../core/corpus/questions/model.js';
import type { QuestionKind } from '../core/corpus/questions/model.js';
import { parseModel, UsageError } from './args.js';
import type { ModelSpec } from '../core/providers/contract.js';
import { refuseOverwritingInput } from './outputFile.js';
import { createProgress } from './progress.js';
import { print } from './terminal.js';

const EXIT_OK = 0;
const EXIT_SOME_FAILED = 1;
const EXIT_CANCELLED = 130;

export const DEFAULT_DUPLICATE_THRESHOLD = 0.92;

export interface GenerateQuestionsCommand {
  evalFile: string;
  out: string;
  count: number;
  kinds: QuestionKind[];
  seed: number;
  model?: ModelSpec;
  concurrency: number;
  duplicateThreshold: number;
  planOnly: boolean;
  noCache: boolean;
  quiet: boolean;
}

const EXAMPLE = 'rag-inspector generate-questions corpus.eval.yaml --out questions.jsonl --count 40';

function whole(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`${flag} must be a whole number of at least ${min}, got '${text}'`);
  return value;
}

export function parseGenerateQuestions(argv: string[]): GenerateQuestionsCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      count: { type: 'string' },
      kinds: { type: 'string' },
      seed: { type: 'string' },
      model: { type: 'string' },
      provider: { type: 'string' },
      concurrency: { type: 'string' },
      'duplicate-threshold': { type: 'string' },
      plan: { type: 'boolean', default: false },
      'no-cache': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
  });
  const [evalFile, extra] = positionals;
  if (!evalFile) throw new UsageError(`generate-questions needs an eval file with an index: block: ${EXAMPLE}`);
  if (extra) throw new UsageError(`generate-questions takes one eval file, got also '${extra}'`);
  if (!values.out) throw new UsageError(`generate-questions needs --out <questions.jsonl> (rejected questions go beside it): ${EXAMPLE}`);
  const kinds = (values.kinds ?? QUESTION_KINDS.join(',')).split(',').map((k) => k.trim()).filter(Boolean);
  const unknown = kinds.find((k) => !(QUESTION_KINDS as readonly string[]).includes(k));
  if (unknown !== undefined || kinds.length === 0) throw new UsageError(`--kinds: ${unknown === undefined ? 'name at least one kind' : `unknown kind '${unknown}'`}: use ${QUESTION_KINDS.join(', ')} (comma-separated)`);
  const threshold = values['duplicate-threshold'] === undefined ? DEFAULT_DUPLICATE_THRESHOLD : Number(values['duplicate-threshold']);
  if (!(threshold > 0 && threshold <= 1)) throw new UsageError(`--duplicate-threshold must be a cosine between 0 and 1, e.g. 0.92; got '${values['duplicate-threshold']}'`);
  return {
    evalFile,
    out: values.out,
    count: values.count === undefined ? 20 : whole('--count', values.count, 1),
    kinds: [...new Set(kinds)] as QuestionKind[],
    seed: values.seed === undefined ? 2333 : whole('--seed', values.seed, 0),
    ...(values.model ? { model: parseModel(values.model, values.provider) } : {}),
    concurrency: values.concurrency === undefined ? 4 : whole('--concurrency', values.concurrency, 1),
    duplicateThreshold: threshold,
    planOnly: values.plan ?? false,
    noCache: values['no-cache'] ?? false,
    quiet: values.quiet ?? false,
  };
}

export interface QuestionsIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
  /** Cancels like Ctrl-C (tests); SIGINT is listened to as well. */
  signal?: AbortSignal;
}

function summaryText(summary: GenerationSummary, out: string, rejectedFile: string): string {
  const checks = Object.entries(summary.byCheck).map(([check, n]) => `${n} ${check}`).join(', ');
  return [
    `Kept ${summary.kept} question(s), rejected ${summary.rejected}${checks ? ` (${checks})` : ''}; ${summary.skipped} done by an earlier run.`,
    `Questions: ${out}\nRejected, with the reason: ${rejectedFile}`,
    'Use them as a rag suite\'s dataset (question, answer, relevant_ids) or a stress suite\'s (question, reference, retrieved_contexts).',
  ].join('\n');
}

export async function runGenerateQuestions(argv: string[], io: QuestionsIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const command = parseGenerateQuestions(argv);
  const evalFile = path.resolve(command.evalFile);
  const out = path.resolve(command.out);
  const rejectedFile = rejectedFileFor(out);
  refuseOverwritingInput(evalFile, out, '--out must name the questions file, not the eval file');
  const spec = await loadEvalSpec(evalFile);
  if (!spec.index) throw new UsageError(`${evalFile} has no index: block: generate-questions makes questions from the folder it indexes (add index: {folder: docs})`);
  if (!spec.judge) throw new UsageError(`${evalFile} has no judge: the judge checks each question (answerable from its chunks, not without them): add judge: {provider: …, model: …}`);
  const embeddingModel = spec.embeddings ?? spec.index.embeddings;
  if (!embeddingModel) throw new UsageError(`${evalFile} names no embedding model: the duplicate check compares questions by embedding; add embeddings: {provider: …, model: …} (or index.embeddings)`);
  const models = command.model ? [command.model] : spec.models;
  if (models.length === 0) throw new UsageError(`no model writes the questions: add a model to ${evalFile}'s models or give --model <provider:model>`);

  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  io.signal?.addEventListener('abort', onSigint, { once: true });
  const progress = createProgress(io.stderr, command.quiet, { unit: 'questions', counted: 'rejected' });
  let retriever: ReturnType<typeof indexRetrieverOf> | undefined;
  try {
    const corpus = await corpusChunks(spec.index, controller.signal);
    for (const problem of corpus.problems) progress.note(`warning: ${problem.format()}`);
    if (corpus.chunks.length === 0) {
      if (corpus.problems.length > 0) throw new InputErrors(corpus.problems);
      throw new Error(`the documents under ${spec.index.folder} hold no text to make questions from`);
    }
    const { jobs, shortfalls } = planJobs(corpus.chunks, command.kinds, command.count, command.seed);
    for (const shortfall of shortfalls) progress.note(`note: ${shortfall}`);
    const ledger = await readLedger(out, rejectedFile);
    const clients = await createRunClients(
      { ...spec, models: models.slice(0, 1), embeddings: embeddingModel },
      envCredentials(io.env),
      command.noCache ? undefined : path.join(path.dirname(evalFile), '.rag-inspector', 'cache'),
      undefined,
      false,
      undefined,
      (message) => progress.note(message),
    );
    const generator = clients.models[0]!;
    const judge = clients.judge!;
    const embeddings = clients.embeddings!;
    const costModels = { generator: generator.key, judge: judge.key, embeddings: embeddings.key, prices: spec.prices };
    const plan = planCost(jobs, ledger.done, costModels);
    print(io.stderr, `${formatCostPlan(plan, costModels)}\n`);
    if (command.planOnly) return EXIT_OK;
    // The unanswerable check searches the corpus as the rag method will: through the eval file's own index (built
    // first if need be, as a run builds it), so "not found" means not found by the retriever under test.
    retriever = indexRetrieverOf(spec.index, spec, io.env, { stateDir: path.join(path.dirname(evalFile), '.rag-inspector'), credentials: envCredentials(io.env), noCache: command.noCache });
    const index = retriever;
    const summary = await generateQuestions({
      jobs,
      generator: generator.client,
      judge: judge.client,
      embeddings: embeddings.client,
      search: async (question, k, signal) => (await index.retrieve({ question, k }, signal)).items.map((item) => ({ id: item.id, text: item.text })),
      signal: controller.signal,
      duplicateThreshold: command.duplicateThreshold,
      concurrency: command.concurrency,
      done: ledger.done,
      keptBefore: ledger.kept,
      onKept: (row) => appendRecord(out, row),
      onRejected: (rejected) => appendRecord(rejectedFile, rejected),
      onProgress: ({ done, total, rejected }) => progress.update(done, total, rejected),
    });
    progress.finish();
    print(io.stdout, `${summaryText(summary, out, rejectedFile)}\n`);
    const failed = summary.undecided;
    if (failed > 0) print(io.stdout, `${failed} generation(s) failed on a call or an unreadable answer, not on a check (reasons in ${rejectedFile}): run the same command again to ask them again.\n`);
    return failed > 0 ? EXIT_SOME_FAILED : EXIT_OK;
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    progress.finish();
    print(io.stderr, `cancelled: the finished questions are in ${out} and ${rejectedFile}; run the same command again to go on\n`);
    return EXIT_CANCELLED;
  } finally {
    await retriever?.close?.();
    process.off('SIGINT', onSigint);
    io.signal?.removeEventListener('abort', onSigint);
  }
}
