// Review Generated Questions: a panel on one questions file running the inspector bundle's review view, with its own
// small table of messages (read the review, keep / drop / comment, open a source chunk); reviews go to the file's
// questions.review.jsonl through core (corpus/questions/review.ts), which rag and stress runs then apply.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyReviewChange, readQuestionReview, UnknownQuestions } from '../core/corpus/questions/reviewData.js';
import { QUESTION_REVIEW_FORMAT } from '../core/corpus/questions/reviewView.js';
import type { QuestionReviewView, ReviewChange } from '../core/corpus/questions/reviewView.js';
import { REPORT_DATA_ELEMENT_ID } from '../core/report/html.js';
import { GetQuestionReview, OpenDatasetRow, SetQuestionReview } from '../protocol.js';
import type { Logger } from './outputChannel.js';
import { inspectorHtml, makeNonce, panelOptions } from './panel.js';
import { openSourceAt } from './sourceDocuments.js';
import { RequestFailure, WebviewDispatcher, onCommand, onRequest } from './webviewDispatch.js';

export const REVIEW_QUESTIONS_COMMAND = 'ragInspector.reviewQuestions';
export const QUESTION_REVIEW_VIEW_TYPE = 'ragInspector.questionReview';

/** What a caller may pass instead of a Uri: the questions file and the folders its sources are relative to (the index's). */
export interface ReviewArgs {
  file?: string;
  sourceFolders?: string[];
}

/** The review of one questions file, as the panel's messages read and change it. */
export class QuestionReviewService {
  constructor(readonly file: string, private readonly sourceFolders: readonly string[] = []) {}

  view(): Promise<QuestionReviewView> {
    return readQuestionReview(this.file, { sourceFolders: this.sourceFolders });
  }

  /** `change` was checked on arrival (SetQuestionReview's shape); an id not in the file is refused, nothing written. */
  async set(change: ReviewChange): Promise<QuestionReviewView> {
    try {
      return await applyReviewChange(this.file, change, { sourceFolders: this.sourceFolders });
    } catch (error) {
      if (error instanceof UnknownQuestions) throw new RequestFailure('not-found', error.message);
      throw error;
    }
  }
}

/** The inspector page with a data element naming the review view (no user text in it: the data comes by message). */
export function questionReviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return inspectorHtml(webview, extensionUri, makeNonce(), `\n<script type="application/json" id="${REPORT_DATA_ELEMENT_ID}">${JSON.stringify({ format: QUESTION_REVIEW_FORMAT })}</script>`);
}

/** One panel per questions file: opening it again reveals it (and reads the file again). */
export class QuestionReviewPanels implements vscode.Disposable {
  private readonly open = new Map<string, vscode.WebviewPanel>();

  constructor(private readonly extensionUri: vscode.Uri, private readonly logger: Logger) {}

  show(file: string, sourceFolders: readonly string[] = []): vscode.WebviewPanel {
    const known = this.open.get(file);
    if (known) {
      known.webview.html = questionReviewHtml(known.webview, this.extensionUri);
      known.reveal();
      return known;
    }
    const panel = vscode.window.createWebviewPanel(QUESTION_REVIEW_VIEW_TYPE, `Review: ${path.basename(file)}`, vscode.ViewColumn.Active, panelOptions(this.extensionUri));
    this.adopt(panel, file, sourceFolders);
    this.logger.info(`Review Generated Questions: ${file}`);
    return panel;
  }

  /** Gives a panel the review of `file`: its page and its table of messages (a test hands in a recording panel). */
  adopt(panel: vscode.WebviewPanel, file: string, sourceFolders: readonly string[] = []): void {
    const service = new QuestionReviewService(file, sourceFolders);
    const dispatcher = new WebviewDispatcher([
      onRequest(GetQuestionReview, () => service.view()),
      onRequest(SetQuestionReview, ({ change }) => service.set(change)),
      onCommand(OpenDatasetRow, ({ file: source, line }) => openSourceAt(source, line)),
    ], {
      post: (message) => void panel.webview.postMessage(message),
      logger: this.logger,
      commandFailed: (message) => void vscode.window.showErrorMessage(`RAG Inspector: ${message}`),
    });
    const received = panel.webview.onDidReceiveMessage((message: unknown) => void dispatcher.dispatch(message));
    panel.onDidDispose(() => {
      received.dispose();
      if (this.open.get(file) === panel) this.open.delete(file);
    });
    panel.webview.html = questionReviewHtml(panel.webview, this.extensionUri);
    this.open.set(file, panel);
  }

  dispose(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
  }
}

/** The questions file: the one passed, else the active editor's *.jsonl, else picked. */
async function questionsFileOf(arg: unknown): Promise<{ file: string; sourceFolders: string[] } | undefined> {
  if (arg instanceof vscode.Uri) return { file: arg.fsPath, sourceFolders: [] };
  const given = (typeof arg === 'object' && arg !== null ? arg : {}) as ReviewArgs;
  if (typeof given.file === 'string') return { file: path.resolve(given.file), sourceFolders: (given.sourceFolders ?? []).filter((f) => typeof f === 'string') };
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file' && active.fsPath.endsWith('.jsonl')) return { file: active.fsPath, sourceFolders: [] };
  const picked = await vscode.window.showOpenDialog({ title: 'RAG Inspector: Review Generated Questions', filters: { 'Questions (JSON Lines)': ['jsonl'] }, canSelectMany: false, openLabel: 'Review' });
  return picked?.[0] ? { file: picked[0].fsPath, sourceFolders: [] } : undefined;
}

export function activateQuestionReview(context: vscode.ExtensionContext, logger: Logger): QuestionReviewPanels {
  const panels = new QuestionReviewPanels(context.extensionUri, logger);
  context.subscriptions.push(panels, vscode.commands.registerCommand(REVIEW_QUESTIONS_COMMAND, async (arg?: unknown) => {
    const target = await questionsFileOf(arg);
    if (!target) return undefined;
    panels.show(target.file, target.sourceFolders);
    return { file: target.file };
  }));
  return panels;
}
