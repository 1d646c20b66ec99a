// Where a streaming report writer puts its text: a file (with back-pressure) or a string in memory.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { replaceFileAtomically } from '../atomicFile.js';

export interface TextSink {
  write(text: string): Promise<void>;
  /**
   * UTF-8 bytes of text, written as they are (a spool moved to a file copies its bytes without decoding them and
   * encoding them again); done with `bytes` when it resolves. A sink without it is given the text.
   */
  writeBytes?(bytes: Buffer): Promise<void>;
}

/** Collects the text; for tests and small runs. */
export class StringSink implements TextSink {
  private readonly parts: string[] = [];

  async write(text: string): Promise<void> {
    this.parts.push(text);
  }

  toString(): string {
    return this.parts.join('');
  }
}

/**
 * Writes `file` through `produce`, waiting whenever the OS buffer is full so memory stays flat whatever the size.
 * The file is replaced atomically (atomicFile.ts): until the last byte is written the previous file stays in place.
 */
export function writeFileStreaming(file: string, produce: (sink: TextSink) => Promise<void>): Promise<void> {
  return replaceFileAtomically(file, (temporary) => streamTo(temporary, produce));
}

async function streamTo(file: string, produce: (sink: TextSink) => Promise<void>): Promise<void> {
  const stream = createWriteStream(file, { encoding: 'utf8', flags: 'wx' });
  const failed = once(stream, 'error').then(([error]) => { throw error as Error; });
  failed.catch(() => undefined);
  const sink: TextSink = {
    async write(text: string) {
      if (text === '' || stream.write(text)) return;
      await Promise.race([once(stream, 'drain'), failed]);
    },
    async writeBytes(bytes: Buffer) {
      if (bytes.length === 0) return;
      // Resolved once these bytes are in the file, so the caller may fill the same buffer again.
      await Promise.race([new Promise<void>((resolve, reject) => stream.write(bytes, (error) => (error ? reject(error) : resolve()))), failed]);
    },
  };
  try {
    await produce(sink);
  } finally {
    stream.end();
  }
  await Promise.race([once(stream, 'finish'), failed]);
}

/** Runs a streaming writer into a string. */
export async function renderToString(produce: (sink: TextSink) => Promise<void>): Promise<string> {
  const sink = new StringSink();
  await produce(sink);
  return sink.toString();
}
