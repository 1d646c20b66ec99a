// A JSONL file of documents, one a line ({"id"?, "text", "title"?}), read as one text: the records joined by blank
// lines, each record's title (when given) on a line before its text. Records are kept apart for the chunker, and
// every bad line is said (file:line, how to fix it) while the good lines are still read.
import { InputError } from '../errors.js';
import { jsonProblem } from '../data/jsonError.js';
import type { ExtractedText } from './contract.js';
import type { ExtractedTextWithText } from './html.js';
import { wellFormed } from './tokenOffsets.js';

const RECORD_HINT = 'each line is one document: {"id": "…", "text": "…", "title": "…"} (id and title optional)';
const SEPARATOR = '\n\n';

type Record = NonNullable<ExtractedText['records']>[number];

/** The records' text and map; `problems` for the lines left out. `file` names the file in messages. */
export function jsonlText(source: string, file: string): ExtractedTextWithText & { problems: InputError[] } {
  const parts: string[] = [];
  const records: Record[] = [];
  const lines: Array<[number, number]> = [];
  const problems: InputError[] = [];
  const firstLineOfId = new Map<string, number>();
  let length = 0;
  source.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    const parsed = parseRecord(text, file, line);
    if (parsed instanceof InputError) {
      problems.push(parsed);
      return;
    }
    if (parsed.id !== undefined) {
      const first = firstLineOfId.get(parsed.id);
      if (first !== undefined) {
        problems.push(new InputError({ file, line }, `id "${parsed.id}" is already used on line ${first}`, 'give each document its own id'));
        return;
      }
      firstLineOfId.set(parsed.id, line);
    }
    if (parts.length > 0) {
      parts.push(SEPARATOR);
      length += SEPARATOR.length;
    }
    const content = parsed.title === undefined ? parsed.text : `${parsed.title}\n\n${parsed.text}`;
    lines.push([length, line]);
    records.push({ start: length, end: length + content.length, line, ...(parsed.id === undefined ? {} : { id: parsed.id }), ...(parsed.title === undefined ? {} : { title: parsed.title }) });
    parts.push(content);
    length += content.length;
  });
  if (lines.length === 0) lines.push([0, 1]);
  else (lines[0] as [number, number])[0] = 0;
  return { text: parts.join(''), extracted: { lines, records }, problems };
}

function parseRecord(text: string, file: string, line: number): { id?: string; text: string; title?: string } | InputError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const problem = jsonProblem(error, text);
    return new InputError({ file, line, ...(problem.offset === undefined ? {} : { column: problem.offset + 1 }) }, `invalid JSON: ${problem.message}`, RECORD_HINT);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return new InputError({ file, line, column: 1 }, 'the line is not a JSON object', RECORD_HINT);
  const record = value as { id?: unknown; text?: unknown; title?: unknown };
  if (typeof record.text !== 'string') return new InputError({ file, line }, record.text === undefined ? 'the document has no "text"' : '"text" is not a string', RECORD_HINT);
  if (record.text.trim() === '') return new InputError({ file, line }, '"text" is empty', 'give the document its text, or remove the line');
  if (record.id !== undefined && record.id !== null && typeof record.id !== 'string' && typeof record.id !== 'number') return new InputError({ file, line }, '"id" is neither a string nor a number', RECORD_HINT);
  if (record.title !== undefined && record.title !== null && typeof record.title !== 'string') return new InputError({ file, line }, '"title" is not a string', RECORD_HINT);
  const title = typeof record.title === 'string' && record.title.trim() !== '' ? wellFormed(record.title.trim()) : undefined;
  return {
    text: wellFormed(record.text),
    ...(record.id === undefined || record.id === null ? {} : { id: String(record.id) }),
    ...(title === undefined ? {} : { title }),
  };
}
