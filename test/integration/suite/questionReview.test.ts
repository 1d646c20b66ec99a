// Review Generated Questions in the real extension host: the command opens the review panel on a questions file, keep
// and drop set through the panel's own message path are written to questions.review.jsonl, a question not in the file
// is refused with nothing written, and the panel opened again shows the reviews.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GetQuestionReview, SetQuestionReview } from '../../../src/protocol.js';
import type { Envelope, QuestionReviewView } from '../../../src/protocol.js';
import { reviewCounts } from '../../../src/core/corpus/questions/reviewView.js';
import { activatedExtension } from './extensionHost.js';
import { recordingPanel } from './builders.js';
import { workspaceFolder } from './inlineFixtures.js';
import { eventually } from './eventually.js';

const REVIEW = 'ragInspector.reviewQuestions';

const reviewTabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs)
  .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('ragInspector.questionReview'));

suite('Review Generated Questions', () => {
  let lab: string;
  let questions: string;

  suiteSetup(async () => {
    const { extension } = await activatedExtension();
    lab = path.join(workspaceFolder().fsPath, 'question-review');
    mkdirSync(path.join(lab, 'docs'), { recursive: true });
    const example = path.join(extension.extensionPath, 'examples', 'corpus');
    for (const file of readdirSync(path.join(example, 'docs')).filter((f) => f.endsWith('.md'))) cpSync(path.join(example, 'docs', file), path.join(lab, 'docs', file));
    questions = path.join(lab, 'questions.jsonl');
    cpSync(path.join(example, 'questions.jsonl'), questions);
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(() => {
    rmSync(lab, { recursive: true, force: true });
  });

  test('the command opens the review panel on the questions file', async function () {
    this.timeout(30_000);
    const opened = await vscode.commands.executeCommand<{ file: string }>(REVIEW, vscode.Uri.file(questions));
    assert.deepEqual(opened, { file: questions });
    await eventually('the review panel', () => reviewTabs().length === 1, 10_000, () => reviewTabs().map((tab) => tab.label));
    assert.equal(reviewTabs()[0]!.label, 'Review: questions.jsonl');
  });

  test('keep and drop through the panel\'s messages are written beside the file; reopened, the panel shows them', async function () {
    this.timeout(30_000);
    const { testing } = await activatedExtension();
    const reviewFile = path.join(lab, 'questions.review.jsonl');
    rmSync(reviewFile, { force: true });
    const answer = (posted: unknown[]) => posted.at(-1) as Envelope & { result?: QuestionReviewView };

    const first = recordingPanel(vscode.Uri.file('/ext'));
    testing.questionReviews.adopt(first.panel, questions, [path.join(lab, 'docs')]);
    assert.match(first.panel.webview.html, /rag-inspector\/question-review/);
    await first.send(GetQuestionReview.create(1, {}), 1);
    const view = answer(first.posted).result!;
    assert.equal(view.questions.length, 11);
    assert.deepEqual(reviewCounts(view.questions), { kept: 0, dropped: 0, unreviewed: 11, stale: 0 });
    // The first question's evidence is in membership.md, found in the index's folder and shown by its lines.
    assert.match(view.questions[0]!.sources[0]!.label, /^membership\.md:\d+(-\d+)?$/);
    assert.equal(view.questions[0]!.sources[0]!.open?.file, path.join(lab, 'docs', 'membership.md'));

    await first.send(SetQuestionReview.create(2, { change: { ids: ['q01', 'q02'], decision: 'drop' } }), 1);
    await first.send(SetQuestionReview.create(3, { change: { ids: ['q03'], decision: 'keep', comment: 'a good one' } }), 1);
    assert.deepEqual(reviewCounts(answer(first.posted).result!.questions), { kept: 1, dropped: 2, unreviewed: 8, stale: 0 });
    const lines = readFileSync(reviewFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; decision: string });
    assert.deepEqual(lines.map((l) => [l.id, l.decision]), [['q01', 'drop'], ['q02', 'drop'], ['q03', 'keep']]);

    // A question the file no longer has: refused, nothing written; a change without a decision needs a comment.
    await first.send(SetQuestionReview.create(4, { change: { ids: ['q99'], decision: 'drop' } }), 1);
    assert.equal(answer(first.posted).error?.code, 'not-found');
    await first.send({ kind: 'request', method: SetQuestionReview.method, id: 5, params: { change: { ids: ['q04'], decision: null } } }, 1);
    assert.equal(answer(first.posted).error?.code, 'bad-request');
    assert.equal(readFileSync(reviewFile, 'utf8').trim().split('\n').length, 3);
    first.panel.dispose();

    const again = recordingPanel(vscode.Uri.file('/ext'));
    testing.questionReviews.adopt(again.panel, questions, [path.join(lab, 'docs')]);
    await again.send(GetQuestionReview.create(1, {}), 1);
    const reopened = answer(again.posted).result!;
    const byId = new Map(reopened.questions.map((q) => [q.id, q.review]));
    assert.equal(byId.get('q01')?.decision, 'drop');
    assert.equal(byId.get('q02')?.decision, 'drop');
    assert.deepEqual([byId.get('q03')?.decision, byId.get('q03')?.comment], ['keep', 'a good one']);
    assert.equal(byId.get('q04'), undefined);
    assert.ok(existsSync(reviewFile));
    again.panel.dispose();
  });
});
