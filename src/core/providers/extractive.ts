// The built-in offline baseline reader: answers with the prompt's sentence that best matches the question (BM25), no model.
import type { ChatMessage, ResponseRecord } from '../model.js';
import { bestIndex, bm25Scores } from './bm25.js';
import type { CallOptions, CompletionRequest, Provider } from './contract.js';
import { abortError } from './errors.js';

export const EXTRACTIVE_LABEL = 'Extractive baseline (BM25, no model)';

export interface ExtractiveOptions {
  /** Answered when no sentence shares a term with the question (e.g. RGB's "I can not answer…" refusal). */
  refusal?: string;
}

/** What the reader takes from the rendered messages: the question and the text its answer is looked for in. */
export interface PromptReading {
  question: string;
  context: string;
}

/**
 * Reads only the rendered messages, like a model would. Deterministic and offline; `usage` holds approximate
 * counts (word segments, not a model tokenizer). The refusal comes from the model's parameters (`refusal`),
 * and a request's `extra.refusal` overrides it.
 */
export class ExtractiveProvider implements Provider {
  readonly id = 'extractive';
  readonly label = EXTRACTIVE_LABEL;
  readonly endpoint = 'local:bm25';
  private readonly refusal: string | undefined;

  constructor(options: ExtractiveOptions = {}) {
    this.refusal = options.refusal;
  }

  async complete(request: CompletionRequest, options: CallOptions): Promise<ResponseRecord> {
    const started = performance.now();
    if (options.signal.aborted) throw abortError(EXTRACTIVE_LABEL, options.signal);
    const extraRefusal = request.extra?.refusal;
    const refusal = typeof extraRefusal === 'string' ? extraRefusal : this.refusal;
    const text = extractAnswer(readPrompt(request.messages), refusal);
    const prompt = request.messages.map((message) => message.content).join('\n');
    return {
      text,
      usage: { inputTokens: approximateTokens(prompt), outputTokens: approximateTokens(text) },
      latencyMs: performance.now() - started,
      cached: false,
      finishReason: 'stop',
    };
  }
}

/** The top-ranked sentence (earliest on a tie); the refusal when no sentence shares a term with the question. */
export function extractAnswer(reading: PromptReading, refusal?: string): string {
  // A line ending in a colon ("Document:", "文档：") introduces what follows; it is never the answer.
  const sentences = splitSentences(reading.context).filter((sentence) => !/[:：]$/u.test(sentence));
  const scores = bm25Scores(termsOf(reading.question), sentences.map(termsOf));
  const best = bestIndex(scores);
  const nothingShared = best === -1 || (scores[best] ?? 0) === 0;
  if (nothingShared && refusal !== undefined) return refusal;
  return sentences[best] ?? '';
}

/** "Question:" in English, Chinese (simplified, traditional) and Japanese, with an ASCII or full-width colon. */
const QUESTION_MARKER = /(?:question|问题|問題|質問)\s*[:：]/giu;

/**
 * The question is what follows the last question marker in the last user message (up to a blank line), else that
 * message's last line; the context is the rest of that message. A template that puts the documents elsewhere
 * (e.g. in the system message) leaves no context there, and then the other messages are read instead.
 */
export function readPrompt(messages: ChatMessage[]): PromptReading {
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const content = lastUser?.content ?? '';
  const split = splitAtTaggedQuestion(content) ?? splitAtQuestionMarker(content) ?? splitAtLastLine(content);
  if (splitSentences(split.context).length > 0) return split;
  const others = messages.filter((message) => message !== lastUser && message.role !== 'assistant').map((message) => message.content);
  return { question: split.question, context: [...others, split.context].join('\n') };
}

/** Tags prompts use to fence the material to read (Anthropic's long-context templates, many RAG prompts). */
const CONTEXT_ELEMENT = /<(haystack|context|documents?)>([\s\S]*?)<\/\1>/giu;
const QUESTION_ELEMENT = /<question>([\s\S]*?)<\/question>/iu;

/**
 * XML-style prompts: the question is the first <question> element; the context is what the <haystack>,
 * <context> or <document(s)> elements hold, else everything outside the question elements — so the
 * instructions around a tagged question are not mistaken for it.
 */
function splitAtTaggedQuestion(content: string): PromptReading | undefined {
  const question = QUESTION_ELEMENT.exec(content)?.[1]?.trim();
  if (!question) return undefined;
  const fenced = [...content.matchAll(CONTEXT_ELEMENT)].map((match) => match[2] ?? '');
  const context = fenced.length > 0 ? fenced.join('\n') : content.replace(new RegExp(QUESTION_ELEMENT.source, 'giu'), '\n');
  return { question, context };
}

function splitAtQuestionMarker(content: string): PromptReading | undefined {
  const last = [...content.matchAll(QUESTION_MARKER)].at(-1);
  if (last?.index === undefined) return undefined;
  const after = content.slice(last.index + last[0].length).replace(/^\s+/, '');
  const blankLine = after.search(/\n\s*\n/);
  return { question: (blankLine >= 0 ? after.slice(0, blankLine) : after).trim(), context: content.slice(0, last.index) };
}

function splitAtLastLine(content: string): PromptReading {
  const lines = content.trimEnd().split('\n');
  const question = lines.pop() ?? '';
  return { question: question.trim(), context: lines.join('\n') };
}

const CJK_TERMINATORS = new Set(['。', '！', '？']);
const ASCII_TERMINATORS = new Set(['.', '!', '?']);
/** Closing quotes and brackets that belong to the sentence they end. */
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '」', '』', '）']);

/**
 * Whole sentences, split at newlines, at 。！？ and at . ! ? followed by a space or the end (so "3.5" and
 * "v1.2" stay whole). Empty pieces are dropped.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const end = sentenceEndAt(text, i);
    if (end === undefined) {
      i += 1;
      continue;
    }
    const sentence = text.slice(start, end).trim();
    if (sentence) sentences.push(sentence);
    start = end;
    i = Math.max(end, i + 1);
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/** Where the sentence containing the character at `i` ends, if that character ends one. */
function sentenceEndAt(text: string, i: number): number | undefined {
  const char = text[i] ?? '';
  if (char === '\n') return i;
  if (CJK_TERMINATORS.has(char)) return skipClosers(text, i + 1);
  if (!ASCII_TERMINATORS.has(char)) return undefined;
  let end = i + 1;
  while (ASCII_TERMINATORS.has(text[end] ?? '')) end += 1;
  end = skipClosers(text, end);
  return end >= text.length || /\s/u.test(text[end] ?? '') ? end : undefined;
}

function skipClosers(text: string, from: number): number {
  let end = from;
  while (CLOSERS.has(text[end] ?? '')) end += 1;
  return end;
}

/** Function words that would otherwise make every sentence look relevant (English, Chinese, Japanese). */
const STOP_WORDS = new Set([
  ...'a an the of in on at to for by with from and or but not is are was were be been being do does did what which who whom whose when where why how that this these those it its as about into than there their they he she his her has have had will would can could'.split(' '),
  ...'的 了 是 在 和 与 及 或 吗 呢 吧 啊 什么 哪 哪里 哪个 哪一 谁 怎么 如何 为什么 多少 这 那 也 都 就 被 把'.split(' '),
  ...'の は が を に へ と で も や か です ます した さ れ ま いつ どこ 誰 何'.split(' '),
]);

/** Made on first use: the first Intl object a process makes starts ICU (~10 ms), and plain ASCII text never needs it. */
let wordSegmenter: Intl.Segmenter | undefined;
const WORDS = { segment: (text: string) => (wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' })).segment(text) };

/**
 * The longest piece handed to Intl.Segmenter at once. Its word iterator slows down with the length of its input
 * (a 250 KB prompt took 42 s in one piece), so long texts are segmented piece by piece, which keeps the work linear.
 */
const SEGMENT_PIECE = 1024;

function pieceEnd(text: string, start: number): number {
  const limit = start + SEGMENT_PIECE;
  if (limit >= text.length) return text.length;
  for (let at = limit; at > start + SEGMENT_PIECE / 2; at--) {
    if (alwaysBreaksBefore(text, at)) return at;
  }
  // Never between the halves of a surrogate pair.
  const code = text.charCodeAt(limit);
  return code >= 0xdc00 && code <= 0xdfff ? limit + 1 : limit;
}

const CJK_SENTENCE_END = /[。！？]/u;
const ATTACHES_TO_PREVIOUS = /[\p{M}\p{Cf}]/u;

/** Whether the word rules break between `text[at - 1]` and `text[at]` whatever surrounds them. */
function alwaysBreaksBefore(text: string, at: number): boolean {
  const before = text[at - 1] ?? '';
  const after = text[at] ?? '';
  if (before === '\n') return true;
  if (after === '\n') return before !== '\r';
  if (after === ' ') return !/\s/u.test(before);
  return CJK_SENTENCE_END.test(before) && !ATTACHES_TO_PREVIOUS.test(after);
}

/** Lower-cased word segments minus stop words; Intl.Segmenter's dictionaries split Chinese and Japanese into words. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  const add = (term: string) => {
    if (!STOP_WORDS.has(term)) terms.push(term);
  };
  const folded = text.normalize('NFKC').toLowerCase();
  forEachRun(folded, (from, to) => {
    // Word-like in a plain ASCII run: its letters and digits (the rest are punctuation segments).
    for (let i = from; i < to; ) {
      if (!isAlnumCode(folded.charCodeAt(i))) {
        i += 1;
        continue;
      }
      const wordStart = i;
      while (i < to && isAlnumCode(folded.charCodeAt(i))) i += 1;
      add(folded.slice(wordStart, i));
    }
  }, (run) => {
    for (const term of segmentsOf(run).words) add(term);
  });
  return terms;
}

/** Approximate token count: word and punctuation segments. Good enough for usage columns; not a model tokenizer. */
export function approximateTokens(text: string): number {
  let count = 0;
  forEachRun(text, (from, to) => {
    // Segments of a plain ASCII run: each run of letters and digits, and each other character.
    let previousAlnum = false;
    for (let i = from; i < to; i++) {
      const alnum = isAlnumCode(text.charCodeAt(i));
      if (!alnum || !previousAlnum) count += 1;
      previousAlnum = alnum;
    }
  }, (run) => {
    count += segmentsOf(run).count;
  });
  return count;
}

/**
 * A run's word segments and its count of non-blank segments, as Intl.Segmenter finds them, remembered: the same
 * runs come back in every case (a system prompt's curly quotes), and asking the segmenter costs more than a case's
 * other reading. Bounded: forgotten all at once when full.
 */
function segmentsOf(run: string): { words: readonly string[]; count: number } {
  let known = SEGMENTED.get(run);
  if (known === undefined) {
    const words: string[] = [];
    let count = 0;
    for (const segment of WORDS.segment(run)) {
      if (segment.isWordLike) words.push(segment.segment);
      if (segment.segment.trim() !== '') count += 1;
    }
    known = { words, count };
    if (SEGMENTED.size >= MAX_SEGMENTED) SEGMENTED.clear();
    if (run.length <= MAX_SEGMENTED_RUN) SEGMENTED.set(run, known);
  }
  return known;
}

const SEGMENTED = new Map<string, { words: readonly string[]; count: number }>();
const MAX_SEGMENTED = 10_000;
/** Longer runs (a line of CJK text) rarely come back whole: not remembered. */
const MAX_SEGMENTED_RUN = 64;

/**
 * The word segments of `text` as Intl.Segmenter finds them, mostly without it (it cost most of a case's CPU on the
 * extractive path). Long texts are cut into pieces where the word rules (Unicode UAX #29) always break — at a line
 * break, before a space that follows a non-space, after 。！？ — so the cut changes nothing; text with no such place
 * in a piece's second half (a very long line without spaces) is cut at the piece's length, which may shift a word
 * boundary there. Within a piece, the rules never join across ASCII whitespace, and within a run of ASCII characters
 * they keep letters and digits together and make every other character a segment of its own — except ' , . : ;
 * between two letters or digits, and _, which may join. So each run between ASCII whitespace is either plain (ASCII,
 * nothing that joins: `plain` reads text[from, to) by those rules) or handed to `segmented` for the segmenter.
 */
function forEachRun(text: string, plain: (from: number, to: number) => void, segmented: (run: string) => void): void {
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start);
    let runStart = -1;
    let hard = false;
    let previousAlnum = false;
    for (let i = start; i <= end; i++) {
      const code = i < end ? text.charCodeAt(i) : 0x20;
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
        if (runStart >= 0) {
          if (hard) segmented(text.slice(runStart, i));
          else plain(runStart, i);
        }
        runStart = -1;
        previousAlnum = false;
        continue;
      }
      if (runStart < 0) {
        runStart = i;
        hard = false;
      }
      const alnum = isAlnumCode(code);
      if (code > 0x7f || code === 0x5f || (previousAlnum && MAY_JOIN.has(code) && i + 1 < end && isAlnumCode(text.charCodeAt(i + 1)))) hard = true;
      previousAlnum = alnum;
    }
    start = end;
  }
}

/** ' , . : ; */
const MAY_JOIN = new Set([0x27, 0x2c, 0x2e, 0x3a, 0x3b]);

function isAlnumCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
}
