// How a document's text is cut from a longer shared text (a needle context is a slice of the one haystack with the
// needles put in), told by the suite that built it so the run log can store the shared text once and each case as
// its pieces. A side table rather than a field of the document: the layout holds the whole shared text, which must
// never reach a JSON.stringify of the case (the webview, the reports).

import type { CaseDocument } from './model.js';

/** A piece of a laid-out text: literal text, or the UTF-16 range [start, end) of the shared text. */
export type LayoutPiece = string | { start: number; end: number };

export interface TextLayout {
  /** The shared text the ranges point into (the same string for every case that shares it). */
  base: string;
  pieces: LayoutPiece[];
}

const layouts = new WeakMap<CaseDocument, TextLayout>();

/** Records that `document.text` is `layout`; the run log checks it (see layoutOf) before relying on it. */
export function setLayout(document: CaseDocument, layout: TextLayout): void {
  layouts.set(document, layout);
}

/** The document's layout, if its suite gave one and it still rebuilds the document's text exactly. */
export function layoutOf(document: CaseDocument): TextLayout | undefined {
  const layout = layouts.get(document);
  if (!layout || buildLayout(layout) !== document.text) return undefined;
  return layout;
}

export function buildLayout(layout: TextLayout): string {
  let text = '';
  for (const piece of layout.pieces) text += typeof piece === 'string' ? piece : layout.base.slice(piece.start, piece.end);
  return text;
}
