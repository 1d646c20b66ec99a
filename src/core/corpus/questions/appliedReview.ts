// A questions file's review applied to a reading of its rows: which rows a person dropped (left out), which drops went
// stale (the question was edited since: counted, not applied), and the sentence that says so. One implementation for
// runs (engine/plan.ts) and sweeps (corpus/sweep/questions.ts), so both leave out the same questions.
import { InputError } from '../../errors.js';
import { regularFileProblem } from '../../regularFile.js';
import { QuestionReviewStore } from './review.js';
import type { ReviewIndex } from './review.js';

export interface AppliedReview {
  file: string;
  index: ReviewIndex;
  /** Dataset lines left out (dropped in review). */
  dropped: Set<number>;
  /** Dataset lines whose drop was not applied: their question changed since the review. */
  stale: Set<number>;
}

/** The questions file's review when it has one (a missing review file is no review; any other problem is named). */
export async function readAppliedReview(questionsFile: string): Promise<AppliedReview | undefined> {
  const store = new QuestionReviewStore(questionsFile);
  const problem = await regularFileProblem(store.file);
  if (problem?.kind === 'missing') return undefined;
  if (problem) throw new InputError({ file: store.file }, `the review file ${problem.says}`, 'remove it or replace it by the review file the inspector writes');
  return { file: store.file, index: await store.latest(), dropped: new Set(), stale: new Set() };
}

/** Whether the row (by its key, question and dataset line) was dropped in review; records the drop or its staleness. */
export function droppedInReview(review: AppliedReview, key: string, question: string, line: number): boolean {
  const current = review.index.lookup(key, question);
  if (current?.decision !== 'drop') return false;
  (current.stale ? review.stale : review.dropped).add(line);
  return !current.stale;
}

/** What a run or sweep says about the review: how many questions were left out and why; undefined when none was. */
export function reviewNote(review: AppliedReview | undefined, what = 'this run'): string | undefined {
  if (!review || (review.dropped.size === 0 && review.stale.size === 0)) return undefined;
  const stale = review.stale.size > 0 ? `; ${review.stale.size} drop(s) not applied because the question was edited since it was reviewed (review it again)` : '';
  return `${review.dropped.size} question(s) dropped in review (${review.file}) left out of ${what}${stale}.`;
}
