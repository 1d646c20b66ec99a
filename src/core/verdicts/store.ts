// .rag-inspector/verdicts.jsonl: append-only, one verdict per line, the newest line for a key wins. Each verdict is
// one appendFile (a single O_APPEND write), and writes from this process go one after another, so lines from two
// windows or a burst of keys never interleave; a line cut short by a crash is skipped when read.
import { appendFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { readRegularFile } from '../regularFile.js';
import type { FileProblem } from '../regularFile.js';
import { verdictKey } from './model.js';
import type { CurrentVerdict, VerdictLine } from './model.js';

export const VERDICTS_FILE = path.join('.rag-inspector', 'verdicts.jsonl');

/** Read whole: tens of thousands of verdicts on long prompts fit; a file far larger is refused, not read into memory. */
export const MAX_VERDICTS_BYTES = 64 * 1024 * 1024;

function isVerdictLine(value: unknown): value is VerdictLine {
  const v = value as Partial<VerdictLine> | null;
  return typeof v === 'object' && v !== null && v.type === 'verdict' && typeof v.request === 'string' && typeof v.response === 'string'
    && typeof v.modelKey === 'string' && (v.label === null || v.label === 'correct' || v.label === 'wrong') && typeof v.at === 'string';
}

export class VerdictStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  static inWorkspace(folder: string): VerdictStore {
    return new VerdictStore(path.join(folder, VERDICTS_FILE));
  }

  /** Appends verdicts (one line each, in order); resolves when they are on disk. */
  append(lines: readonly VerdictLine[]): Promise<void> {
    const write = this.queue.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      for (const line of lines) await appendFile(this.file, `${JSON.stringify(line)}\n`, 'utf8');
    });
    this.queue = write.catch(() => undefined);
    return write;
  }

  /**
   * Every readable line, in file order; a missing file is no verdicts. Throws a FileProblem for a file that is no
   * regular file (a named pipe would block the read) or is above MAX_VERDICTS_BYTES.
   */
  async lines(): Promise<VerdictLine[]> {
    let text: string;
    try {
      text = (await readRegularFile(this.file, MAX_VERDICTS_BYTES)).toString('utf8');
    } catch (error) {
      if ((error as FileProblem).kind === 'missing') return [];
      throw error;
    }
    const lines: VerdictLine[] = [];
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      try {
        const value = JSON.parse(raw) as unknown;
        if (isVerdictLine(value)) lines.push(value);
      } catch {
        // A torn last line (a crash mid-write): the rest of the file is still good.
      }
    }
    return lines;
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
