// Sentence segmentation for context relevance: how many sentences a context holds and how many the judge extracted.
// The reference segments with pysbd (English rules); Intl.Segmenter (ICU, built into Node) is the closest thing
// available here. The two agree on ordinary prose; abbreviations and decimals can split differently.

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export interface Sentence {
  text: string;
  /** UTF-16 offsets into the segmented text, end exclusive, surrounding whitespace excluded. */
  start: number;
  end: number;
}

/** The non-blank sentences of a text with their spans. */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  for (const { segment, index } of segmenter.segment(text)) {
    const leading = segment.length - segment.trimStart().length;
    const trimmed = segment.trim();
    if (trimmed === '') continue;
    sentences.push({ text: trimmed, start: index + leading, end: index + leading + trimmed.length });
  }
  return sentences;
}

export function countSentences(text: string): number {
  return splitSentences(text).length;
}
