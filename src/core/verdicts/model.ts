// Human verdicts: a person's "correct" / "wrong" (and an optional note) on a case, or on one score of it, keyed by
// what was judged — the rendered request and the response — so a verdict outlives reruns of the same content and is
// known to be stale once the response changes. Stored in the workspace (store.ts), never in run logs.
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../model.js';

export type HumanLabel = 'correct' | 'wrong';

/** One line of .rag-inspector/verdicts.jsonl. */
export interface VerdictLine {
  type: 'verdict';
  /** sha256 of the messages as sent (role and content), the identity of the request. */
  request: string;
  /** sha256 of the response text the person read. */
  response: string;
  modelKey: string;
  /** The score judged, or absent for the whole case. */
  metric?: string;
  /** null: a note only; the earlier label on the same response stands. */
  label: HumanLabel | null;
  note?: string;
  /** For a reader of the file; lookups go by the hashes. */
  caseId: string;
  at: string;
}

/** What a case's verdict is now, for the inspector and agreement. */
export interface CurrentVerdict {
  label: HumanLabel | null;
  note?: string;
  at: string;
  /** The response changed since the person judged it: shown, but not counted in agreement. */
  stale: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The request's identity: the messages as sent, role and content in order (the same across reruns). */
export function requestHash(messages: readonly ChatMessage[]): string {
  return sha256(JSON.stringify(messages.map((m) => [m.role, m.content])));
}

export function responseHash(text: string): string {
  return sha256(text);
}

/** What a verdict is about: one (request, model) pair, and one metric or the whole case. */
export function verdictKey(request: string, modelKey: string, metric?: string): string {
  return `${request}\u0000${modelKey}\u0000${metric ?? ''}`;
}
