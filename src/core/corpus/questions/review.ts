// A person's review of generated questions: keep or drop (and an optional comment) per question, appended to
// `questions.review.jsonl` beside the questions file. Keyed by the row's key (its id) and a hash of the question's
// text, so an edited question shows its review as stale and a stale review is no longer applied. Newest line wins.
import { createHash } from 'node:crypto';
import { AppendOnlyJsonl } from '../../appendOnlyJsonl.js';
import { besideQuestions } from './ledger.js';
import type { CurrentReview, ReviewChange, ReviewDecision } from './reviewView.js';

/** One line of the review file. */
export interface QuestionReviewLine {
  type: 'question-review';
  /** The row's key in the questions file (its id, else its position). */
  id: string;
  /** sha256 of the question's text as reviewed. */
  question: string;
  /** null: a comment only; the earlier decision on the same text stands. */
  decision: ReviewDecision | null;
  comment?: string;
  at: string;
}

/** `questions.jsonl` → `questions.review.jsonl`, beside it. */
export function reviewFileFor(questionsFile: string): string {
  return besideQuestions(questionsFile, 'review');
}

export function questionHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function isReviewLine(value: unknown): value is QuestionReviewLine {
  const v = value as Partial<QuestionReviewLine> | null;
  return typeof v === 'object' && v !== null && v.type === 'question-review' && typeof v.id === 'string' && typeof v.question === 'string'
    && (v.decision === null || v.decision === 'keep' || v.decision === 'drop') && (v.comment === undefined || typeof v.comment === 'string') && typeof v.at === 'string';
}

export class QuestionReviewStore extends AppendOnlyJsonl<QuestionReviewLine> {
  constructor(questionsFile: string) {
    super(reviewFileFor(questionsFile), isReviewLine);
  }

  async latest(): Promise<ReviewIndex> {
    return new ReviewIndex(await this.lines());
  }
}

/** The newest review per question; a comment alone keeps the decision, a decision alone keeps the comment (same text). */
export class ReviewIndex {
  private readonly byId = new Map<string, QuestionReviewLine>();

  constructor(lines: readonly QuestionReviewLine[]) {
    for (const line of lines) {
      const before = this.byId.get(line.id);
      const same = before !== undefined && before.question === line.question;
      this.byId.set(line.id, {
        ...line,
        decision: line.decision ?? (same ? before.decision : null),
        ...(line.comment === undefined && same && before.comment !== undefined ? { comment: before.comment } : {}),
      });
    }
  }

  /** The review of this question; stale when its text changed since (shown, never applied). */
  lookup(id: string, questionText: string): CurrentReview | undefined {
    const line = this.byId.get(id);
    if (!line) return undefined;
    return { decision: line.decision, ...(line.comment !== undefined ? { comment: line.comment } : {}), at: line.at, stale: line.question !== questionHash(questionText) };
  }

  get size(): number {
    return this.byId.size;
  }
}

/** The lines a change appends: one per question, in order. */
export function reviewLines(questions: readonly { id: string; question: string }[], change: Omit<ReviewChange, 'ids'>, at = new Date().toISOString()): QuestionReviewLine[] {
  return questions.map(({ id, question }) => ({
    type: 'question-review',
    id,
    question: questionHash(question),
    decision: change.decision,
    ...(change.comment !== undefined ? { comment: change.comment } : {}),
    at,
  }));
}
