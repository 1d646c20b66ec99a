// Document labels shown to the model, and the tolerant rule that finds which documents a response cites.

/** Named in explanations and report notes. */
export const CITATION_RULE_NAME = 'document-number rule';

export const CITATION_RULE = `${CITATION_RULE_NAME}: a document N is cited when the response contains its label exactly as shown `
  + '(any case, not followed by another digit), or the word Document/Doc (or the label\'s own word), singular or plural, '
  + 'optionally followed by ".", "ID", ":" or "#", then the number N, optionally in brackets; a list after the word '
  + '("Documents 2 and 5", "Docs 2, 5") cites each number. "Document 3", "[Document 3]", "Doc 3", "doc. #3" and '
  + '"Document ID: 3" all cite document 3; a bare "3" cites nothing.';

/** "[Document {n}]" → "[Document 3]". */
export function documentLabel(idFormat: string, number: number): string {
  return idFormat.replace('{n}', String(number));
}

export interface Citation {
  /** The 1-based document number cited. */
  number: number;
  /** UTF-16 offsets of the citation in the response, end exclusive. */
  start: number;
  end: number;
  text: string;
}

export interface CitationReading {
  /** Citations of documents that exist (1..count), in response order. */
  citations: Citation[];
  /** Numbers cited that name no document (e.g. "Document 12" of 10). */
  unknown: number[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The word the label format uses before the number ("Passage" in "Passage {n}"), if any. */
function formatWord(idFormat: string): string | undefined {
  const before = idFormat.slice(0, idFormat.indexOf('{n}'));
  return /([A-Za-z]+)\W*$/.exec(before)?.[1]?.toLowerCase();
}

/** Word forms: "Document 3", "Doc. #3", "Document ID: 3", "documents [2] and [5]". */
function wordPattern(idFormat: string): RegExp {
  const words = new Set(['document', 'doc']);
  const own = formatWord(idFormat);
  if (own) words.add(own);
  const word = `(?:${[...words].map(escapeRegExp).join('|')})s?`;
  const number = String.raw`\[?\s*\d+\s*\]?`;
  const list = String.raw`(?:\s*(?:,|&|\band\b)\s*#?\s*${number})*`;
  return new RegExp(String.raw`\b${word}\b\.?\s*(?:\bid\b\s*)?[:#]?\s*${number}${list}`, 'gi');
}

/**
 * "ID" and "Doc" hold no digits, so every digit run in a match is a number. The first one is what the word names
 * (kept even when no such document exists, to say so); later ones count only when they name a document, so that
 * "Document 2, 1969 …" cites document 2 and says nothing about 1969.
 */
function wordHits(response: string, idFormat: string, count: number): Citation[] {
  const hits: Citation[] = [];
  for (const match of response.matchAll(wordPattern(idFormat))) {
    const start = match.index;
    const text = match[0];
    for (const [i, digits] of [...text.matchAll(/\d+/g)].entries()) {
      const number = Number(digits[0]);
      if (i > 0 && (number < 1 || number > count)) continue;
      hits.push({ number, start, end: start + text.length, text });
    }
  }
  return hits;
}

/** The label exactly as shown (any case), for formats with no word in them ("【{n}】"); never "Doc 1" inside "Doc 12". */
function labelHits(response: string, idFormat: string, count: number): Citation[] {
  const lower = response.toLowerCase();
  const hits: Citation[] = [];
  for (let number = 1; number <= count; number++) {
    const label = documentLabel(idFormat, number).toLowerCase();
    const digitEnd = /\d$/.test(label);
    for (let at = lower.indexOf(label); at !== -1; at = lower.indexOf(label, at + 1)) {
      if (digitEnd && /\d/.test(lower[at + label.length] ?? '')) continue;
      hits.push({ number, start: at, end: at + label.length, text: response.slice(at, at + label.length) });
    }
  }
  return hits;
}

/** One hit per (number, place): a label hit inside a word hit for the same number is the same citation. */
function dedupe(hits: Citation[]): Citation[] {
  const sorted = [...hits].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Citation[] = [];
  for (const hit of sorted) {
    const covered = kept.some((k) => k.number === hit.number && k.start <= hit.start && hit.end <= k.end);
    if (!covered) kept.push(hit);
  }
  return kept;
}

/** Every document the response cites by the document-number rule, split into existing and non-existent numbers. */
export function findCitations(response: string, idFormat: string, count: number): CitationReading {
  const hits = dedupe([...wordHits(response, idFormat, count), ...labelHits(response, idFormat, count)]);
  const exists = (n: number) => n >= 1 && n <= count;
  return {
    citations: hits.filter((hit) => exists(hit.number)),
    unknown: [...new Set(hits.filter((hit) => !exists(hit.number)).map((hit) => hit.number))],
  };
}
