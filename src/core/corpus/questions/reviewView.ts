// What the review of generated questions shows and sends (pure shapes and counts: the webview bundles this file).

/** The data element's format in the review panel's page: the inspector bundle draws the review view and asks the host for the data. */
export const QUESTION_REVIEW_FORMAT = 'rag-inspector/question-review';

export type ReviewDecision = 'keep' | 'drop';

/** A question's review as it stands now. */
export interface CurrentReview {
  decision: ReviewDecision | null;
  comment?: string;
  at: string;
  /** The question's text changed since it was reviewed: shown, but not applied (the question runs). */
  stale: boolean;
}

/** Keep / drop (decision null: a comment only, so the comment is then required) on the questions with these ids. */
export interface ReviewChange {
  ids: string[];
  decision: ReviewDecision | null;
  comment?: string;
}

/** A source chunk of a question, as file:lines; `open` when the file was found (its first line). */
export interface QuestionSource {
  label: string;
  open?: { file: string; line: number };
}

export interface ReviewedQuestion {
  /** The row's key (its id, else its position): what a review is kept under. */
  id: string;
  line: number;
  kind: string;
  question: string;
  reference: string;
  /** The checks it passed, each with its outcome in words. */
  checks: { name: string; outcome: string }[];
  sources: QuestionSource[];
  review?: CurrentReview;
}

/** A generation that was not kept, shown read-only with its reason. */
export interface RejectedView {
  line: number;
  kind: string;
  question?: string;
  reason: string;
  check: string;
}

export interface ReviewProblem {
  file: string;
  line?: number;
  message: string;
  hint?: string;
}

export interface QuestionReviewView {
  file: string;
  reviewFile: string;
  rejectedFile: string;
  questions: ReviewedQuestion[];
  rejected: RejectedView[];
  /** Lines of the questions (or rejected) file that could not be read, each at its file:line; the others are shown. */
  problems: ReviewProblem[];
}

export type ReviewState = 'kept' | 'dropped' | 'unreviewed' | 'stale';

/** A stale review is its own state: the question runs, as if unreviewed, until it is reviewed again. */
export function reviewStateOf(question: Pick<ReviewedQuestion, 'review'>): ReviewState {
  const review = question.review;
  if (!review || review.decision === null) return review?.stale ? 'stale' : 'unreviewed';
  if (review.stale) return 'stale';
  return review.decision === 'keep' ? 'kept' : 'dropped';
}

export function reviewCounts(questions: readonly Pick<ReviewedQuestion, 'review'>[]): Record<ReviewState, number> {
  const counts: Record<ReviewState, number> = { kept: 0, dropped: 0, unreviewed: 0, stale: 0 };
  for (const question of questions) counts[reviewStateOf(question)] += 1;
  return counts;
}
