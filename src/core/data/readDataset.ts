// Reads any supported dataset file into rows with their file:line, picking the reader by extension and content.
import * as path from 'node:path';
import { InputError } from '../errors.js';
import { regularFileProblem } from '../regularFile.js';
import { readCsv, readTsv } from './csv.js';
import { readJsonArray } from './jsonArray.js';
import { readJsonl } from './jsonl.js';
import { readLines } from './lines.js';
import type { FormatReader, RawItem } from './reader.js';
import { isRecord } from './reader.js';
import { readYamlDataset } from './yamlDataset.js';
import { RowKeys } from './rowIds.js';
import type { DatasetRow } from '../model.js';

/**
 * A row, with the problems of its key when its id was taken by an earlier row (the row still runs, under a name of
 * its own), or a problem that kept a record from being a row.
 */
export type DatasetItem = { ok: true; row: DatasetRow; problems?: InputError[] } | { ok: false; error: InputError };

export type DatasetFormat = 'jsonl' | 'json-array' | 'csv' | 'tsv' | 'yaml';

const SUPPORTED = '.jsonl, .ndjson, .json, .csv, .tsv, .yaml or .yml';

const READERS: Record<DatasetFormat, FormatReader> = {
  'jsonl': readJsonl,
  'json-array': readJsonArray,
  'csv': readCsv,
  'tsv': readTsv,
  'yaml': readYamlDataset,
};

/**
 * Every row of `file` in order. Problems come as `{ok: false}` items naming file:line and the reading goes
 * on where the format allows, so one bad line never hides the rest. `index` counts error items too, so a
 * row keeps its index when a line before it is fixed. Each row gets its key (`RowKeys`): two rows never share one.
 */
export async function* readDataset(file: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<DatasetItem> {
  const absolute = path.resolve(file);
  const format = await datasetFormat(absolute, options.signal);
  if (format instanceof InputError) {
    yield { ok: false, error: format };
    return;
  }
  let index = 0;
  const keys = new RowKeys();
  for await (const item of READERS[format](absolute, options.signal)) {
    options.signal?.throwIfAborted();
    yield toDatasetItem(absolute, item, index, keys);
    index += 1;
  }
}

function toDatasetItem(file: string, item: RawItem, index: number, keys: RowKeys): DatasetItem {
  if (item instanceof InputError) return { ok: false, error: item };
  const row: DatasetRow = { ref: { file, line: item.line, index }, data: item.data };
  const { key, problems } = keys.assign(row);
  row.key = key;
  return problems.length > 0 ? { ok: true, row, problems } : { ok: true, row };
}

/** The reader for `file`, or an InputError when it is missing, a folder, or of an unknown kind. */
export async function datasetFormat(file: string, signal?: AbortSignal): Promise<DatasetFormat | InputError> {
  const problem = await fileProblem(file);
  if (problem) return problem;
  switch (path.extname(file).toLowerCase()) {
    case '.jsonl':
    case '.ndjson':
      return 'jsonl';
    case '.json':
      return (await firstLineIsObject(file, signal)) ? 'jsonl' : 'json-array';
    case '.csv':
      return 'csv';
    case '.tsv':
      return 'tsv';
    case '.yaml':
    case '.yml':
      return 'yaml';
    default:
      return new InputError({ file }, `unsupported dataset file type '${path.extname(file) || '(none)'}'`, `use a ${SUPPORTED} file`);
  }
}

async function fileProblem(file: string): Promise<InputError | undefined> {
  const problem = await regularFileProblem(file);
  if (!problem) return undefined;
  if (problem.kind === 'missing') return new InputError({ file }, 'dataset file not found', 'check the path (in an eval file it is relative to the eval file\'s folder)');
  return new InputError({ file }, `the dataset path ${problem.says}`, `point it at a ${SUPPORTED} file`);
}

/** RGB ships JSON Lines named .json: a first line that is a whole JSON object means JSONL. */
async function firstLineIsObject(file: string, signal?: AbortSignal): Promise<boolean> {
  try {
    for await (const { text } of readLines(file, signal)) {
      const start = text.trimStart();
      if (start === '') continue;
      // Only an object can make it JSONL; a one-line array is parsed once, by the array reader.
      return start.startsWith('{') && isRecord(JSON.parse(text));
    }
  } catch {
    // Not JSON on its own, or not UTF-8: the whole-file reader reports it with a position.
  }
  return false;
}
