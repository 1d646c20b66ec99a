// Locates judge-quoted text in the case's documents as exact spans, so the inspector can highlight what supports a claim.
import type { CaseDocument, Evidence } from '../../model.js';

/**
 * The first exact occurrence of `quote` in the documents, in document order. Exact on purpose: a paraphrase the
 * judge produced is not evidence of where the text is, so it is reported as not located instead of guessed at.
 * Surrounding whitespace is ignored (judges often add a trailing space or newline); nothing else is.
 */
export function locateQuote(documents: readonly CaseDocument[], quote: string | null | undefined): Evidence | undefined {
  const needle = quote?.trim();
  if (!needle) return undefined;
  for (const document of documents) {
    const start = document.text.indexOf(needle);
    if (start !== -1) return { documentId: document.id, start, end: start + needle.length, text: needle };
  }
  return undefined;
}

/** Like locateQuote, but only in one document (a per-context NLI call quotes from that context). */
export function locateQuoteIn(document: CaseDocument, quote: string | null | undefined): Evidence | undefined {
  return locateQuote([document], quote);
}
