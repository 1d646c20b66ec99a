// Sentence segmentation for context relevance: how many sentences a context holds and how many the judge extracted.
// The reference (ragas context_relevancy) counts with pysbd's English segmenter, so this is the same rule set
// (pysbd/segmenter.ts): "Dr." or "e.g." do not end a sentence, numbers, quotes and list items are handled as pysbd does.
import { pysbdSegment } from './pysbd/segmenter.js';

export interface Sentence {
  text: string;
  /** UTF-16 offsets into the segmented text, end exclusive, surrounding whitespace excluded. */
  start: number;
  end: number;
}

/** The non-blank sentences of a text with their spans, as pysbd finds them in the original text. */
export function splitSentences(text: string): Sentence[] {
  return pysbdSegment(text).map(({ text: sentence, start, end }) => ({ text: sentence, start, end }));
}

export function countSentences(text: string): number {
  return splitSentences(text).length;
}
