// English sentence segmentation as pysbd 0.3.x does it (Segmenter(language="en", clean=False)), which RAGAS context
// relevance counts sentences with: lists, abbreviations, numbers, ellipses, quotes and parentheses handled by the same
// rules in the same order, then the same boundary regex. Written against pysbd's golden rules (test/unit/ragas).
// Known differences: \d and \b here are ASCII where Python's are Unicode.
import { breakListItems, protectRomanParens } from './lists.js';
import { replaceAbbreviations } from './abbreviations.js';
import { protectBetweenPunctuation } from './betweenPunctuation.js';
import { DOT, PUNCTUATIONS, RESTORE_SYMBOLS, apply, escapeRegExp, protectPunctuation, rule } from './rules.js';

const NUMBERS = [
  rule('\\.(?=\\d)', '∯'),
  rule('(?<=\\d)\\.(?=\\S)', '∯'),
  rule('(?<=\\r\\d)\\.(?=(\\s\\S)|\\))', '∯'),
  rule('(?<=^\\d)\\.(?=(\\s\\S)|\\))', '∯'),
  rule('(?<=^\\d\\d)\\.(?=(\\s\\S)|\\))', '∯'),
];
const CONTINUOUS_PUNCTUATION = /(?<=\S)(!|\?){3,}(?=(\s|$))/g;
const NUMBERED_REFERENCE = /(?<=[^\d\s])(\.|∯)((\[(\d{1,3},?\s?-?\s?)*\b\d{1,3}\])+|((\d{1,3}\s?)?\d{1,3}))(\s)(?=[A-Z])/g;
const AFTER_NUMBERS = [
  rule('([a-zA-Z0-9_])(\\.)([a-zA-Z0-9_])', '$1∮$3'), // e-mail addresses, URLs, "a.b"
  rule('(?<=[a-zA-z]°)\\.(?=\\s*\\d+)', '∯'), // "N°. 1026"
  rule('(?<=\\s)\\.(?=(jpe?g|png|gif|tiff?|pdf|ps|docx?|xlsx?|svg|bmp|tga|exif|odt|html?|txt|rtf|bat|sxw|xml|zip|exe|msi|blend|wmv|mp[34]|pptx?|flac|rb|cpp|cs|js)\\s)', '∯'),
];
const PARENS_BETWEEN_QUOTES = new RegExp(`["”]\\s\\(${DOT}*\\)\\s["“]`, 'g');
const ELLIPSES = [
  rule('(\\s\\.){3}\\s', '♟♟♟♟♟♟♟'),
  rule('(?<=[a-z])(\\.\\s){3}\\.($|\\\\n)', '♝♝♝♝♝♝♝'),
  rule('(?<=\\S)\\.{3}(?=\\.\\s[A-Z])', 'ƪƪƪ'),
  rule('\\.\\.\\.(?=\\s+[A-Z])', '☏☏.'),
  rule('\\.\\.\\.', 'ƪƪƪ'),
];
const REINSERT_ELLIPSES = [rule('ƪƪƪ', '...'), rule('♟♟♟♟♟♟♟', ' . . . '), rule('♝♝♝♝♝♝♝', '. . . .'), rule('☏☏', '..'), rule('∮', '.')];
const EXCLAMATION_WORDS = new RegExp('!Xũ !Kung ǃʼOǃKung !Xuun !Kung-Ekoka ǃHu ǃKhung ǃKu ǃung ǃXo ǃXû ǃXung ǃXũ !Xun Yahoo! Y!J Yum!'.split(' ').map(escapeRegExp).join('|'), 'g');
const DOUBLE_PUNCTUATION = [rule('\\?!', '☉'), rule('!\\?', '☈'), rule('\\?\\?', '☇'), rule('!!', '☄')];
const QUOTE_AND_EXCLAMATION = [rule('\\?(?=(\'|"))', '&ᓷ&'), rule('!(?=(\'|"))', '&ᓴ&'), rule('!(?=,\\s[a-z])', '&ᓴ&'), rule('!(?=\\s[a-z])', '&ᓴ&')];
const SENTENCE_BOUNDARY = new RegExp(
  `（(?:[^）])*）(?=\\s?[A-Z])|「(?:[^」])*」(?=\\s[A-Z])|\\((?:[^)]){2,}\\)(?=\\s[A-Z])|'(?:[^'])*[^,]'(?=\\s[A-Z])|"(?:[^"])*[^,]"(?=\\s[A-Z])|“(?:[^”])*[^,]”(?=\\s[A-Z])|[。．.！!?？ ]{2,}|\\S${DOT}*?[。．.！!?？ȸȹ☉☈☇☄]|[。．.！!?？]`,
  'g',
);
const QUOTATION_AT_END = /[!?.-]["'“”]\s{1}[A-Z]/;
const SPLIT_AFTER_QUOTATION = /(?<=[!?.-]["'“”])\s{1}(?=[A-Z])/;

/** pysbd `process_text`: one line's boundaries once every protected mark is a symbol. */
function boundariesIn(line: string): string[] {
  let text = PUNCTUATIONS.includes(line.at(-1)!) ? line : `${line}ȸ`;
  text = text.replace(EXCLAMATION_WORDS, (m) => protectPunctuation(m));
  text = protectBetweenPunctuation(text);
  if (!/^(?:\?!|!\?|\?\?|!!)/.test(text)) text = apply(text, ...DOUBLE_PUNCTUATION);
  text = apply(text, ...QUOTE_AND_EXCLAMATION);
  text = protectRomanParens(text);
  text = text.replace(/&ᓴ&$/, '!');
  return text.match(SENTENCE_BOUNDARY) ?? [];
}

/** pysbd `post_process_segments`. */
function postProcess(segment: string): string[] {
  if (segment.length > 2 && /^[a-zA-Z]*$/.test(segment)) return [segment];
  const text = apply(segment, ...REINSERT_ELLIPSES);
  if (QUOTATION_AT_END.test(text)) return text.split(SPLIT_AFTER_QUOTATION);
  return [text.replaceAll('\n', '').trim()];
}

/** pysbd `Processor.process`: the sentences as text, whitespace trimmed. */
export function pysbdSentences(input: string): string[] {
  if (input === '') return [];
  let text = breakListItems(input.replaceAll('\n', '\r'));
  text = replaceAbbreviations(text);
  text = apply(text, ...NUMBERS);
  text = text.replace(CONTINUOUS_PUNCTUATION, (m) => m.replaceAll('!', '&ᓴ&').replaceAll('?', '&ᓷ&'));
  text = text.replace(NUMBERED_REFERENCE, '∯$2\r$7');
  text = apply(text, ...AFTER_NUMBERS);
  text = text.replace(PARENS_BETWEEN_QUOTES, (m) => m.replace(/\s(?=\()/g, '\r').replace(/(?<=\))\s/g, '\r'));
  const lines = text.split('\r').filter((l) => l !== '').map((l) => apply(l, rule('\\n', 'ȹ'), ...ELLIPSES));
  const segments = lines.flatMap((l) => (PUNCTUATIONS.some((p) => l.includes(p)) ? boundariesIn(l) : [l])).filter((s) => s !== '');
  return segments
    .flatMap((s) => postProcess(apply(s, ...RESTORE_SYMBOLS)))
    .filter((s) => s !== '')
    .map((s) => s.replaceAll('&⎋&', "'"));
}

export interface SentenceSpan {
  text: string;
  /** UTF-16 offsets into the original text, end exclusive, trailing whitespace excluded. */
  start: number;
  end: number;
}

/**
 * pysbd `Segmenter.segment`: each processed sentence located in the original text after the previous one; a
 * sentence that cannot be found there (the rules changed its text) is dropped, as the reference drops it.
 */
export function pysbdSegment(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  let priorEnd = 0;
  for (const sentence of pysbdSentences(text)) {
    let from = 0;
    for (let at = text.indexOf(sentence, from); at !== -1; at = text.indexOf(sentence, from)) {
      let end = at + sentence.length;
      while (end < text.length && /\s/.test(text[end]!)) end++;
      if (end > priorEnd) {
        spans.push({ text: sentence, start: at, end: at + sentence.length });
        priorEnd = end;
        break;
      }
      from = end;
    }
  }
  return spans;
}
