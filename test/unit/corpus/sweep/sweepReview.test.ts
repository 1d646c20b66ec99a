// A sweep measures the questions a run would ask: those a person dropped in review are left out, with the same note,
// and a drop on a question edited since is counted as stale, not applied.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { QuestionReviewStore, reviewLines } from '../../../../src/core/corpus/questions/review.js';
import { readSweepQuestions } from '../../../../src/core/corpus/sweep/questions.js';
import { loadEvalSpec } from '../../../../src/core/spec/load.js';

const EXAMPLE = path.resolve(__dirname, '../../../../examples/sweep');
const never = new AbortController().signal;

test('questions dropped in review are left out of the sweep and the note says how many; a stale drop is not applied', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'sweep-review-'));
  cpSync(EXAMPLE, folder, { recursive: true });
  const questionsFile = path.join(folder, 'questions.jsonl');
  const rows = readFileSync(questionsFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; question: string });
  const spec = await loadEvalSpec(path.join(folder, 'sweep.eval.yaml'));
  const before = await readSweepQuestions(spec, undefined, never);
  assert.equal(before.reviewNote, undefined);

  // q01 and q02 dropped as they read now; q03 dropped as it read before an edit (stale); q04 kept.
  const store = new QuestionReviewStore(questionsFile);
  await store.append(reviewLines([rows[0]!, rows[1]!], { decision: 'drop' }));
  await store.append(reviewLines([{ id: rows[2]!.id, question: `${rows[2]!.question} (an earlier wording)` }], { decision: 'drop' }));
  await store.append(reviewLines([rows[3]!], { decision: 'keep' }));

  const after = await readSweepQuestions(spec, undefined, never);
  assert.deepEqual(after.questions.map((q) => q.id), before.questions.map((q) => q.id).filter((id) => id !== rows[0]!.id && id !== rows[1]!.id));
  assert.equal(after.reviewNote, `2 question(s) dropped in review (${store.file}) left out of this sweep; 1 drop(s) not applied because the question was edited since it was reviewed (review it again).`);
});

test('a review file that cannot be read is named, not taken as no review', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'sweep-review-'));
  cpSync(EXAMPLE, folder, { recursive: true });
  const spec = await loadEvalSpec(path.join(folder, 'sweep.eval.yaml'));
  const review = new QuestionReviewStore(path.join(folder, 'questions.jsonl')).file;
  mkdirSync(review); // a folder where the review file should be
  await assert.rejects(readSweepQuestions(spec, undefined, never), (error: Error & { format(): string }) => error.format().startsWith(`${review}: the review file is a folder`));
});
