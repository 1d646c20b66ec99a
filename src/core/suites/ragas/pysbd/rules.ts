// Shared pieces of the English sentence rules (pysbd 0.3.x, itself a port of Pragmatic Segmenter): a rule is a global
// regex and its replacement, applied in order; the private-use symbols stand in for punctuation that must not end a
// sentence until the last step puts it back.

/** Python's `.` outside DOTALL: any character but "\n" (JavaScript's `.` also stops at "\r", which pysbd uses as a break). */
export const DOT = '[^\\n]';

export type Rule = readonly [pattern: RegExp, replacement: string];

export function rule(pattern: string, replacement: string, flags = ''): Rule {
  return [new RegExp(pattern, `g${flags}`), replacement];
}

/** Python's `Text.apply`: each rule's re.sub over the text, in order. Replacements use JavaScript's `$1`. */
export function apply(text: string, ...rules: readonly Rule[]): string {
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  return out;
}

/** The full-stop-like marks that can end a sentence (pysbd `Standard.Punctuations`). */
export const PUNCTUATIONS = ['。', '．', '.', '！', '!', '?', '？'];

/** Escape a literal for a RegExp (Python's re.escape). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\\-/]/g, '\\$&');
}

/**
 * pysbd's `replace_punctuation`: inside quotes, parentheses and exclamation words, sentence-ending marks become
 * symbols (and apostrophes too, except for single quotes), so the span stays in one sentence.
 */
export function protectPunctuation(match: string, single = false): string {
  let out = match.replaceAll('.', '∯').replaceAll('。', '&ᓰ&').replaceAll('．', '&ᓱ&').replaceAll('！', '&ᓳ&').replaceAll('!', '&ᓴ&').replaceAll('?', '&ᓷ&').replaceAll('？', '&ᓸ&');
  if (!single) out = out.replaceAll("'", '&⎋&');
  return out;
}

/** Back from the symbols to the punctuation (pysbd `SubSymbolsRules`). */
export const RESTORE_SYMBOLS: readonly Rule[] = [
  rule('∯', '.'), rule('♬', '،'), rule('♭', ':'), rule('&ᓰ&', '。'), rule('&ᓱ&', '．'), rule('&ᓳ&', '！'), rule('&ᓴ&', '!'),
  rule('&ᓷ&', '?'), rule('&ᓸ&', '？'), rule('☉', '?!'), rule('☇', '??'), rule('☈', '!?'), rule('☄', '!!'), rule('&✂&', '('),
  rule('&⌬&', ')'), rule('ȸ', ''), rule('ȹ', '\n'),
];
