// The prompt exactly as sent: every message with its role, as text (a very long one in the virtualised viewer).
import { LitElement, css, html } from 'lit';
import type { ChatMessage } from '../../src/core/model.js';
import { baseStyles } from './sharedStyles.js';
import { LONG_MESSAGE } from '../text/limits.js';
import { formatCount } from './format.js';
import './longText.js';

export class PromptMessages extends LitElement {
  static override properties = { messages: { attribute: false } };
  messages: ChatMessage[] = [];

  static override styles = [baseStyles, css`
    :host { display: block; }
    ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5em; }
    li { border: 1px solid var(--vscode-widget-border, transparent); border-radius: 3px; }
    .role {
      padding: 0.2em 0.75em; font-weight: 600; text-transform: uppercase; font-size: 0.85em; letter-spacing: 0.04em;
      border-bottom: 1px solid var(--vscode-widget-border, transparent);
      color: var(--vscode-descriptionForeground);
    }
    pre {
      margin: 0; padding: 0.5em 0.75em; max-height: 24em; overflow: auto;
      white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext;
      background: var(--vscode-textCodeBlock-background);
    }
    ri-long-text { --ri-long-text-height: 24em; }
  `];

  override render() {
    if (this.messages.length === 0) return html`<p class="muted">No messages were rendered for this case.</p>`;
    return html`<ol>${this.messages.map((m, i) => html`<li data-role=${m.role}>
      <div class="role">${i + 1}. ${m.role}</div>
      ${m.content.length > LONG_MESSAGE
        ? html`<ri-long-text class="mono" label=${`${m.role} message, ${formatCount(m.content.length)} characters`} .text=${m.content}></ri-long-text>`
        : html`<pre class="mono" tabindex="0" aria-label=${`${m.role} message`}>${m.content}</pre>`}
    </li>`)}</ol>`;
  }
}

customElements.define('ri-prompt-messages', PromptMessages);

declare global {
  interface HTMLElementTagNameMap { 'ri-prompt-messages': PromptMessages }
}
