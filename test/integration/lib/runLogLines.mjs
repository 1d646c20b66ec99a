// A run log as the UI drivers check it: every complete line parsed, case lines unpacked to their stored form by the
// product's own reader (runLog.ts parseLogLines, through tsx: the drivers are plain Node), and how many bytes of a
// last line were cut short (a kill mid-write leaves one).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { tsImport } from 'tsx/esm/api';

const { parseLogLines } = await tsImport('../../../src/core/run/runLog.ts', import.meta.url);

const parses = (line) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

export function readLogLines(file) {
  const text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  const raw = text.slice(0, end).split('\n').filter(Boolean);
  // A complete line that is not JSON is reported (after the others), never skipped silently.
  const unparsable = raw.flatMap((line, i) => (parses(line) ? [] : [{ type: 'unparsable', line: i + 1 }]));
  const lines = [...parseLogLines(raw.filter(parses)), ...unparsable];
  return {
    lines,
    cases: lines.filter((l) => l.type === 'case'),
    batches: lines.filter((l) => l.type === 'batch'),
    partial: text.length - end,
  };
}

/** The run logs a workspace holds. */
export function runLogsIn(workspace) {
  const dir = path.join(workspace, '.rag-inspector/runs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f)) : [];
}
