// Hover on a dataset row with failed cases: what failed and why, the model's response and the scorers' explanations — all shown as text, never rendered.
import * as vscode from 'vscode';
import type { LatestEntry } from './currentResults.js';
import type { ResultsIndex } from './resultsIndex.js';
import { isFailure } from '../core/model.js';
import type { CaseEntry } from '../core/model.js';

/** A failed result to show, with its full case when the run log could be read (the response and explanations are in it). */
export type HoverEntry = LatestEntry & { full?: CaseEntry };

/** A hover is a glance; the inspector shows the rest. */
const MAX_CASES = 3;
const MAX_RESPONSE_CHARS = 2_000;

/**
 * Model output and judge explanations are untrusted text. Every ASCII punctuation mark Markdown or HTML could act on
 * is backslash-escaped (CommonMark allows that for any punctuation), so `<img …>` stays text, `[x](y)` is no link
 * and `http://` no autolink. Callers put it on one line, so no line can start a heading or a list.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|~<>&:]/g, '\\$&');
}

function line(md: vscode.MarkdownString, label: string, text: string): void {
  md.appendMarkdown(`**${label}** ${escapeMarkdown(text.replace(/\s*\n\s*/g, ' '))}\n\n`);
}

/** `entries`: the first few failures of the row, read in full; `total`: how many the row has. */
export function failureHover(entries: readonly HoverEntry[], total = entries.length): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  // No command links, no HTML: nothing in a model's output may act.
  md.isTrusted = false;
  md.supportHtml = false;
  const models = new Set(entries.map((e) => e.result.modelKey));
  for (const [i, entry] of entries.slice(0, MAX_CASES).entries()) {
    if (i > 0) md.appendMarkdown('\n\n---\n\n');
    const { evalCase } = entry;
    line(md, '✗', `${evalCase.id}${models.size > 1 ? ` on ${entry.result.modelKey}` : ''} (run ${entry.runId})`);
    line(md, 'Why:', entry.failure);
    const result = entry.full?.result;
    if (!result) continue;
    if (result.response) {
      const text = result.response.text.length > MAX_RESPONSE_CHARS ? `${result.response.text.slice(0, MAX_RESPONSE_CHARS)}…` : result.response.text;
      md.appendMarkdown(`**Response${result.response.cached ? ' (cached)' : ''}:**\n`);
      // A fenced block is never parsed as Markdown or HTML; VS Code picks a fence longer than any backtick run inside.
      md.appendCodeblock(text === '' ? '(empty)' : text, 'text');
    }
    for (const score of result.scores) {
      const verdict = score.judgeError ? `judge error — ${score.judgeError}` : `${score.pass === false ? 'failed' : score.pass === true ? 'passed' : 'no verdict'}${score.label ? ` (${score.label})` : ''}${score.explanation ? `: ${score.explanation}` : ''}`;
      line(md, `${score.metric}:`, verdict);
    }
  }
  const shown = Math.min(entries.length, MAX_CASES);
  if (total > shown) md.appendMarkdown(`\n\n${escapeMarkdown(`…and ${total - shown} more failed cases on this row (see the inspector).`)}`);
  return md;
}

export class FailureHoverProvider implements vscode.HoverProvider {
  constructor(private readonly index: ResultsIndex) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (document.uri.scheme !== 'file') return undefined;
    const failed = this.index.entriesAt(document.uri.fsPath, position.line + 1).filter((e) => isFailure(e.result));
    if (failed.length === 0) return undefined;
    // The current results hold digests; the response and explanations come from the run log, for the few shown.
    const shown = await this.index.withFullCases(failed.slice(0, MAX_CASES));
    return new vscode.Hover(failureHover(shown, failed.length), document.lineAt(position.line).range);
  }
}

export function activateHover(context: vscode.ExtensionContext, index: ResultsIndex): void {
  context.subscriptions.push(vscode.languages.registerHoverProvider({ scheme: 'file' }, new FailureHoverProvider(index)));
}
