// List items ("1. first 2. second", "a) one b) two", "(iv)") as pysbd's ListItemReplacer finds them: a run of
// consecutive markers becomes line breaks, and the periods of the markers stop ending sentences.
import { DOT, apply, rule } from './rules.js';

const ROMAN = 'i ii iii iv v vi vii viii ix x xi xii xiii xiv x xi xii xiii xv xvi xvii xviii xix xx'.split(' ');
const LATIN = [...'abcdefghijklmnopqrstuvwxyz'];

const ALPHA_WITH_PERIODS = /(?<=^)[a-z](?=\.)|(?<=\s)[a-z](?=\.)/g;
const ALPHA_WITH_PARENS = /(?<=\()[a-z]+(?=\))|(?<=^)[a-z]+(?=\))|(?<=\s)[a-z]+(?=\))/g;
const ALPHA_LETTER_PERIOD = /(?<=^)[a-z]\.|(?<=\s)[a-z]\./gi;
const ALPHA_LETTER_PAREN = /\([a-z]+(?=\))|(?<=^)[a-z]+(?=\))|(?<=\s)[a-z]+(?=\))/gi;
const NUMBERED_1 = /\s\d{1,2}(?=\.\s)|^\d{1,2}(?=\.\s)|\s\d{1,2}(?=\.\))|^\d{1,2}(?=\.\))|(?<=\s-)\d{1,2}(?=\.\s)|(?<=^-)\d{1,2}(?=\.\s)|(?<=\s⁃)\d{1,2}(?=\.\s)|(?<=^⁃)\d{1,2}(?=\.\s)|(?<=s-)\d{1,2}(?=\.\))|(?<=^-)\d{1,2}(?=\.\))|(?<=\s⁃)\d{1,2}(?=\.\))|(?<=^⁃)\d{1,2}(?=\.\))/g;
const NUMBERED_2 = /(?<=\s)\d{1,2}\.(?=\s)|^\d{1,2}\.(?=\s)|(?<=\s)\d{1,2}\.(?=\))|^\d{1,2}\.(?=\))|(?<=\s-)\d{1,2}\.(?=\s)|(?<=^-)\d{1,2}\.(?=\s)|(?<=\s⁃)\d{1,2}\.(?=\s)|(?<=^⁃)\d{1,2}\.(?=\s)|(?<=\s-)\d{1,2}\.(?=\))|(?<=^-)\d{1,2}\.(?=\))|(?<=\s⁃)\d{1,2}\.(?=\))|(?<=^⁃)\d{1,2}\.(?=\))/g;
const NUMBERED_PARENS = /\d{1,2}(?=\)\s)/g;
const ROMAN_IN_PARENS = /\(((?=[mdclxvi])m*(c[md]|d?c*)(x[cl]|l?x*)(i[xv]|v?i*))\)(?=\s[A-Z])/g;

/** Python's negative index: list[-1] is the last item (the reference reads list_array[i - 1] at i = 0). */
const at = <T>(list: readonly T[], i: number): T | undefined => list.at(i);

function replaceAlphabetItem(text: string, letter: string, parens: boolean): string {
  if (!parens) return text.replace(ALPHA_LETTER_PERIOD, (m) => (m.replace(/^\.+|\.+$/g, '') === letter ? `\r${letter}∯` : m));
  return text.replace(ALPHA_LETTER_PAREN, (m) => {
    if (m.includes('(')) return m.replace(/^\(+|\(+$/g, '') === letter ? `\r&✂&${letter}` : m;
    return m === letter ? `\r${letter}` : m;
  });
}

function alphabeticalLists(input: string, finder: RegExp, parens: boolean, roman: boolean): string {
  let text = input;
  const alphabet = roman ? ROMAN : LATIN;
  const found = (text.match(finder) ?? []).filter((item) => alphabet.includes(item));
  found.forEach((item, i) => {
    const previous = at(found, i - 1);
    if (previous === undefined || !alphabet.includes(previous)) return;
    if (i === found.length - 1) {
      if (Math.abs(alphabet.indexOf(previous) - alphabet.indexOf(item)) !== 1) return;
    } else {
      const next = found[i + 1]!;
      if (!alphabet.includes(next)) return;
      if (alphabet.indexOf(next) - alphabet.indexOf(item) !== 1 && Math.abs(alphabet.indexOf(previous) - alphabet.indexOf(item)) !== 1) return;
    }
    text = replaceAlphabetItem(text, item, parens);
  });
  return text;
}

/** pysbd `scan_lists`: a marker is a list item when its neighbour is the next or previous number. */
function scanLists(input: string, finder: RegExp, replacer: RegExp, marker: string, strip: boolean): string {
  let text = input;
  const numbers = (text.match(finder) ?? []).map((m) => Number.parseInt(m.trim(), 10));
  numbers.forEach((item, i) => {
    const isItem = (i < numbers.length - 1 && item + 1 === numbers[i + 1])
      || (i > 0 && (item - 1 === numbers[i - 1] || (item === 0 && numbers[i - 1] === 9) || (item === 9 && numbers[i - 1] === 0)));
    if (!isItem) return;
    text = text.replace(replacer, (m) => {
      const match = strip ? m.trim() : m;
      const chomped = match.length === 1 ? match : match.replace(/^[.\])]+|[.\])]+$/g, '');
      return String(item) === chomped ? `${item}${marker}` : m;
    });
  });
  return text;
}

/** pysbd `ListItemReplacer.add_line_break`. */
export function breakListItems(input: string): string {
  let text = input;
  for (const roman of [false, true]) {
    text = alphabeticalLists(text, ALPHA_WITH_PERIODS, false, roman);
    text = alphabeticalLists(text, ALPHA_WITH_PARENS, true, roman);
  }
  text = scanLists(text, NUMBERED_1, NUMBERED_2, '♨', true);
  if (text.includes('♨') && !new RegExp(`♨${DOT}+(\\n|\\r)${DOT}+♨`).test(text) && !/for\s\d{1,2}♨\s[a-z]/.test(text)) {
    text = apply(text, rule('(?<=\\S\\S)\\s(?=\\S\\s*\\d+♨)', '\r'), rule('(?<=\\S\\S)\\s(?=\\d{1,2}♨)', '\r'));
  }
  text = text.replaceAll('♨', '∯');
  text = scanLists(text, NUMBERED_PARENS, NUMBERED_PARENS, '☝', false);
  text = scanLists(text, NUMBERED_PARENS, NUMBERED_PARENS, '☝', false);
  if (text.includes('☝') && !new RegExp(`☝${DOT}+\\n${DOT}+☝|☝${DOT}+\\r${DOT}+☝`).test(text)) text = apply(text, rule('(?<=\\S\\S)\\s(?=\\d{1,2}☝)', '\r'));
  return text.replaceAll('☝', '');
}

/** "(iv) Next" keeps its parentheses out of the boundary rules. */
export function protectRomanParens(text: string): string {
  return text.replace(ROMAN_IN_PARENS, '&✂&$1&⌬&');
}
