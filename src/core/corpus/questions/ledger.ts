// What an earlier run of generate-questions wrote: the kept questions (questions.jsonl) and the rejected ones
// (questions.rejected.jsonl), read so a rerun skips the finished jobs and checks new questions against the kept ones.
// New lines are appended one whole line at a time, so a cancelled run leaves only finished jobs behind.
import { appendFile } from 'node:fs/promises';
import * as path from 'node:path';
import { InputError } from '../../errors.js';
import { regularFileProblem } from '../../regularFile.js';
import { readLines } from '../../run/jsonLines.js';
import { QUESTION_KINDS } from './model.js';
import type { QuestionKind, QuestionRow, RejectedQuestion } from './model.js';

export interface Ledger {
  /** Jobs finished: kept, or rejected by a check (a failed call is not finished: asked again). */
  done: Set<string>;
  kept: Pick<QuestionRow, 'id' | 'kind' | 'question'>[];
  rejected: number;
}

/** A file kept beside the questions file: `questions.jsonl` → `questions.<tag>.jsonl`. */
export function besideQuestions(out: string, tag: string): string {
  const ext = path.extname(out);
  return path.join(path.dirname(out), `${path.basename(out, ext)}.${tag}${ext || '.jsonl'}`);
}

/** `questions.jsonl` → `questions.rejected.jsonl`, beside it. */
export function rejectedFileFor(out: string): string {
  return besideQuestions(out, 'rejected');
}

async function* records(file: string): AsyncGenerator<{ line: number; value: Record<string, unknown> }> {
  const problem = await regularFileProblem(file);
  if (problem?.kind === 'missing') return;
  for await (const line of readLines(file)) {
    if (line.text.trim() === '') continue;
    const hint = 'delete that line (its question is generated again) and run the command again';
    if (!line.complete) throw new InputError({ file, line: line.number }, 'the last line is cut short (a write was interrupted)', hint);
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      throw new InputError({ file, line: line.number }, `not a JSON line: ${(error as Error).message}`, hint);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError({ file, line: line.number }, 'expected a JSON object', hint);
    yield { line: line.number, value: value as Record<string, unknown> };
  }
}

function sourceKey(value: Record<string, unknown>): string | undefined {
  const source = value.source as { key?: unknown } | undefined;
  return typeof source?.key === 'string' ? source.key : undefined;
}

/**
 * Reads both files (either may be missing). A kept row without `source.key` (a question added by hand) is kept for
 * the duplicate check but finishes no job; the last rejection of a key wins, and one with `retry: true` is asked again.
 */
export async function readLedger(out: string, rejectedFile = rejectedFileFor(out)): Promise<Ledger> {
  const ledger: Ledger = { done: new Set(), kept: [], rejected: 0 };
  for await (const { value } of records(out)) {
    const key = sourceKey(value);
    if (key) ledger.done.add(key);
    if (typeof value.question === 'string' && typeof value.id === 'string' && (QUESTION_KINDS as readonly string[]).includes(String(value.kind))) {
      ledger.kept.push({ id: value.id, kind: value.kind as QuestionKind, question: value.question });
    }
  }
  const retry = new Map<string, boolean>();
  for await (const { value } of records(rejectedFile)) {
    if (typeof value.key === 'string') retry.set(value.key, value.retry === true);
  }
  for (const [key, again] of retry) {
    if (!again && !ledger.done.has(key)) {
      ledger.done.add(key);
      ledger.rejected++;
    }
  }
  return ledger;
}

/** Appends one JSON line: a whole finished job, or nothing. */
export async function appendRecord(file: string, record: QuestionRow | RejectedQuestion): Promise<void> {
  await appendFile(file, `${JSON.stringify(record)}\n`, 'utf8');
}
