// Text a report writer cannot place yet (its position depends on counts only known at the end: JUnit's suite totals,
// the HTML report's data, the CSV's metric columns): kept in memory while small, then in a temporary file, and read
// back in order once — so every report is written from one pass over the run log in bounded memory.
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { TextSink } from './textSink.js';

/**
 * Characters held in memory before the spool moves to a file: a small run's reports never touch the disk. Small,
 * since the writers' spools now live during the run, beside its own memory.
 */
const MEMORY_CHARS = 256 * 1024;
const READ_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

export class Spool implements TextSink {
  private parts: string[] = [];
  private chars = 0;
  private file: { dir: string; handle: FileHandle } | undefined;

  /** `dir`: where the temporary file goes when the text outgrows memory (the reports' folder: the same disk). */
  constructor(private readonly dir: string = tmpdir()) {}

  async write(text: string): Promise<void> {
    if (text === '') return;
    this.parts.push(text);
    this.chars += text.length;
    if (this.chars >= MEMORY_CHARS) await this.flush();
  }

  /**
   * Everything written, in order, to `sink`: what is in the file as its bytes, when the sink takes bytes.
   * `newlinesAs`: an ASCII character each newline is written as (the lines of a spool joined by it), byte for byte:
   * no UTF-8 sequence holds the byte of an ASCII character.
   */
  async copyTo(sink: TextSink, newlinesAs?: string): Promise<void> {
    const text = (part: string) => (newlinesAs === undefined ? part : part.replaceAll('\n', newlinesAs));
    if (!this.file || !sink.writeBytes) {
      for await (const part of this.chunks()) await sink.write(text(part));
      return;
    }
    const replacement = newlinesAs?.charCodeAt(0);
    for await (const bytes of this.fileChunks()) {
      if (replacement !== undefined) for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) bytes[at] = replacement;
      await sink.writeBytes(bytes);
    }
    for (const part of this.parts) await sink.write(text(part));
  }

  /** The text written, split at newlines (the last fragment too, if it has none). */
  async *lines(): AsyncGenerator<string> {
    let pending = '';
    for await (const chunk of this.chunks()) {
      let from = 0;
      for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', from)) {
        yield pending + chunk.slice(from, newline);
        pending = '';
        from = newline + 1;
      }
      pending += chunk.slice(from);
    }
    if (pending !== '') yield pending;
  }

  /** Removes the temporary file, if any; idempotent. */
  async dispose(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    this.parts = [];
    if (!file) return;
    await file.handle.close().catch(() => undefined);
    await rm(file.dir, { recursive: true, force: true });
  }

  private async *chunks(): AsyncGenerator<string> {
    const decoder = new StringDecoder('utf8');
    for await (const bytes of this.fileChunks()) yield decoder.write(bytes);
    const rest = decoder.end();
    if (rest) yield rest;
    yield* this.parts;
  }

  /** The file's bytes in order, read into one buffer: each chunk is to be used before the next is asked for. */
  private async *fileChunks(): AsyncGenerator<Buffer> {
    if (!this.file) return;
    const { handle } = this.file;
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    for (let position = 0; ;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  }

  private async flush(): Promise<void> {
    if (!this.file) {
      const dir = await mkdtemp(path.join(this.dir, '.rag-inspector-spool-'));
      this.file = { dir, handle: await open(path.join(dir, 'spool'), 'w+') };
    }
    const text = this.parts.join('');
    this.parts = [];
    this.chars = 0;
    await this.file.handle.appendFile(text, 'utf8');
  }
}
