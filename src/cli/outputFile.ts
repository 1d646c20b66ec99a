// An output file must never be one of the command's inputs: writing it would destroy what is being read.
import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../core/spec/containment.js';
import { UsageError } from './args.js';

/** The real path when the file exists (links and `./` spellings resolved), else the absolute one. */
function realOrResolved(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * Throws UsageError(`message`) when `out` is `input` — or, when `input` is a folder, an existing file in it (a file
 * the command reads) — under any spelling or through a link.
 */
export function refuseOverwritingInput(input: string, out: string, message: string): void {
  const realInput = realOrResolved(input);
  const realOut = realOrResolved(out);
  if (realOut === realInput) throw new UsageError(message);
  const inputIsFolder = statSync(realInput, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const outExists = statSync(realOut, { throwIfNoEntry: false }) !== undefined;
  if (inputIsFolder && outExists && isInside(realOut, [realInput])) throw new UsageError(message);
}
