// .rag-inspector/verdicts.jsonl: append-only, one verdict per line, the newest line for a key wins (appendOnlyJsonl.ts:
// lines never interleave, a line cut short by a crash is skipped when read).
import * as path from 'node:path';
import { AppendOnlyJsonl, MAX_APPEND_ONLY_BYTES } from '../appendOnlyJsonl.js';
import { verdictKey } from './model.js';
import type { CurrentVerdict, VerdictLine } from './model.js';

export const VERDICTS_FILE = path.join('.rag-inspector', 'verdicts.jsonl');

/** Read whole: tens of thousands of verdicts on long prompts fit; a file far larger is refused, not read into memory. */
export const MAX_VERDICTS_BYTES = MAX_APPEND_ONLY_BYTES;

function isVerdictLine(value: unknown): value is VerdictLine {
  const v = value as Partial<VerdictLine> | null;
  return typeof v === 'object' && v !== null && v.type === 'verdict' && typeof v.request === 'string' && typeof v.response === 'string'
    && typeof v.modelKey === 'string' && (v.label === null || v.label === 'correct' || v.label === 'wrong') && typeof v.at === 'string';
}

export class VerdictStore extends AppendOnlyJsonl<VerdictLine> {
  constructor(file: string) {
    super(file, isVerdictLine, MAX_VERDICTS_BYTES);
  }

  static inWorkspace(folder: string): VerdictStore {
    return new VerdictStore(path.join(folder, VERDICTS_FILE));
  }

  /** The newest line per key. */
  async latest(): Promise<VerdictIndex> {
    return new VerdictIndex(await this.lines());
  }
}

/** The newest verdict per (request, model, metric); a note without a label keeps the earlier label. */
export class VerdictIndex {
  private readonly byKey = new Map<string, VerdictLine>();

  constructor(lines: readonly VerdictLine[]) {
    for (const line of lines) {
      const key = verdictKey(line.request, line.modelKey, line.metric);
      const before = this.byKey.get(key);
      this.byKey.set(key, before && line.label === null && line.note !== undefined && before.response === line.response ? { ...line, label: before.label } : line);
    }
  }

  /** The verdict on this request and response (per metric, else the whole case's), stale when the response differs. */
  lookup(request: string, response: string, modelKey: string, metric?: string): CurrentVerdict | undefined {
    const line = (metric !== undefined ? this.byKey.get(verdictKey(request, modelKey, metric)) : undefined) ?? this.byKey.get(verdictKey(request, modelKey));
    if (!line) return undefined;
    return { label: line.label, ...(line.note !== undefined ? { note: line.note } : {}), at: line.at, stale: line.response !== response };
  }

  get size(): number {
    return this.byKey.size;
  }
}
