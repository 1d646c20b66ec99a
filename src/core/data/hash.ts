// sha256 of a file, streamed, for run-log headers (which dataset/template/eval file produced a run).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}
