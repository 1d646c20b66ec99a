// Reads a questions file, its rejected file and its review file into what the review of generated questions shows:
// each question with its checks, its source chunks as file:lines and its review; a line that cannot be read is a
// problem at its file:line and the others are still shown.
import * as path from 'node:path';
import type { InputError } from '../../errors.js';
import { readDataset } from '../../data/readDataset.js';
import { linesAt } from '../../data/textPosition.js';
import { rowKey } from '../../data/rowIds.js';
import { readRegularFile } from '../../regularFile.js';
import { rejectedFileFor } from './ledger.js';
import { QuestionReviewStore, reviewFileFor, reviewLines } from './review.js';
import type { ReviewIndex } from './review.js';
import type { QuestionReviewView, QuestionSource, RejectedView, ReviewChange, ReviewedQuestion, ReviewProblem } from './reviewView.js';

/** A source file is read whole to turn char ranges into lines; a corpus file above this is shown by chars. */
const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

export interface ReviewDataOptions {
  /** Folders a span's file may be relative to (the index's folder first), after the questions file's own folder. */
  sourceFolders?: readonly string[];
}

const problemOf = (error: InputError): ReviewProblem => ({
  file: error.position.file,
  ...(error.position.line !== undefined ? { line: error.position.line } : {}),
  message: error.message,
  ...(error.hint ? { hint: error.hint } : {}),
});

const text = (value: unknown): string => (typeof value === 'string' ? value : Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(' | ') : '');

export async function readQuestionReview(file: string, options: ReviewDataOptions = {}): Promise<QuestionReviewView> {
  const questionsFile = path.resolve(file);
  const folders = [...(options.sourceFolders ?? []), path.dirname(questionsFile)];
  const sources = new SourceLines(folders);
  const reviews = await new QuestionReviewStore(questionsFile).latest();
  const view: QuestionReviewView = { file: questionsFile, reviewFile: reviewFileFor(questionsFile), rejectedFile: rejectedFileFor(questionsFile), questions: [], rejected: [], problems: [] };
  for await (const item of readDataset(questionsFile)) {
    if (!item.ok) {
      view.problems.push(problemOf(item.error));
      continue;
    }
    for (const problem of item.problems ?? []) view.problems.push(problemOf(problem));
    view.questions.push(await questionOf(item.row.data, rowKey(item.row), item.row.ref.line, reviews, sources));
  }
  view.rejected = await readRejected(view.rejectedFile, view.problems);
  return view;
}

/** A question the change names is not in the file (edited meanwhile): nothing is written. */
export class UnknownQuestions extends Error {
  constructor(readonly ids: string[], file: string) {
    super(`no question ${ids.join(', ')} in ${path.basename(file)}: it was edited meanwhile; the review is shown again`);
    this.name = 'UnknownQuestions';
  }
}

/** Appends the change's review lines (against the questions' texts as they are now) and reads the review again. */
export async function applyReviewChange(file: string, change: ReviewChange, options: ReviewDataOptions = {}): Promise<QuestionReviewView> {
  const byId = new Map((await readQuestionReview(file, options)).questions.map((q) => [q.id, q]));
  const unknown = change.ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) throw new UnknownQuestions(unknown, file);
  const questions = change.ids.map((id) => byId.get(id)!);
  await new QuestionReviewStore(path.resolve(file)).append(reviewLines(questions, { decision: change.decision, ...(change.comment !== undefined ? { comment: change.comment } : {}) }));
  return readQuestionReview(file, options);
}

async function questionOf(data: Record<string, unknown>, id: string, line: number, reviews: ReviewIndex, sources: SourceLines): Promise<ReviewedQuestion> {
  const question = text(data.question ?? data.user_input);
  const checks = typeof data.checks === 'object' && data.checks !== null ? Object.entries(data.checks as Record<string, unknown>).map(([name, outcome]) => ({ name, outcome: text(outcome) })) : [];
  const review = reviews.lookup(id, question);
  return {
    id,
    line,
    kind: text(data.kind) || 'question',
    question,
    reference: text(data.reference ?? data.answer),
    checks,
    sources: await sources.of(data),
    ...(review ? { review } : {}),
  };
}

async function readRejected(file: string, problems: ReviewProblem[]): Promise<RejectedView[]> {
  const rejected: RejectedView[] = [];
  for await (const item of readDataset(file)) {
    if (!item.ok) {
      // No rejected file is no rejected question, not a problem.
      if (item.error.position.line !== undefined) problems.push(problemOf(item.error));
      continue;
    }
    const { data } = item.row;
    rejected.push({ line: item.row.ref.line, kind: text(data.kind), ...(typeof data.question === 'string' ? { question: data.question } : {}), reason: text(data.reason), check: text(data.check) });
  }
  return rejected;
}

/** The source chunks of a question as file:lines, reading each source file once. */
class SourceLines {
  private readonly texts = new Map<string, Promise<{ path: string; text: string } | undefined>>();

  constructor(private readonly folders: readonly string[]) {}

  async of(data: Record<string, unknown>): Promise<QuestionSource[]> {
    const spans = Array.isArray(data.relevant_spans) ? data.relevant_spans as unknown[] : [];
    const out: QuestionSource[] = [];
    for (const span of spans) {
      const { file, start, end } = (span ?? {}) as { file?: unknown; start?: unknown; end?: unknown };
      if (typeof file !== 'string' || typeof start !== 'number' || typeof end !== 'number') continue;
      const source = await this.read(file);
      if (!source) {
        out.push({ label: `${file} (chars ${start}–${end}; file not found)` });
        continue;
      }
      const [first = 1, last = 1] = linesAt(source.text, [start, Math.max(start, end - 1)]);
      out.push({ label: first === last ? `${file}:${first}` : `${file}:${first}-${last}`, open: { file: source.path, line: first } });
    }
    if (out.length === 0 && Array.isArray(data.relevant_ids)) {
      for (const id of data.relevant_ids) if (typeof id === 'string') out.push({ label: id });
    }
    return out;
  }

  private read(file: string): Promise<{ path: string; text: string } | undefined> {
    let found = this.texts.get(file);
    if (!found) {
      found = this.find(file);
      this.texts.set(file, found);
    }
    return found;
  }

  private async find(file: string): Promise<{ path: string; text: string } | undefined> {
    // A relative span stays inside the folder it is relative to (a questions file from elsewhere names no file outside).
    const inside = (folder: string, target: string) => !path.relative(folder, target).startsWith('..');
    const candidates = path.isAbsolute(file) ? [file] : this.folders.map((folder) => path.resolve(folder, file)).filter((target, i) => inside(this.folders[i]!, target));
    for (const candidate of candidates) {
      try {
        return { path: candidate, text: (await readRegularFile(candidate, MAX_SOURCE_BYTES)).toString('utf8') };
      } catch {
        // Not in this folder (or not readable): try the next.
      }
    }
    return undefined;
  }
}
