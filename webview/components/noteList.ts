// Renders method notes (a badge plus a reason) under a document card or a score; tone shows as glyph, colour and border.
import { css, html, nothing } from 'lit';
import type { CardNote } from '../state/cardNotes.js';

export const noteStyles = css`
  ul.notes { list-style: none; margin: 0; padding: 0.3em 0.75em; display: grid; gap: 0.25em; }
  .note { display: flex; flex-wrap: wrap; gap: 0.2em 0.6em; align-items: baseline; }
  .note .tag {
    font-weight: 600; white-space: nowrap; padding: 0 0.4em; border-radius: 2px;
    border: 1px solid currentColor;
  }
  .note.pass .tag { color: var(--vscode-testing-iconPassed); }
  .note.fail .tag { color: var(--vscode-testing-iconFailed); }
  .note.warn .tag { color: var(--vscode-editorWarning-foreground); }
  .note.info .tag { color: var(--vscode-textLink-foreground); }
  .note .why { color: var(--vscode-descriptionForeground); overflow-wrap: anywhere; unicode-bidi: plaintext; }
`;

export function renderNotes(notes: readonly CardNote[] | undefined) {
  if (!notes?.length) return nothing;
  return html`<ul class="notes">${notes.map((n) => html`<li class="note ${n.tone}" data-kind=${n.kind}>
    <span class="tag">${n.badge}</span>${n.text ? html`<span class="why">${n.text}</span>` : nothing}
  </li>`)}</ul>`;
}
