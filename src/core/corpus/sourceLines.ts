// Which line of the source file a character of a document's text came from: counted in the text itself for Markdown
// and plain text (their text is the file's), looked up in the reader's map for text extracted from HTML, JSONL or
// PDF; and for a PDF, which page.
import type { CorpusDocument } from './contract.js';

/** The 1-based source line of the character at `offset` (0 ≤ offset < text length). */
export type LineOf = (offset: number) => number;

/** A lookup for one document, built once (a binary search per call). */
export function sourceLineLocator(document: CorpusDocument): LineOf {
  return anchorLocator(document.extracted?.lines ?? lineStarts(document.text).map((offset, i): [number, number] => [offset, i + 1]));
}

/** The page of a PDF's character at `offset`; undefined for a document without pages. */
export function pageLocator(document: CorpusDocument): LineOf | undefined {
  const pages = document.extracted?.pages;
  return pages && pages.length > 0 ? anchorLocator(pages) : undefined;
}

/** The value of the last `[offset, value]` anchor at or before an offset; the first anchor is at 0. */
function anchorLocator(anchors: ReadonlyArray<[number, number]>): LineOf {
  return (offset) => {
    let low = 0;
    let high = anchors.length - 1;
    // The last anchor at or before `offset`; the first anchor is at 0, so there always is one.
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((anchors[middle] as [number, number])[0] <= offset) low = middle;
      else high = middle - 1;
    }
    return anchors[low]?.[1] ?? 1;
  };
}

/** Offsets where each line starts: 0, then one past every '\n' ('\r\n' ends a line too, its '\r' on the line). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}
