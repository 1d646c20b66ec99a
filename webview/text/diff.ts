// Word-level diff of two responses (longest common subsequence), for the run comparison view.

export interface DiffPart {
  op: 'equal' | 'delete' | 'insert';
  text: string;
}

export interface WordDiff {
  parts: DiffPart[];
  /** True when the texts were too long for an exact LCS and the changed middle is shown as one replacement. */
  approximate: boolean;
}

/**
 * LCS on whole tokens needs (n+1)·(m+1) cells; past this budget (two ~2,000-word responses that differ
 * throughout) the middle is reported as deleted + inserted rather than freezing the view.
 */
const DEFAULT_CELL_BUDGET = 4_000_000;

/** Words, runs of whitespace and single punctuation marks, so "Paris." vs "Paris!" differ only in the mark. */
export function tokenize(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]/gu) ?? [];
}

export function diffWords(before: string, after: string, cellBudget = DEFAULT_CELL_BUDGET): WordDiff {
  const a = tokenize(before);
  const b = tokenize(after);

  // Common prefix and suffix are cheap and usually most of two similar answers; only the middle needs LCS.
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;

  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const parts: DiffPart[] = [];
  push(parts, 'equal', a.slice(0, prefix).join(''));

  let approximate = false;
  if ((midA.length + 1) * (midB.length + 1) > cellBudget) {
    approximate = true;
    push(parts, 'delete', midA.join(''));
    push(parts, 'insert', midB.join(''));
  } else {
    for (const part of lcsDiff(midA, midB)) push(parts, part.op, part.text);
  }

  push(parts, 'equal', a.slice(a.length - suffix).join(''));
  return { parts: joinChanges(parts), approximate };
}

/**
 * Readability pass: a change, a lone space, another change reads as word salad ("~~the~~ ++The++ answer");
 * whitespace-only equal parts between changes are folded into them, so each changed stretch shows as one
 * deletion followed by one insertion.
 */
function joinChanges(parts: readonly DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let deleted = '';
  let inserted = '';
  const flush = () => {
    push(out, 'delete', deleted);
    push(out, 'insert', inserted);
    deleted = '';
    inserted = '';
  };
  parts.forEach((part, i) => {
    const inChange = deleted !== '' || inserted !== '';
    const next = parts[i + 1];
    if (part.op === 'delete') deleted += part.text;
    else if (part.op === 'insert') inserted += part.text;
    else if (inChange && next && next.op !== 'equal' && /^\s+$/.test(part.text)) { deleted += part.text; inserted += part.text; }
    else { flush(); push(out, 'equal', part.text); }
  });
  flush();
  return out;
}

/** Classic dynamic-programming LCS, then a walk from the start emitting equal / delete / insert tokens. */
function lcsDiff(a: readonly string[], b: readonly string[]): DiffPart[] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  // lengths[i][j] = LCS length of a[i..] and b[j..], stored row-major in one typed array.
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j]
        ? lengths[(i + 1) * width + j + 1]! + 1
        : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) { push(parts, 'equal', a[i]!); i++; j++; }
    else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) { push(parts, 'delete', a[i]!); i++; }
    else { push(parts, 'insert', b[j]!); j++; }
  }
  while (i < n) push(parts, 'delete', a[i++]!);
  while (j < m) push(parts, 'insert', b[j++]!);
  return parts;
}

/** Appends, merging with the previous part of the same kind; empty text is dropped. */
function push(parts: DiffPart[], op: DiffPart['op'], text: string): void {
  if (text.length === 0) return;
  const last = parts[parts.length - 1];
  if (last && last.op === op) last.text += text;
  else parts.push({ op, text });
}

/** The text one side of the diff shows: `before` drops insertions, `after` drops deletions. */
export function sideParts(parts: readonly DiffPart[], side: 'before' | 'after'): DiffPart[] {
  const dropped = side === 'before' ? 'insert' : 'delete';
  return parts.filter((p) => p.op !== dropped);
}
