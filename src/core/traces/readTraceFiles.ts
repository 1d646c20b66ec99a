// Reads trace files into spans: OTLP JSON, Phoenix span exports and Langfuse exports, either one JSON document per
// line (the Collector's file exporter, JSONL exports) or one document for the whole file (a saved API response).
// A line or record that cannot be read becomes a problem at its file:line; the rest of the file still imports.
import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { InputError } from '../errors.js';
import { describeNonRegular } from '../regularFile.js';
import { readWholeText } from '../data/lines.js';
import { decodeLangfuseObservation, decodeLangfuseTrace, isLangfuseObservation, isLangfuseTrace } from './langfuseObservations.js';
import { decodeOtlpTraces, isOtlpTraces } from './otlpJson.js';
import { decodePhoenixSpan, isPhoenixSpan } from './phoenixSpans.js';
import { isPlainObject } from './span.js';
import type { TraceSpan } from './span.js';

export const TRACE_FILE_EXTENSIONS = ['.json', '.jsonl', '.ndjson'];

export interface ReadTraces {
  spans: TraceSpan[];
  problems: InputError[];
  files: string[];
}

const UNKNOWN_FORMAT_HINT = 'expected OTLP JSON (an ExportTraceServiceRequest with resourceSpans), Phoenix spans (context.trace_id, context.span_id) or Langfuse observations (id, traceId, type)';

/** Every span in `target`: one trace file, or every .json/.jsonl/.ndjson file under a folder. */
export async function readTraceFiles(target: string): Promise<ReadTraces> {
  const files = await traceFilesIn(path.resolve(target));
  const read: ReadTraces = { spans: [], problems: [], files };
  for (const file of files) {
    const text = await readWholeText(file);
    if (text instanceof InputError) {
      read.problems.push(text);
      continue;
    }
    const { spans, problems } = readTraceText(file, text);
    read.spans.push(...spans);
    read.problems.push(...problems);
  }
  return read;
}

async function traceFilesIn(target: string): Promise<string[]> {
  let info;
  try {
    info = await stat(target);
  } catch {
    throw new InputError({ file: target }, 'no such file or folder', 'give a trace file (OTLP JSON, Phoenix or Langfuse export) or a folder of them');
  }
  if (info.isFile()) return [target];
  if (!info.isDirectory()) throw new InputError({ file: target }, `the trace path ${describeNonRegular(info)}`, 'give a trace file (OTLP JSON, Phoenix or Langfuse export) or a folder of them');
  const entries = await readdir(target, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && TRACE_FILE_EXTENSIONS.includes(path.extname(entry.name).toLowerCase()))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  if (files.length === 0) throw new InputError({ file: target }, `no trace files in this folder (looked for ${TRACE_FILE_EXTENSIONS.join(', ')})`);
  return files;
}

/** The spans of one file's text: the whole text as one JSON document if it is one, else one document per line. */
export function readTraceText(file: string, text: string): { spans: TraceSpan[]; problems: InputError[] } {
  const whole = parseJson(text);
  if (whole.ok) {
    const lineOf = lineFinder(text);
    return decodeDocument(whole.value, file, (id) => lineOf(id), 1);
  }
  const spans: TraceSpan[] = [];
  const problems: InputError[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (content === '') return;
    const parsed = parseJson(content);
    if (!parsed.ok) {
      const last = lines.slice(index + 1).every((rest) => rest.trim() === '');
      problems.push(new InputError({ file, line }, `not JSON: ${parsed.message}`, last
        ? 'the last line looks cut short (the writer stopped mid-line); the lines before it were imported'
        : 'a trace file holds one JSON document per line (OTLP JSON, Phoenix or Langfuse records)'));
      return;
    }
    const decoded = decodeDocument(parsed.value, file, () => line, line);
    spans.push(...decoded.spans);
    problems.push(...decoded.problems);
  });
  return { spans, problems };
}

function decodeDocument(document: unknown, file: string, lineOf: (id: string) => number, line: number): { spans: TraceSpan[]; problems: InputError[] } {
  const spans: TraceSpan[] = [];
  const problems: InputError[] = [];
  if (isOtlpTraces(document)) {
    const decoded = decodeOtlpTraces(document as Record<string, unknown>, file, lineOf);
    return { spans: decoded.spans, problems: decoded.problems.map((p) => new InputError({ file, line: p.line }, p.message)) };
  }
  // A list of records, or an API page ({ data: [...] } in both Phoenix's and Langfuse's APIs), or one record.
  const records = Array.isArray(document) ? document : isPlainObject(document) && Array.isArray(document.data) ? document.data : [document];
  for (const record of records) {
    if (!isPlainObject(record)) {
      problems.push(new InputError({ file, line }, 'not a trace record', UNKNOWN_FORMAT_HINT));
      continue;
    }
    const recordLine = typeof record.id === 'string' ? lineOf(record.id) : line;
    const source = { file, line: recordLine };
    const results = isPhoenixSpan(record) ? [decodePhoenixSpan(record, source)]
      : isLangfuseTrace(record) ? decodeLangfuseTrace(record, source)
        : isLangfuseObservation(record) ? [decodeLangfuseObservation(record, source)]
          : [`not a trace record (keys: ${Object.keys(record).slice(0, 6).join(', ') || 'none'})`];
    for (const result of results) {
      if (typeof result === 'string') problems.push(new InputError(source, result, UNKNOWN_FORMAT_HINT));
      else spans.push(result);
    }
  }
  return { spans, problems };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** The 1-based line where an id first appears in a multi-line document (ids are unique enough to find their span). */
function lineFinder(text: string): (id: string) => number {
  const lower = text.toLowerCase();
  return (id) => {
    const at = id ? lower.indexOf(`"${id.toLowerCase()}"`) : -1;
    if (at < 0) return 1;
    let line = 1;
    for (let i = lower.indexOf('\n'); i !== -1 && i < at; i = lower.indexOf('\n', i + 1)) line += 1;
    return line;
  };
}
