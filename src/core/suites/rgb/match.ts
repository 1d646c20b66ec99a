// The reference's exact-match rules: space removal for zh, rejection and factual-error markers, checkanswer.
import type { AnswerParts } from './rows.js';

export const REJECTION_MARKERS = ['信息不足', 'insufficient information'] as const;
export const FACTUAL_ERROR_MARKERS = ['事实性错误', 'factual errors'] as const;

/** RGB label per answer part: 1 found, 0 not found; [-1] alone means the response was a rejection. */
export type RgbLabel = 1 | 0 | -1;

/** Python's `pred.replace(" ", "")`: only U+0020, not full-width spaces or tabs. */
export function removeSpaces(text: string): string {
  return text.replaceAll(' ', '');
}

/** What the scorer reads: zh responses lose their spaces first (reference: `if 'zh' in dataset`). */
export function scoredText(response: string, language: 'en' | 'zh'): string {
  return language === 'zh' ? removeSpaces(response) : response;
}

export interface MarkerMatch {
  marker: string;
  /** Set when only a different-case spelling is present (found by strict mode, missed by the reference). */
  caseDiffers: boolean;
}

/**
 * First marker present in the text. The reference tests case-sensitively, so "Insufficient information" is no
 * rejection; strict mode compares lowercased text. A different-case hit is still reported in reference mode so the
 * explanation can say why it did not count.
 */
export function findMarker(text: string, markers: readonly string[], strict: boolean): { hit?: string; caseOnly?: string } {
  const exact = markers.find((marker) => text.includes(marker));
  if (exact !== undefined) return { hit: exact };
  const lower = text.toLowerCase();
  const caseOnly = markers.find((marker) => lower.includes(marker.toLowerCase()));
  if (caseOnly === undefined) return {};
  return strict ? { hit: caseOnly } : { caseOnly };
}

export interface PartCheck {
  label: 0 | 1;
  alternatives: string[];
  /** The first alternative found (reference order), when one was. */
  matched?: string;
}

/** checkanswer: lowercase both sides; a part counts when any of its alternatives is a substring of the response. */
export function checkAnswer(text: string, answer: AnswerParts): PartCheck[] {
  const prediction = text.toLowerCase();
  return answer.map((alternatives) => {
    const matched = alternatives.find((alt) => prediction.includes(alt.toLowerCase()));
    return matched === undefined ? { label: 0, alternatives } : { label: 1, alternatives, matched };
  });
}

/** `0 not in labels and 1 in labels`. */
export function isCorrect(labels: readonly RgbLabel[]): boolean {
  return !labels.includes(0) && labels.includes(1);
}

export interface RgbJudgement {
  /** The text the rules read (spaces removed for zh). */
  text: string;
  labels: RgbLabel[];
  factlabel: 0 | 1;
  correct: boolean;
  rejection: { hit?: string; caseOnly?: string };
  factualError: { hit?: string; caseOnly?: string };
  /** Per answer part; empty when a rejection marker short-circuited the check. */
  parts: PartCheck[];
}

/** The phrases that mark a rejection and a detected factual error: the reference's, or a user's own (stress). */
export interface Markers {
  rejection: readonly string[];
  factualError: readonly string[];
}

export const REFERENCE_MARKERS: Markers = { rejection: REJECTION_MARKERS, factualError: FACTUAL_ERROR_MARKERS };

/** The reference `predict` scoring block: rejection marker → [-1], else checkanswer; factlabel independently. */
export function judgeResponse(response: string, answer: AnswerParts, language: 'en' | 'zh', strict: boolean, markers: Markers = REFERENCE_MARKERS): RgbJudgement {
  const text = scoredText(response, language);
  const rejection = findMarker(text, markers.rejection, strict);
  const parts = rejection.hit === undefined ? checkAnswer(text, answer) : [];
  const labels: RgbLabel[] = rejection.hit === undefined ? parts.map((part) => part.label) : [-1];
  const factualError = findMarker(text, markers.factualError, strict);
  return { text, labels, factlabel: factualError.hit === undefined ? 0 : 1, correct: isCorrect(labels), rejection, factualError, parts };
}
