// A Markdown text cut into its heading sections, each with its heading path ("Install › Linux"): ATX (`## Title`) and
// setext (`Title` over `===`/`---`) headings, none inside fenced code or YAML front matter.

/** Characters [start, end) of the text: a heading line and everything up to the next heading. */
export interface Section {
  start: number;
  end: number;
  /** The titles of the enclosing headings and this one, joined by HEADING_SEPARATOR; undefined before the first. */
  heading?: string;
}

export const HEADING_SEPARATOR = ' › ';

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A line that cannot be a setext heading's text: a list item, quote, table row, fence or indented code. */
const NOT_PARAGRAPH = /^(?: {0,3}(?:[-*+>|]|\d+[.)])(?:\s|$)| {4}|\t| {0,3}(?:`{3}|~{3}))/;

interface Line {
  start: number;
  text: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    lines.push({ start, text: text.slice(start, end).replace(/\r$/, '') });
    if (newline === -1) return lines;
    start = newline + 1;
  }
}

/** Where the front matter ends (the line after its closing `---`/`...`), or 0 when the text has none. */
function frontMatterLines(lines: readonly Line[]): number {
  if (lines[0]?.text !== '---') return 0;
  for (let i = 1; i < lines.length; i++) if (/^(?:---|\.\.\.)[ \t]*$/.test((lines[i] as Line).text)) return i + 1;
  return 0;
}

interface Heading {
  /** Index of the heading's first line. */
  line: number;
  level: number;
  title: string;
}

function headings(lines: readonly Line[]): Heading[] {
  const found: Heading[] = [];
  let fence: string | undefined;
  for (let i = frontMatterLines(lines); i < lines.length; i++) {
    const text = (lines[i] as Line).text;
    const fenceOpen = FENCE.exec(text)?.[1];
    if (fence !== undefined) {
      if (fenceOpen && fenceOpen[0] === fence[0] && fenceOpen.length >= fence.length && text.trim() === fenceOpen) fence = undefined;
      continue;
    }
    if (fenceOpen) {
      fence = fenceOpen;
      continue;
    }
    const atx = ATX.exec(text);
    if (atx) {
      found.push({ line: i, level: (atx[1] as string).length, title: (atx[2] ?? '').trim() });
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(text);
    const previous = lines[i - 1]?.text;
    const beforePrevious = lines[i - 2]?.text;
    const lastFound = found.at(-1);
    if (underline && previous !== undefined && previous.trim() !== '' && !NOT_PARAGRAPH.test(previous) && (beforePrevious === undefined || beforePrevious.trim() === '') && lastFound?.line !== i - 1) {
      found.push({ line: i - 1, level: (underline[1] as string)[0] === '=' ? 1 : 2, title: previous.trim() });
    }
  }
  return found;
}

/**
 * The sections of `text` in order, covering it: the text before the first heading (when not blank), then one per
 * heading. A heading without a title ("#") keeps its place in the path as "".
 */
export function markdownSections(text: string): Section[] {
  const lines = splitLines(text);
  const found = headings(lines);
  const sections: Section[] = [];
  const firstStart = found.length === 0 ? text.length : (lines[(found[0] as Heading).line] as Line).start;
  if (text.slice(0, firstStart).trim() !== '') sections.push({ start: 0, end: firstStart });
  const path: Array<{ level: number; title: string }> = [];
  found.forEach((heading, n) => {
    while (path.length > 0 && (path.at(-1) as { level: number }).level >= heading.level) path.pop();
    path.push({ level: heading.level, title: heading.title });
    const next = found[n + 1];
    sections.push({
      start: (lines[heading.line] as Line).start,
      end: next ? (lines[next.line] as Line).start : text.length,
      heading: path.map((part) => part.title).join(HEADING_SEPARATOR),
    });
  });
  return sections;
}
