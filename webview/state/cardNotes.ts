// What a method says about one document or one score beyond its spans: verdict badges with a reason, e.g. "#1 ✓ useful".

export type NoteTone = 'pass' | 'fail' | 'info' | 'warn';

/** A badge (glyph and words, never colour alone) with an optional line of explanation. */
export interface CardNote {
  /** Stable hook for tests and styling: "citation", "helpful", "judged-role", "precision"… */
  kind: string;
  tone: NoteTone;
  badge: string;
  text?: string;
}

/** Appends to a map of lists, for notes and marks grouped by document id or metric. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, ...values: V[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, [...values]);
}
