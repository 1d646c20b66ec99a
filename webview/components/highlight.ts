// Renders text with highlighted spans as Lit text bindings and <mark> elements — never as HTML.
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { segmentText } from '../text/segments.js';
import type { MarkSpan, Segment } from '../text/segments.js';
import type { SpanKind } from '../../src/core/model.js';

const KIND_WORDS: Record<SpanKind, string> = {
  answer: 'answer', needle: 'needle', counterfactual: 'counterfactual', evidence: 'evidence', citation: 'citation',
};

/**
 * Every piece of data goes through a text binding (`${segment.text}`) or an attribute binding, which Lit sets
 * with textContent / setAttribute; a document holding markup therefore shows the markup as characters.
 */
export function highlighted(text: string, spans: readonly MarkSpan[]): (string | TemplateResult)[] {
  return segmentText(text, spans).map((segment) => (segment.kinds.length === 0 ? segment.text : mark(segment)));
}

function mark(segment: Segment): TemplateResult {
  const title = segment.kinds.map((k) => KIND_WORDS[k]).join(' + ') + (segment.labels.length ? `: ${segment.labels.join(', ')}` : '');
  return html`<mark class=${segment.kinds.join(' ')} data-start=${segment.start} data-end=${segment.end} data-ids=${segment.ids.join(' ')} title=${title}>${segment.text}</mark>`;
}

/** Scrolls to and flashes the marks carrying `id` inside `root`; false when there is none. */
export function flashMarks(root: ParentNode, id: string): boolean {
  const marks = [...root.querySelectorAll<HTMLElement>('mark[data-ids]')].filter((m) => m.dataset.ids?.split(' ').includes(id));
  const first = marks[0];
  if (!first) return false;
  first.scrollIntoView({ block: 'center', behavior: 'auto' });
  // Only the latest link flashes: an earlier flash still fading nearby would point at the wrong text.
  for (const m of root.querySelectorAll('mark.flash')) if (!marks.includes(m as HTMLElement)) m.classList.remove('flash');
  for (const m of marks) {
    m.classList.remove('flash');
    // Reading layout restarts the animation when the same evidence is clicked twice in a row.
    void m.offsetWidth;
    m.classList.add('flash');
    setTimeout(() => m.classList.remove('flash'), 2000);
  }
  return true;
}
