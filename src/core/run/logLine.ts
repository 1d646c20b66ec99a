// The one decoder of a run log line: raw text to a typed line, checked (UTF-8, JSON, its type's shape:
// logLineShapes.ts) and, for a format-3 case line, unpacked against the shared lines before it (packedCase.ts) to the
// line format 2 stores. Every reader — the run log's (runLog.ts), its index, the tables and the reports' pass — reads
// through it, so a line means one thing to all of them; what a reader keeps of each line is its own business.
import type { BatchLine, ResumeLine, RunHeader, RunLogProblem, StoredCaseLine, SummaryLine } from './runLog.js';
import type { TextLine } from './caseText.js';
import { unpackCaseLine } from './packedCase.js';
import { MissingSharedError } from './sharedValues.js';
import type { SharedLine, SharedTable } from './sharedValues.js';
import { isLogLineType, lineShapeProblem } from './logLineShapes.js';

/** A line as its readers use it; a case line as format 2 stores it (its texts may still be references: caseText.ts). */
export type DecodedLine = RunHeader | StoredCaseLine | TextLine | SharedLine | ResumeLine | BatchLine | SummaryLine;

/** What is wrong with a line that cannot be used, as a reader reports it at the line's number. */
export type LineProblem = Pick<RunLogProblem, 'severity' | 'message'>;

/**
 * Decodes line `at` (1-based) of a log. `shared`: the log's shared lines so far — a shared line is noted in it (a
 * second definition of an id with another value is a problem: two processes wrote the log), a case line unpacked
 * against it. `utf8`: false when the line's bytes were not valid UTF-8. A header is decoded like any line here (its
 * format is parseHeader's to check); a reader met with one after line 1 decides what it means.
 */
export function decodeLogLine(text: string, shared: SharedTable, at: number, utf8 = true): { line: DecodedLine } | { problem: LineProblem } {
  if (!utf8) return { problem: { severity: 'error', message: 'not valid UTF-8 (the file was damaged); the line was skipped' } };
  let value: { type?: unknown; case?: unknown; result?: unknown } | null;
  try {
    value = JSON.parse(text) as typeof value;
  } catch {
    return { problem: { severity: 'error', message: 'not valid JSON; the line was skipped' } };
  }
  const type = value?.type;
  if (!isLogLineType(type)) return { problem: { severity: 'warning', message: `unknown line type ${JSON.stringify(type)}; skipped` } };
  if (type === 'header') return { line: value as RunHeader };
  if (type === 'case') {
    try {
      value = unpackCaseLine(value!, shared, at);
    } catch (error) {
      // A packed line of the wrong shape fails while unpacking (a list where a shape's values should be, ...).
      return { problem: { severity: 'error', message: `${error instanceof MissingSharedError ? error.message : `a case line that cannot be unpacked (${(error as Error).message})`}; the case was skipped` } };
    }
    const shape = lineShapeProblem('case', value);
    return shape === undefined ? { line: value as StoredCaseLine } : { problem: { severity: 'error', message: `a case line whose ${shape}; the case was skipped` } };
  }
  const shape = lineShapeProblem(type, value);
  if (shape !== undefined) return { problem: { severity: 'error', message: `a ${type} line whose ${shape}; skipped` } };
  if (type === 'shared' && shared.note(value as SharedLine, at) === 'redefined') {
    const { id } = value as SharedLine;
    return { problem: { severity: 'error', message: `shared value @${id} is defined again with a different value (two processes wrote this log at once); the case lines after this one that use it are skipped` } };
  }
  return { line: value as DecodedLine };
}
