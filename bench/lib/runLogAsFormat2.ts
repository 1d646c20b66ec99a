// Rewrites a format-3 run log as format 2 (shared lines dropped, case lines unpacked), so a reader's time on the same
// cases can be compared with the format before shared lines. Usage: node --import tsx bench/lib/runLogAsFormat2.ts <from> <to>
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { SharedTable } from '../../src/core/run/sharedValues.js';
import type { SharedLine } from '../../src/core/run/sharedValues.js';
import { unpackCaseLine } from '../../src/core/run/packedCase.js';

async function main(): Promise<void> {
  const [from, to] = process.argv.slice(2);
  if (!from || !to) throw new Error('usage: runLogAsFormat2.ts <format-3 log> <format-2 log to write>');
  const out = createWriteStream(to);
  const shared = new SharedTable();
  let first = true;
  for await (const text of createInterface({ input: createReadStream(from), crlfDelay: Infinity })) {
    let value = JSON.parse(text) as { type: string; format?: number; case?: unknown; result?: unknown };
    if (first) {
      value.format = 2;
      first = false;
    } else if (value.type === 'shared') {
      shared.note(value as Partial<SharedLine>);
      continue;
    } else if (value.type === 'case') {
      value = unpackCaseLine(value, shared);
    }
    if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
