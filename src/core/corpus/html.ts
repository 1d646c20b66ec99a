// The readable text of an HTML page, with the source line each part came from. parse5 parses it as a browser would
// (entities, scripts and styles, unclosed tags), which a tag-stripping pattern cannot do: `&amp;`, `<script>` bodies
// and comments would leak into the chunks. Whitespace is collapsed as rendering does (kept inside <pre>), blocks are
// separated by blank lines, and h1–h6 become Markdown headings ("## Title") so chunking by heading works on HTML too.
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import type { ExtractedText } from './contract.js';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** Never shown as text. */
const HIDDEN = new Set(['head', 'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'select', 'button']);
/** Separated from what is around them by a blank line. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'details', 'dialog', 'div', 'dl', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'header', 'hgroup', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul', 'summary', 'caption',
]);
/** On a line of their own. */
const LINES = new Set(['li', 'dt', 'dd', 'tr', 'br']);
const HEADING = /^h([1-6])$/;

/** Builds the text and its line anchors, collapsing whitespace between the words it is given. */
class TextBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  private pendingBreak = 0;
  private pendingSpace = false;
  private pendingPrefix = '';
  readonly lines: Array<[number, number]> = [];

  /** A line break (1) or blank line (2) before the next text. */
  breakLine(count: 1 | 2): void {
    this.pendingBreak = Math.max(this.pendingBreak, count);
    this.pendingSpace = false;
  }

  space(): void {
    this.pendingSpace = true;
  }

  /** Text put before the next word (a heading's "## "); dropped if no word follows. */
  prefix(text: string): void {
    this.pendingPrefix = text;
  }

  /** Appends `text` verbatim from source line `line`, after whatever separator is pending. */
  word(text: string, line: number): void {
    if (this.length > 0) {
      if (this.pendingBreak > 0) this.append('\n'.repeat(this.pendingBreak));
      else if (this.pendingSpace) this.append(' ');
    }
    this.pendingBreak = 0;
    this.pendingSpace = false;
    this.anchor(line);
    if (this.pendingPrefix !== '') {
      this.append(this.pendingPrefix);
      this.pendingPrefix = '';
    }
    this.append(text);
  }

  /** Text from inside <pre>, kept as written: each line anchored to its own source line. */
  preformatted(text: string, line: number): void {
    const pieces = text.split('\n');
    pieces.forEach((piece, i) => {
      if (i > 0) {
        this.pendingBreak = 0;
        this.append('\n');
      }
      if (piece !== '') this.word(piece, line + i);
    });
  }

  private anchor(line: number): void {
    const last = this.lines.at(-1);
    if (last?.[1] === line) return;
    if (last?.[0] === this.length) last[1] = line;
    else this.lines.push([this.length, line]);
  }

  private append(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }

  result(): ExtractedTextWithText {
    const lines = this.lines.length === 0 ? [[0, 1] as [number, number]] : this.lines;
    (lines[0] as [number, number])[0] = 0;
    return { text: this.parts.join(''), extracted: { lines } };
  }
}

export interface ExtractedTextWithText {
  text: string;
  extracted: ExtractedText;
}

function childrenOf(node: Node): Node[] {
  return 'childNodes' in node ? node.childNodes : [];
}

function walk(node: Node, builder: TextBuilder, inPre: boolean): void {
  if (node.nodeName === '#text') {
    const value = (node as DefaultTreeAdapterMap['textNode']).value;
    const line = node.sourceCodeLocation?.startLine ?? 1;
    if (inPre) builder.preformatted(value, line);
    else collapsed(value, line, builder);
    return;
  }
  if (!('tagName' in node)) {
    for (const child of childrenOf(node)) walk(child, builder, inPre);
    return;
  }
  const tag = (node as Element).tagName;
  if (HIDDEN.has(tag)) return;
  const heading = HEADING.exec(tag);
  const block = BLOCKS.has(tag) || heading !== null;
  if (block) builder.breakLine(2);
  else if (LINES.has(tag)) builder.breakLine(1);
  else if (tag === 'td' || tag === 'th') builder.space();
  if (heading) builder.prefix(`${'#'.repeat(Number(heading[1]))} `);
  for (const child of childrenOf(node)) walk(child, builder, inPre || tag === 'pre');
  if (block) builder.breakLine(2);
  else if (LINES.has(tag)) builder.breakLine(1);
}

/** Words of a text node, runs of HTML whitespace (not &nbsp;) collapsed to one space; each word anchored to the source line it is on. */
function collapsed(value: string, firstLine: number, builder: TextBuilder): void {
  let line = firstLine;
  for (const piece of value.split(/([ \t\n\f\r]+)/)) {
    if (piece === '') continue;
    if (/^[ \t\n\f\r]/.test(piece)) {
      builder.space();
      for (let at = piece.indexOf('\n'); at !== -1; at = piece.indexOf('\n', at + 1)) line++;
    } else builder.word(piece, line);
  }
}

/** The page's text and the map from its characters to the source file's lines. */
export function htmlText(source: string): ExtractedTextWithText {
  const builder = new TextBuilder();
  walk(parse(source, { sourceCodeLocationInfo: true }), builder, false);
  return builder.result();
}
