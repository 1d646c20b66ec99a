// A column of human labels already in the dataset (`humanLabels: <column>` on a suite): read as "the response is
// correct" (true) or "wrong" (false), for agreement where no verdict was given in the inspector (core/verdicts).

const CORRECT = new Set(['correct', 'true', 'yes', 'pass', '1', 'y']);
const WRONG = new Set(['wrong', 'incorrect', 'false', 'no', 'fail', '0', 'n']);

/** undefined for an empty cell (no label); an Error naming the accepted values for anything else unreadable. */
export function parseHumanLabel(value: unknown): boolean | undefined | Error {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (CORRECT.has(word)) return true;
    if (WRONG.has(word)) return false;
  }
  return new Error(`a human label must be correct / wrong (also true / false, yes / no, pass / fail, 1 / 0), got ${JSON.stringify(value)}`);
}
