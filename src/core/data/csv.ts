// CSV/TSV reader via csv-parse, streamed: the header row names the fields, every record keeps its line.
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { InputError } from '../errors.js';
import { readUtf8Blocks } from './lines.js';
import type { RawItem } from './reader.js';

interface ParsedRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

const QUOTING_HINT = 'a field holding the delimiter, a quote or a line break is quoted, and a quote inside it is written ""';

/** Yields one item per record after the header; a ragged record becomes an error item and reading goes on. */
export async function* readCsv(file: string, signal?: AbortSignal, delimiter = ','): AsyncGenerator<RawItem> {
  const source = new EncodingCheckedSource(file, signal);
  // relax_quotes: a stray quote inside an unquoted field (He said "hi") is text, as spreadsheets read it.
  const parser = Readable.from(source.blocks()).pipe(
    parse({ delimiter, info: true, raw: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }),
  );
  let header: string[] | undefined;
  let lastLine = 0;
  try {
    for await (const parsed of parser as AsyncIterable<ParsedRecord>) {
      const line = startLine(parsed);
      lastLine = parsed.info.lines;
      if (header !== undefined) {
        yield toRow(file, line, header, parsed.record);
        continue;
      }
      const problem = checkHeader(file, line, parsed.record);
      if (problem) {
        yield problem;
        return;
      }
      header = parsed.record;
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // An encoding problem cuts the text short, which may leave a quote open: report the cause instead.
    yield source.problem ?? csvProblem(file, error, lastLine);
    return;
  } finally {
    parser.destroy();
  }
  if (source.problem) yield source.problem;
}

export function readTsv(file: string, signal?: AbortSignal): AsyncGenerator<RawItem> {
  return readCsv(file, signal, '\t');
}

/**
 * The file's text for the parser, with '\r\n' turned into '\n': csv-parse miscounts lines after blank CRLF
 * lines, and the lines are what users click on (a quoted multi-line cell thus reads with '\n' breaks). A
 * non-UTF-8 line ends the text normally instead of failing the stream, because a failed stream would drop
 * the records csv-parse still holds; the problem is reported after them.
 */
class EncodingCheckedSource {
  problem: InputError | undefined;

  constructor(private readonly file: string, private readonly signal?: AbortSignal) {}

  async *blocks(): AsyncGenerator<string> {
    try {
      // Blocks end at '\n', so no '\r\n' is split between two of them.
      for await (const block of readUtf8Blocks(this.file, this.signal)) yield block.replaceAll('\r\n', '\n');
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.problem = error;
    }
  }
}

/** csv-parse reports the line a record ends on; a quoted field may span lines, and skipped blank lines lead `raw`. */
function startLine(parsed: ParsedRecord): number {
  const body = parsed.raw.replace(/^\n+/, '').replace(/\n$/, '');
  return parsed.info.lines - countNewlines(body);
}

function checkHeader(file: string, line: number, names: string[]): InputError | undefined {
  const hint = 'the first row must name every column once, e.g. query,answer,positive';
  const empty = names.findIndex((name) => name.trim() === '');
  if (empty !== -1) return new InputError({ file, line }, `column ${empty + 1} of the header row has no name`, hint);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined) return new InputError({ file, line }, `the header row names column '${duplicate}' twice`, hint);
  return undefined;
}

function toRow(file: string, line: number, header: string[], cells: string[]): RawItem {
  if (cells.length !== header.length) {
    return new InputError(
      { file, line },
      `row has ${cells.length} field${cells.length === 1 ? '' : 's'}, the header has ${header.length}`,
      'add or remove delimiters so every row has one field per header column; quote fields that contain the delimiter',
    );
  }
  const data: Record<string, unknown> = {};
  header.forEach((name, index) => (data[name] = cellValue(cells[index]!)));
  return { line, data };
}

/** Cells holding a JSON list or object (RGB's answer lists) become that value; anything else stays a string. */
export function cellValue(cell: string): unknown {
  const start = cell.trimStart()[0];
  if (start !== '[' && start !== '{') return cell;
  try {
    return JSON.parse(cell);
  } catch {
    return cell;
  }
}

/**
 * A parse failure ends the file. For an unclosed quote csv-parse counts lines to the end of the file, so the
 * record that failed is placed after the last good one instead.
 */
function csvProblem(file: string, error: CsvError, lastLine: number): InputError {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    return new InputError({ file, line: lastLine + 1 }, 'invalid CSV: a quoted field is never closed (at or after this line)', QUOTING_HINT);
  }
  const line = typeof error.lines === 'number' ? error.lines : undefined;
  return new InputError({ file, line }, `invalid CSV: ${error.message}`, QUOTING_HINT);
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
