// Periods that do not end a sentence because they close an abbreviation ("Dr.", "e.g.", "U.S.", "p. 55"), as pysbd's
// English rules find them. Two quirks of the reference are kept on purpose, since the count must match it: the
// abbreviation is matched as a regex (its "." matches any character), and the "next word is capitalised" test never
// fires (its look-behind is written with literal braces), so every listed abbreviation is treated as mid-sentence
// unless its rule's own look-ahead says otherwise.
import { DOT, apply, escapeRegExp, rule } from './rules.js';
import type { Rule } from './rules.js';

export const ABBREVIATIONS = ['adj', 'adm', 'adv', 'al', 'ala', 'alta', 'apr', 'arc', 'ariz', 'ark', 'art', 'assn', 'asst', 'attys', 'aug', 'ave', 'bart', 'bld', 'bldg', 'blvd', 'brig', 'bros', 'btw', 'cal', 'calif', 'capt', 'cl', 'cmdr', 'co', 'col', 'colo', 'comdr', 'con', 'conn', 'corp', 'cpl', 'cres', 'ct', 'd.phil', 'dak', 'dec', 'del', 'dept', 'det', 'dist', 'dr', 'dr.phil', 'dr.philos', 'drs', 'e.g', 'ens', 'esp', 'esq', 'etc', 'exp', 'expy', 'ext', 'feb', 'fed', 'fla', 'ft', 'fwy', 'fy', 'ga', 'gen', 'gov', 'hon', 'hosp', 'hr', 'hway', 'hwy', 'i.e', 'ia', 'id', 'ida', 'ill', 'inc', 'ind', 'ing', 'insp', 'is', 'jan', 'jr', 'jul', 'jun', 'kan', 'kans', 'ken', 'ky', 'la', 'lt', 'ltd', 'maj', 'man', 'mar', 'mass', 'may', 'md', 'me', 'med', 'messrs', 'mex', 'mfg', 'mich', 'min', 'minn', 'miss', 'mlle', 'mm', 'mme', 'mo', 'mont', 'mr', 'mrs', 'ms', 'msgr', 'mssrs', 'mt', 'mtn', 'neb', 'nebr', 'nev', 'no', 'nos', 'nov', 'nr', 'oct', 'ok', 'okla', 'ont', 'op', 'ord', 'ore', 'p', 'pa', 'pd', 'pde', 'penn', 'penna', 'pfc', 'ph', 'ph.d', 'pl', 'plz', 'pp', 'prof', 'pvt', 'que', 'rd', 'rs', 'ref', 'rep', 'reps', 'res', 'rev', 'rt', 'sask', 'sec', 'sen', 'sens', 'sep', 'sept', 'sfc', 'sgt', 'sr', 'st', 'supt', 'surg', 'tce', 'tenn', 'tex', 'univ', 'usafa', 'u.s', 'ut', 'va', 'v', 'ver', 'viz', 'vs', 'vt', 'wash', 'wis', 'wisc', 'wy', 'wyo', 'yuk', 'fig'];
/** Titles before a name: the period stays unless nothing follows. */
const PREPOSITIVE = new Set(['adm', 'attys', 'brig', 'capt', 'cmdr', 'col', 'cpl', 'det', 'dr', 'gen', 'gov', 'ing', 'lt', 'maj', 'mr', 'mrs', 'ms', 'mt', 'messrs', 'mssrs', 'prof', 'ph', 'rep', 'reps', 'rev', 'sen', 'sens', 'sgt', 'st', 'supt', 'v', 'vs', 'fig']);
/** Before a number: "p. 55", "no. 7". */
const BEFORE_NUMBER = new Set(['art', 'ext', 'no', 'nos', 'p', 'pp']);
const SENTENCE_STARTERS = 'A Being Did For He How However I In It Millions More She That The There They We What When Where Who Why'.split(' ');

const EARLY_RULES: readonly Rule[] = [
  rule("\\.(?='s\\s)|\\.(?='s$)", '∯'), // possessive: "JFK Jr.'s"
  rule('(?<=Co)\\.(?=\\sKG)', '∯'),
  rule('(?<=^[A-Z])\\.(?=\\s)', '∯'), // a single capital at the start: "A. Smith"
  rule('(?<=\\s[A-Z])\\.(?=,?\\s)', '∯'), // a middle initial: "Jonas E. Smith"
];

const AM_PM: readonly Rule[] = [
  rule('(?<= P∯M)∯(?=\\s[A-Z])', '.'), rule('(?<=A∯M)∯(?=\\s[A-Z])', '.'), rule('(?<=p∯m)∯(?=\\s[A-Z])', '.'), rule('(?<=a∯m)∯(?=\\s[A-Z])', '.'),
];

/** "U.S." before a sentence starter ("I live in the U.S. How about you?") ends the sentence after all. */
const BOUNDARY_AFTER = new RegExp(`(U∯S|U\\.S|U∯K|E∯U|E\\.U|U∯S∯A|U\\.S\\.A|I|i${DOT}v|I${DOT}V)∯(${SENTENCE_STARTERS.map((w) => `(?=\\s${w}\\s)`).join('|')})`, 'g');

/** The abbreviation as the reference writes it into a pattern: unescaped, so its "." is any character. */
const asPattern = (abbr: string) => abbr.replaceAll('.', DOT);

function withLeadingSpace(text: string, change: (spaced: string) => string): string {
  return change(` ${text}`).slice(1);
}

function replaceAt(line: string, found: string): string {
  const abbr = found.trim();
  const lower = abbr.toLowerCase();
  if (PREPOSITIVE.has(lower)) return withLeadingSpace(line, (t) => t.replace(new RegExp(`(?<=\\s${asPattern(abbr)})\\.(?=(\\s|:\\d+))`, 'g'), '∯'));
  if (BEFORE_NUMBER.has(lower)) return withLeadingSpace(line, (t) => t.replace(new RegExp(`(?<=\\s${asPattern(abbr)})\\.(?=(\\s\\d|\\s+\\())`, 'g'), '∯'));
  return withLeadingSpace(line, (t) => t.replace(new RegExp(`(?<=\\s${escapeRegExp(abbr)})\\.(?=((\\.|:|-|\\?|,)|(\\s([a-z]|I\\s|I'm|I'll|\\d|\\())))`, 'g'), '∯'));
}

function abbreviationsInLine(line: string): string {
  let text = line;
  const lowered = text.toLowerCase();
  for (const abbr of ABBREVIATIONS) {
    if (!lowered.includes(abbr)) continue;
    const matches = text.match(new RegExp(`(?:^|\\s|\\r|\\n)${asPattern(abbr)}`, 'gi')) ?? [];
    for (const found of matches) text = replaceAt(text, found);
  }
  return text;
}

/** Python's str.splitlines(keepends=True). */
export function splitLinesKeepEnds(text: string): string[] {
  return text.match(/[^\n\r\v\f\x1c-\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]|$)/g)?.filter((l) => l !== '') ?? [];
}

/** pysbd `AbbreviationReplacer.replace`. */
export function replaceAbbreviations(text: string): string {
  let out = apply(text, ...EARLY_RULES);
  out = splitLinesKeepEnds(out).map(abbreviationsInLine).join('');
  out = out.replace(/\b[a-z](?:\.[a-z])+[.]/gi, (m) => m.replaceAll('.', '∯')); // "U.S.A.", "e.g."
  out = apply(out, ...AM_PM);
  return out.replace(BOUNDARY_AFTER, '$1.');
}
