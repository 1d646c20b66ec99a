// The run log read back as it is written: each line its writer appends goes through the readers' one decoder
// (logLine.ts) and each case line comes out as a reader of the file rebuilds it, so what is fed from here while a run
// goes (its tables, the CLI's reports) is what a later pass over the log would read — without reading the file again
// (only a text that fell out of the bounded text cache is read back, by its byte range).
import type { FileHandle } from 'node:fs/promises';
import { openRegularFile } from '../regularFile.js';
import { MissingTextError, decodeCase } from './caseText.js';
import type { StoredCase } from './caseText.js';
import { decodeLogLine } from './logLine.js';
import { LogTexts } from './logTexts.js';
import type { SharedTable } from './sharedValues.js';
import type { CaseLine, StoredCaseLine, SummaryLine } from './runLog.js';

export class LogTail {
  private readonly texts = new LogTexts();
  private pending: StoredCaseLine[] = [];
  private handle: Promise<FileHandle> | undefined;
  private summaryLine: SummaryLine | undefined;
  /**
   * False once a line written could not be read back as a reader of the file would read it (a reader skips such a
   * line and reports it): what was fed from here is then not the log's reading, and a reader of the file must be used.
   */
  exact = true;

  /** `shared`: the log's shared lines so far (a resumed log's earlier ones included); texts are those written from now on. */
  constructor(private readonly file: string, private readonly format: number, private readonly shared: SharedTable) {}

  /** Lines written and not read back yet: read back together (take), not one at a time between the run's other work. */
  private unreadLines: { text: string; offset: number; length: number }[] = [];

  /** A line just written at byte `offset`, `length` bytes without its newline. */
  written(text: string, offset: number, length: number): void {
    this.unreadLines.push({ text, offset, length });
  }

  /** How many lines were written and not read back yet. */
  get unread(): number {
    return this.unreadLines.length;
  }

  private readBack(text: string, offset: number, length: number): void {
    const decoded = decodeLogLine(text, this.shared, 0);
    if ('problem' in decoded) {
      this.exact = false;
      return;
    }
    const { line } = decoded;
    if (line.type === 'text') {
      this.texts.note(line.id, offset, length);
      this.texts.keep(line.id, line.text);
    } else if (line.type === 'case') {
      this.pending.push(line);
    } else if (line.type === 'summary') {
      this.summaryLine = line;
    } else if (line.type === 'resume') {
      this.summaryLine = undefined;
    }
  }

  /** The case lines written since the last call, in order, rebuilt as a reader of the file rebuilds them. */
  async take(): Promise<CaseLine[]> {
    const written = this.unreadLines;
    this.unreadLines = [];
    for (const { text, offset, length } of written) this.readBack(text, offset, length);
    const lines = this.pending;
    this.pending = [];
    if (this.format < 2) return lines as CaseLine[];
    const out: CaseLine[] = [];
    for (const line of lines) {
      try {
        this.handle ??= openRegularFile(this.file);
        const texts = await this.texts.resolve(line.case as StoredCase, await this.handle);
        out.push({ type: 'case', case: decodeCase(line.case as StoredCase, texts), result: line.result });
      } catch (error) {
        if (!(error instanceof MissingTextError)) throw error;
        this.exact = false;
      }
    }
    return out;
  }

  /** The last summary line written, as read back. */
  get summary(): SummaryLine | undefined {
    for (const { text, offset, length } of this.unreadLines.splice(0)) this.readBack(text, offset, length);
    return this.summaryLine;
  }

  /** Closes the file it reads texts back from, if it opened it; idempotent. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await (await handle?.catch(() => undefined))?.close();
  }
}
