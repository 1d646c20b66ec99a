// Punctuation inside quotes, parentheses, brackets and dashes does not end the sentence around it ("He said, 'Stop.'
// and left."), as pysbd's BetweenPunctuation protects it. The reference's atomic groups are emulated with a
// look-ahead capture and a back-reference, as pysbd does in Python; `[^\n]` stands for Python's `.`.
import { protectPunctuation } from './rules.js';

const SINGLE_QUOTES = /(?<=\s)'(?:[^']|'[a-zA-Z])*'/g;
const SINGLE_SLANTED = /(?<=\s)‘(?:[^’]|’[a-zA-Z])*’/g;
const DOUBLE_QUOTES = /"(?=(?<tmp>[^"\\]+|\\{2}|\\[^\n])*)\k<tmp>"/g;
const SQUARE_BRACKETS = /\[(?=(?<tmp>[^\]\\]+|\\{2}|\\[^\n])*)\k<tmp>\]/g;
const PARENS = /\((?=(?<tmp>[^()\\]+|\\{2}|\\[^\n])*)\k<tmp>\)/g;
const ARROWS = /«(?=(?<tmp>[^»\\]+|\\{2}|\\[^\n])*)\k<tmp>»/g;
const EM_DASHES = /--(?=(?<tmp>[^-]*))\k<tmp>--/g;
const DOUBLE_SLANTED = /“(?=(?<tmp>[^”\\]+|\\{2}|\\[^\n])*)\k<tmp>”/g;
const LEADING_APOSTROPHE = /(?<=\s)'(?:[^']|'[a-zA-Z])*'\S/;

const protect = (m: string) => protectPunctuation(m);

export function protectBetweenPunctuation(input: string): string {
  let text = input;
  // A word with a leading apostrophe ("'tis") and no quote before a space: the single quotes are left alone.
  if (!(LEADING_APOSTROPHE.test(text) && !/'\s/.test(text))) text = text.replace(SINGLE_QUOTES, (m) => protectPunctuation(m, true));
  text = text.replace(SINGLE_SLANTED, protect);
  text = text.replace(DOUBLE_QUOTES, protect);
  text = text.replace(SQUARE_BRACKETS, protect);
  text = text.replace(PARENS, protect);
  text = text.replace(ARROWS, protect);
  text = text.replace(EM_DASHES, protect);
  return text.replace(DOUBLE_SLANTED, protect);
}
