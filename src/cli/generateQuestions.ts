// `rag-inspector generate-questions <eval file> --out questions.jsonl`: test questions from the eval file's `index:`
// corpus, with provenance (source chunk ids and spans) and the checks each passed. The cost plan first; progress on
// stderr; Ctrl-C keeps what finished, and running the command again goes on where it stopped.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { envCredentials } from '../core/providers/registry.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { formatCostPlan } from '../core/corpus/questions/costPlan.js';
import type { GenerationSummary } from '../core/corpus/questions/generate.js';
import { rejectedFileFor } from '../core/corpus/questions/ledger.js';
import { reviewFileFor } from '../core/corpus/questions/review.js';
import { QUESTION_KINDS } from '../core/corpus/questions/model.js';
import type { QuestionSettings } from '../core/engine/questionRun.js';
import type { QuestionKind } from '../core/corpus/questions/model.js';
import { DEFAULT_DUPLICATE_THRESHOLD, QUESTION_DEFAULTS, questionSetupProblem, runQuestionGeneration } from '../core/engine/questionRun.js';
import { parseModel, UsageError } from './args.js';
import { refuseOverwritingInput } from './outputFile.js';
import { createProgress } from './progress.js';
import { print } from './terminal.js';

const EXIT_OK = 0;
const EXIT_SOME_FAILED = 1;
const EXIT_CANCELLED = 130;


export interface GenerateQuestionsCommand extends QuestionSettings {
  evalFile: string;
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
    count: values.count === undefined ? QUESTION_DEFAULTS.count : whole('--count', values.count, 1),
    kinds: [...new Set(kinds)] as QuestionKind[],
    seed: values.seed === undefined ? QUESTION_DEFAULTS.seed : whole('--seed', values.seed, 0),
    ...(values.model ? { model: parseModel(values.model, values.provider) } : {}),
    concurrency: values.concurrency === undefined ? QUESTION_DEFAULTS.concurrency : whole('--concurrency', values.concurrency, 1),
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
    `Review them in VS Code (RAG Inspector: Review Generated Questions, on ${path.basename(out)}): keep (y) / drop (x) / comment (c) go to ${reviewFileFor(out)}, and rag and stress runs of this file leave the dropped ones out.`,
  ].join('\n');
}

export async function runGenerateQuestions(argv: string[], io: QuestionsIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const command = parseGenerateQuestions(argv);
  const evalFile = path.resolve(command.evalFile);
  const out = path.resolve(command.out);
  const rejectedFile = rejectedFileFor(out);
  refuseOverwritingInput(evalFile, out, '--out must name the questions file, not the eval file');
  const spec = await loadEvalSpec(evalFile);
  const problem = questionSetupProblem(spec, command.model);
  if (problem) throw new UsageError(problem.missing === 'model' ? `${problem.message}, or give --model <provider:model>` : problem.message);

  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  io.signal?.addEventListener('abort', onSigint, { once: true });
  const progress = createProgress(io.stderr, command.quiet, { unit: 'questions', counted: 'rejected' });
  try {
    const outcome = await runQuestionGeneration(spec, {
      out,
      count: command.count,
      kinds: command.kinds,
      seed: command.seed,
      ...(command.model ? { model: command.model } : {}),
      concurrency: command.concurrency,
      duplicateThreshold: command.duplicateThreshold,
      noCache: command.noCache,
      env: io.env,
      credentials: envCredentials(io.env),
      signal: controller.signal,
      onNote: (message) => progress.note(message),
      confirmPlan: (plan, models) => {
        print(io.stderr, `${formatCostPlan(plan, models)}\n`);
        return !command.planOnly;
      },
      onProgress: ({ done, total, rejected }) => progress.update(done, total, rejected),
    });
    if (outcome.status === 'declined') return EXIT_OK;
    progress.finish();
    print(io.stdout, `${summaryText(outcome.summary, out, rejectedFile)}\n`);
    const failed = outcome.summary.undecided;
    if (failed > 0) print(io.stdout, `${failed} generation(s) failed on a call or an unreadable answer, not on a check (reasons in ${rejectedFile}): run the same command again to ask them again.\n`);
    return failed > 0 ? EXIT_SOME_FAILED : EXIT_OK;
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    progress.finish();
    print(io.stderr, `cancelled: the finished questions are in ${out} and ${rejectedFile}; run the same command again to go on\n`);
    return EXIT_CANCELLED;
  } finally {
    process.off('SIGINT', onSigint);
    io.signal?.removeEventListener('abort', onSigint);
  }
}
