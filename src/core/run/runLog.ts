// The run log `.rag-inspector/runs/<run-id>.jsonl`: a versioned header, one line per finished (case, model), a summary; written so a crash loses nothing finished.
// Format 2 stores each long text once (a text line before the first case line that refers to it; caseText.ts), and
// every reader here rebuilds the case as it was sent; format 1 (every text in full in every case line) reads as before.
// Format 3 adds shared lines (key lists and repeated strings written once, sharedValues.ts) and leaves out variables
// derived from the documents (caseDerived.ts): a case line unpacks to format 2's (packedCase.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { InputError } from '../errors.js';
import { FileProblem, openRegularFile } from '../regularFile.js';
import { caseKey } from '../model.js';
import type { CaseResult, EvalCase, InputProblem, RunStatus, RunTotals, ThresholdOutcome } from '../model.js';
import type { SuiteReport } from '../suites/contract.js';
import { findLastByte, readFirstLine, readLastCompleteLine, readLines, scanLines } from './jsonLines.js';
import { packCaseLine } from './packedCase.js';
import { SharedPacker, SharedTable } from './sharedValues.js';
import type { SharedLine } from './sharedValues.js';
import { CaseTextEncoder, MissingTextError, decodeCase, textIdsOf } from './caseText.js';
import type { StoredCase, TextLine } from './caseText.js';
import { LogTexts } from './logTexts.js';
import { isRunId, lineShapeProblem } from './logLineShapes.js';
import { decodeLogLine } from './logLine.js';
import { RunLogLock } from './runLogLock.js';
import { LogTail } from './logTail.js';
import { stringifyRedacted } from '../redact.js';

export const RUN_LOG_FORMAT = 3;
/** Formats this version reads; it writes RUN_LOG_FORMAT, and a resumed log in the format it was started in. */
const READABLE_FORMATS: readonly number[] = [1, 2, 3];

export interface RunHeader {
  type: 'header';
  format: 1 | 2 | 3;
  runId: string;
  createdAt: string;
  status: 'started';
  tool: { name: 'rag-inspector'; version: string };
  spec: { file: string; hash: string; name: string };
  inputs: { kind: 'template' | 'dataset'; file: string; hash: string }[];
  models: string[];
  judge?: string;
  embeddings?: string;
  seed: number;
  /**
   * Batch mode was turned on for the run (--batch, the VS Code setting), not by the eval file: `--resume` restores it,
   * so the rest of the run goes to the vendor's batch API too and the run's batches are collected.
   */
  batch?: true;
}

export interface CaseLine {
  type: 'case';
  case: EvalCase;
  result: CaseResult;
}

/** A case line as it is on disk: in format 2 its texts may be references (decodeCase rebuilds them). */
export interface StoredCaseLine {
  type: 'case';
  case: StoredCase;
  result: CaseResult;
}

export type { TextLine } from './caseText.js';
export type { SharedLine } from './sharedValues.js';

/** Appended by --resume: what follows was run by a later process. */
export interface ResumeLine {
  type: 'resume';
  at: string;
}

/**
 * Written the moment a vendor batch is submitted (batch mode), before any wait: a resumed run collects these batches
 * instead of submitting their requests again. `requests` are the items' custom_ids, each the request's cache identity,
 * so the resumed run maps a case to its item by rendering the case's request again.
 */
export interface BatchLine {
  type: 'batch';
  modelKey: string;
  batchId: string;
  /** OpenAI's uploaded input file; Anthropic's batches have none. */
  inputFileId?: string;
  submittedAt: string;
  requests: string[];
}

export interface SummaryLine {
  type: 'summary';
  status: RunStatus;
  finishedAt: string;
  /** Counts, calls and tokens over every case line of the log (earlier sessions of a resumed run included). */
  totals: RunTotals;
  /** The suites' tables as computed at the end of the run, so a report can be rewritten without rescoring. */
  reports: SuiteReport[];
  thresholds: ThresholdOutcome[];
  /** Rows and cases that could not be built (bad lines, missing variables). */
  problems: InputProblem[];
}

export type RunLogLine = RunHeader | CaseLine | StoredCaseLine | TextLine | SharedLine | ResumeLine | BatchLine | SummaryLine;

export interface RunLogProblem {
  /** A warning leaves the log usable (a line cut short by a crash); an error means a line was lost. */
  severity: 'warning' | 'error';
  /** 1-based. */
  line: number;
  message: string;
}

export interface RunLogContents {
  file: string;
  header: RunHeader;
  /** One per (case, model) in the order first finished; a later line for the same pair replaces the earlier. */
  cases: CaseLine[];
  resumes: ResumeLine[];
  /** Vendor batches submitted by the run (batch mode), in submission order. */
  batches: BatchLine[];
  /** The latest summary, unless a resume came after it. */
  summary?: SummaryLine;
  /** From the summary; 'started' when there is none (still running, or interrupted). */
  status: RunStatus;
  /** caseKey(caseId, modelKey) of every case line, for --resume. */
  finished: Set<string>;
  problems: RunLogProblem[];
}

export interface RunListEntry {
  file: string;
  runId: string;
  header?: RunHeader;
  /** 'unreadable' when the header could not be read; see `problem`. */
  status: RunStatus | 'unreadable';
  summary?: SummaryLine;
  problem?: string;
}

export interface RunLogWriterOptions {
  /**
   * fdatasync after every line: survives power loss too, at the price of one disk flush per case
   * (measured on 5 KB lines: ~4,000 lines/s instead of ~60,000, and slower on disks with costly flushes).
   * Off by default; see RunLogWriter.
   */
  syncEachLine?: boolean;
}

/** Header fields the writer fills in itself. */
export type NewRunHeader = Omit<RunHeader, 'type' | 'format' | 'status'> & Partial<Pick<RunHeader, 'type' | 'format' | 'status'>>;

const LOG_EXTENSION = '.jsonl';

/**
 * "2026-11-22T12-43-05Z-3f9a1c": UTC time to the second, so ids sort by start time as plain strings, with
 * ':' replaced (Windows forbids it in file names) and 24 random bits so runs started in the same second differ.
 */
export function newRunId(date: Date = new Date(), suffix: string = randomBytes(3).toString('hex')): string {
  const stamp = date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
  return `${stamp}-${suffix}`;
}

export function runLogPath(dir: string, runId: string): string {
  if (!isRunId(runId)) throw new TypeError(`not a valid run id: ${JSON.stringify(runId)}`);
  return path.join(dir, `${runId}${LOG_EXTENSION}`);
}

/**
 * The workspace a run log belongs to: `<workspace>` for a log where runs write it, `<workspace>/.rag-inspector/runs/`;
 * for a log kept anywhere else, the folder it is in. What is derived from a log (its reports, its explanation) goes
 * under this folder, never above the log.
 */
export function workspaceOfRunLog(logFile: string): string {
  const runs = path.dirname(path.resolve(logFile));
  const state = path.dirname(runs);
  if (path.basename(runs) === 'runs' && path.basename(state) === '.rag-inspector') return path.dirname(state);
  return runs;
}

/**
 * Appends to one run log through a file descriptor opened once in append mode.
 *
 * Durability trade-off: each line is handed to the kernel with a synchronous write before appendCase
 * returns, so a crash of the process (an exception, a kill, VS Code closing the extension host) loses no
 * finished case — the data is in the OS page cache, which outlives the process. What it does not cover
 * is a power loss or kernel panic before the OS flushes (seconds); fdatasync per line would, but costs a
 * disk flush per case, an order of magnitude or more in throughput. The file is fdatasync'ed at the summary and
 * on close; `syncEachLine` opts into the per-line flush. Lines that a power loss drops are simply rerun by
 * --resume (and usually answered from the response cache).
 */
export class RunLogWriter {
  private fd: number | undefined;
  private size: number;
  /** Format 2's texts-once encoder; none when appending to a format-1 log (a resumed run keeps its log's format). */
  private readonly texts: CaseTextEncoder | undefined;
  /** Format 3's shared lines; none in a format-1 or format-2 log. */
  private readonly shared: SharedPacker | undefined;
  /** The lines written from now on, read back as they are written (readBack). */
  private tail: LogTail | undefined;

  private constructor(
    readonly file: string,
    fd: number,
    private readonly lock: RunLogLock,
    private readonly options: RunLogWriterOptions,
    /** The log's header as a reader reads it (line 1). */
    readonly header: RunHeader,
    shared?: { packer: SharedPacker; table: SharedTable },
  ) {
    this.fd = fd;
    this.size = fstatSync(fd).size;
    this.texts = header.format >= 2 ? new CaseTextEncoder() : undefined;
    this.shared = header.format >= 3 ? (shared?.packer ?? new SharedPacker()) : undefined;
    this.sharedRead = shared?.table ?? new SharedTable();
  }

  /** The shared lines of the log as its readers know them: what a tail decodes the lines after them against. */
  private readonly sharedRead: SharedTable;

  /**
   * Every line written from now on, read back as a reader of the file reads it (logTail.ts), without reading the file:
   * a run's tables and reports fed as each case is logged. One tail per writer.
   */
  readBack(): LogTail {
    this.tail ??= new LogTail(this.file, this.header.format, this.sharedRead);
    return this.tail;
  }

  /**
   * Starts a new log `<dir>/<runId>.jsonl`; refuses to overwrite an existing one. The log is locked until `close`
   * (runLogLock.ts): a resume of it meanwhile is refused.
   */
  static async create(dir: string, header: NewRunHeader, options: RunLogWriterOptions = {}): Promise<RunLogWriter> {
    const file = runLogPath(dir, header.runId);
    await mkdir(dir, { recursive: true });
    const lock = RunLogLock.acquire(file);
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (error) {
      lock.release();
      throw error;
    }
    const full: RunHeader = { ...header, type: 'header', format: RUN_LOG_FORMAT, status: 'started' };
    const text = stringifyRedacted(full);
    const writer = new RunLogWriter(file, fd, lock, options, parseHeader(file, text));
    writer.appendTexts([text]);
    return writer;
  }

  /**
   * Reopens a log for --resume. A line cut short by a crash is truncated away first (appending after it
   * would glue two records into one corrupt line), then a ResumeLine marks where the new process begins. Refused
   * with RunLogLockedError while another process writes the log (its last line may be a case being written).
   */
  static async reopen(file: string, options: RunLogWriterOptions = {}): Promise<RunLogWriter> {
    const lock = RunLogLock.acquire(file);
    try {
      const handle = await open(file, 'r+');
      let header: RunHeader;
      try {
        header = await checkHeader(file, handle);
        await truncatePartialLine(file, handle);
      } finally {
        await handle.close();
      }
      // Texts written before the resume are not looked up: the first one a case needs is written again (bytes, once).
      // Shared ids are short and numbered, so they are: a new id must not be one the log already defines.
      const shared = header.format >= 3 ? await sharedOf(file) : undefined;
      const writer = new RunLogWriter(file, openSync(file, 'a'), lock, options, header, shared);
      writer.appendLine({ type: 'resume', at: new Date().toISOString() } satisfies ResumeLine);
      return writer;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /**
   * On disk (in the OS's hands) when this returns, after the texts and shared lines it refers to that the log did not
   * hold yet — all of them in one write (one system call a case, not one a line).
   */
  appendCase(line: Omit<CaseLine, 'type'> & { type?: 'case' }): void {
    if (!this.texts) {
      this.appendLine({ type: 'case', case: line.case, result: line.result } satisfies CaseLine);
      return;
    }
    const { stored, texts } = this.texts.encode(line.case);
    if (!this.shared) {
      this.appendTexts([...texts, { type: 'case', case: stored, result: line.result } satisfies StoredCaseLine].map((each) => stringifyRedacted(each)));
      this.texts.markWritten(texts);
      return;
    }
    const packed = packCaseLine(this.shared, stored, line.result);
    try {
      this.appendTexts([...texts, ...packed.defined, packed.line].map((each) => stringifyRedacted(each)));
    } catch (error) {
      this.shared.forget(packed.defined);
      throw error;
    }
    this.texts.markWritten(texts);
  }

  /** Synced to disk before it returns: the batch exists at the vendor, and a crash must not lose where it is. */
  appendBatch(batch: Omit<BatchLine, 'type'>): void {
    this.appendLine({ ...batch, type: 'batch' } satisfies BatchLine);
    fdatasyncSync(this.openFd());
  }

  appendSummary(summary: Omit<SummaryLine, 'type'> & { type?: 'summary' }): void {
    this.appendLine({ ...summary, type: 'summary' } satisfies SummaryLine);
    fdatasyncSync(this.openFd());
  }

  /** Synced, closed and unlocked; idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fdatasyncSync(fd);
    } finally {
      try {
        closeSync(fd);
      } finally {
        this.lock.release();
      }
    }
  }

  private appendLine(line: RunLogLine): void {
    this.appendTexts([stringifyRedacted(line)]);
  }

  /** Lines written with one write; a failed write leaves none of them (what landed is cut off again). */
  private appendTexts(lines: readonly string[]): void {
    const fd = this.openFd();
    const bytes = Buffer.from(lines.length === 1 ? `${lines[0]!}\n` : `${lines.join('\n')}\n`, 'utf8');
    try {
      writeFully(fd, bytes);
    } catch (error) {
      // A failed write (disk full) may have landed half a line; cut it off so the next line starts clean.
      try {
        ftruncateSync(fd, this.size);
      } catch {
        // The original error says more than this one.
      }
      throw error;
    }
    let offset = this.size;
    this.size += bytes.length;
    if (this.options.syncEachLine) fdatasyncSync(fd);
    if (!this.tail) return;
    for (const text of lines) {
      const length = lines.length === 1 ? bytes.length - 1 : Buffer.byteLength(text, 'utf8');
      this.tail.written(text, offset, length);
      offset += length + 1;
    }
  }

  private openFd(): number {
    if (this.fd === undefined) throw new Error(`run log ${this.file} is closed`);
    return this.fd;
  }
}

/** The shared lines a log defines (complete lines only: reopen cut a partial last line away first), to write and to read. */
async function sharedOf(file: string): Promise<{ packer: SharedPacker; table: SharedTable }> {
  const packer = new SharedPacker();
  const table = new SharedTable();
  for await (const line of readLines(file)) {
    if (!line.complete || !line.text.startsWith('{"type":"shared"')) continue;
    const decoded = decodeLogLine(line.text, table, line.number, line.utf8);
    if ('line' in decoded && decoded.line.type === 'shared') packer.learn(decoded.line);
  }
  return { packer, table };
}

function writeFully(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

async function truncatePartialLine(file: string, handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  const lastNewline = await findLastByte(handle, 0x0a, size);
  if (lastNewline === -1) throw new InputError({ file, line: 1 }, 'the run log header was cut short; the run cannot be resumed', 'start a new run');
  if (lastNewline + 1 < size) await handle.truncate(lastNewline + 1);
}

async function checkHeader(file: string, handle: FileHandle): Promise<RunHeader> {
  const first = await readFirstLine(handle);
  if (!first) throw new InputError({ file, line: 1 }, 'the run log is empty', 'it was not written by a finished start of RAG Inspector; delete it or start a new run');
  if (!first.complete) throw new InputError({ file, line: 1 }, 'the run log header was cut short', 'start a new run');
  return parseHeader(file, first.text);
}

/** Checks line 1: a RAG Inspector header in a format this version reads. */
export function parseHeader(file: string, text: string): RunHeader {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notARunLog(file);
  }
  const header = value as Partial<RunHeader> | null;
  if (typeof header !== 'object' || header === null || header.type !== 'header' || typeof header.format !== 'number') throw notARunLog(file);
  if (header.format > RUN_LOG_FORMAT) {
    throw new InputError({ file, line: 1 }, `this run log has format ${header.format}, written by a newer RAG Inspector; this version reads format ${RUN_LOG_FORMAT}`, 'update RAG Inspector to open it');
  }
  if (!READABLE_FORMATS.includes(header.format)) {
    throw new InputError({ file, line: 1 }, `unsupported run log format ${JSON.stringify(header.format)}`, `this version reads formats ${READABLE_FORMATS.join(' and ')}`);
  }
  const problem = lineShapeProblem('header', header);
  if (problem !== undefined) throw new InputError({ file, line: 1 }, `the run log header is damaged: ${problem}`, 'the log was edited or damaged; start a new run');
  return header as RunHeader;
}

function notARunLog(file: string): InputError {
  return new InputError({ file, line: 1 }, 'not a RAG Inspector run log: line 1 must be its header', 'run logs are written by RAG Inspector under .rag-inspector/runs/');
}

/**
 * Accumulates the lines after the header; `onCase` decides what to keep of each case line (the index keeps a digest)
 * and `onText` of each text line. A case line comes as stored: its texts may be references (see decodeCaseLine).
 */
export class RunLogReader {
  readonly resumes: ResumeLine[] = [];
  readonly batches: BatchLine[] = [];
  readonly problems: RunLogProblem[] = [];
  /** Format 3's shared lines read so far: a case line refers only to earlier ones. */
  readonly shared = new SharedTable();
  summary?: SummaryLine;
  /** Ids of the text lines read so far: a case line refers only to earlier ones (caseText.ts). */
  private readonly textIds = new Set<string>();

  constructor(
    private readonly onCase: (key: string, number: number, line: StoredCaseLine) => void,
    private readonly onText: (id: string, number: number, text: string) => void = () => undefined,
  ) {}

  /**
   * One line after the header. A line that is not valid UTF-8 or JSON, or not of its type's shape (logLineShapes.ts),
   * is skipped and reported at its number; the other lines are kept, so one damaged line never costs the rest.
   */
  accept(number: number, text: string, utf8 = true): void {
    if (text.trim() === '') return;
    const decoded = decodeLogLine(text, this.shared, number, utf8);
    if ('problem' in decoded) return this.problem(decoded.problem.severity, number, decoded.problem.message);
    const { line } = decoded;
    switch (line.type) {
      case 'header':
        return this.problem('warning', number, 'unknown line type "header"; skipped');
      case 'case':
        for (const id of textIdsOf(line.case)) {
          if (!this.textIds.has(id)) return this.problem('error', number, `text ${id} is not in the run log before this line (the log was cut or edited); the case was skipped`);
        }
        this.onCase(caseKey(line.result.caseId, line.result.modelKey), number, line);
        return;
      case 'text':
        this.textIds.add(line.id);
        this.onText(line.id, number, line.text);
        return;
      case 'shared':
        return;
      case 'resume':
        this.resumes.push(line);
        // A summary before a resume described the earlier process; the resumed run has not finished yet.
        this.summary = undefined;
        return;
      case 'batch':
        this.batches.push(line);
        return;
      case 'summary':
        this.summary = line;
        return;
    }
  }

  problem(severity: RunLogProblem['severity'], line: number, message: string): void {
    this.problems.push({ severity, line, message });
  }
}

/** Feeds every line of the log to `reader` and returns its header; see readRunLog for the errors. */
async function readInto(file: string, reader: RunLogReader): Promise<RunHeader> {
  let header: RunHeader | undefined;
  for await (const line of readLines(file)) {
    if (!line.complete) {
      if (!header) throw new InputError({ file, line: 1 }, 'the run log header was cut short', 'start a new run');
      reader.problem('warning', line.number, 'the last line was cut short (the run was interrupted while writing it); ignored');
      continue;
    }
    if (!header) {
      if (!line.utf8) throw new InputError({ file, line: 1 }, 'the run log header is not valid UTF-8', 'the log was damaged; start a new run');
      header = parseHeader(file, line.text);
      continue;
    }
    reader.accept(line.number, line.text, line.utf8);
  }
  if (!header) throw new InputError({ file, line: 1 }, 'the run log is empty', 'delete it or start a new run');
  return header;
}

/**
 * Reads a run log as a stream. A last line cut short by a crash is a warning (the log is still usable and
 * --resume reruns that case); a missing or foreign header, or a newer format, is an InputError naming the file.
 * Holds every case line in memory: for a log of any size, use scanRunLog and readCaseLines.
 */
export async function readRunLog(file: string): Promise<RunLogContents> {
  const byKey = new Map<string, { number: number; line: StoredCaseLine }>();
  const texts = new Map<string, string>();
  const reader = new RunLogReader((key, number, line) => byKey.set(key, { number, line }), (id, _number, text) => {
    if (!texts.has(id)) texts.set(id, text);
  });
  const header = await readInto(file, reader);
  const cases: CaseLine[] = [];
  for (const { number, line } of byKey.values()) {
    try {
      cases.push(decodeCaseLine(header, line, texts));
    } catch (error) {
      if (!(error instanceof MissingTextError)) throw error;
      reader.problem('error', number, `${error.message}; the case was skipped`);
    }
  }
  return {
    file,
    header,
    cases,
    resumes: reader.resumes,
    batches: reader.batches,
    summary: reader.summary,
    status: reader.summary?.status ?? 'started',
    finished: new Set(byKey.keys()),
    problems: reader.problems,
  };
}

/** A run log read once without keeping its cases: the number of the line that counts for each (case, model). */
export interface RunLogScan extends Omit<RunLogContents, 'cases' | 'finished'> {
  /** caseKey → 1-based number of the last line for that pair (a later line replaces an earlier one). */
  winners: ReadonlyMap<string, number>;
}

/** First pass of a streaming read: header, summary, problems and the winning line per (case, model); one line in memory at a time. */
export async function scanRunLog(file: string): Promise<RunLogScan> {
  const winners = new Map<string, number>();
  const reader = new RunLogReader((key, number) => winners.set(key, number));
  const header = await readInto(file, reader);
  return { file, header, resumes: reader.resumes, batches: reader.batches, summary: reader.summary, status: reader.summary?.status ?? 'started', problems: reader.problems, winners };
}

/**
 * The case as it was sent, from a case line as stored: format 2's text references resolved from `texts` (by id; see
 * textIdsOf), a format-1 line as it is. A missing text is a MissingTextError.
 */
export function decodeCaseLine(header: Pick<RunHeader, 'format'>, line: StoredCaseLine | CaseLine, texts: ReadonlyMap<string, string>): CaseLine {
  if (header.format < 2) return line as CaseLine;
  return { type: 'case', case: decodeCase(line.case as StoredCase, texts), result: line.result };
}

/**
 * Every line of a log as parsed, in file order, duplicates included, its case lines unpacked to format 2's stored
 * form (ids and results as they are; long texts still referenced): for tools and tests that count lines. A line that
 * is not JSON throws.
 */
export function parseLogLines(lines: Iterable<string>): (RunLogLine & { type: string })[] {
  const shared = new SharedTable();
  const out: (RunLogLine & { type: string })[] = [];
  let number = 0;
  for (const text of lines) {
    number++;
    if (text === '') continue;
    const decoded = decodeLogLine(text, shared, number);
    if ('line' in decoded) out.push(decoded.line);
    // Kept as it is, for the tests that count what a damaged log holds; only a line that is not JSON throws.
    else out.push(JSON.parse(text) as RunLogLine & { type: string });
  }
  return out;
}

/** How a reader opens a run log: openRegularFile, or a caller's wrapper of it (one that counts what is read). */
export type LogOpener = (file: string) => Promise<FileHandle>;

/**
 * Second pass: the case lines that count, one at a time, in the order they were written; a (case, model) written
 * twice (a resumed run that reran it) comes once, as its later line. Lines appended after the scan are not read.
 * Each case comes with its texts rebuilt (a bounded cache of texts, the rest read back by byte range).
 */
export async function* readCaseLines(scan: RunLogScan, openLog: LogOpener = openRegularFile): AsyncGenerator<CaseLine> {
  let last = 0;
  for (const number of scan.winners.values()) last = Math.max(last, number);
  const texts = new LogTexts();
  const shared = new SharedTable();
  const handle = await openLog(scan.file);
  try {
    const { size } = await handle.stat();
    for await (const line of scanLines(handle, 0, size)) {
      if (line.number > last) return;
      // Every line the scan skipped is skipped here too, without a second report: the scan reported it.
      if (line.number === 1) continue;
      const decoded = decodeLogLine(line.text, shared, line.number, line.utf8);
      if ('problem' in decoded) continue;
      if (decoded.line.type === 'text') {
        texts.note(decoded.line.id, line.offset, line.length);
        texts.keep(decoded.line.id, decoded.line.text);
        continue;
      }
      if (decoded.line.type !== 'case') continue;
      const stored = decoded.line;
      if (scan.winners.get(caseKey(stored.result.caseId, stored.result.modelKey)) !== line.number) continue;
      if (scan.header.format < 2) {
        yield stored as CaseLine;
        continue;
      }
      let whole: CaseLine;
      try {
        whole = decodeCaseLine(scan.header, stored, await texts.resolve(stored.case, handle));
      } catch (error) {
        if (!(error instanceof MissingTextError)) throw error;
        // A reference the scan could not check (a document index out of range): this case is left out, the rest read.
        scan.problems.push({ severity: 'error', line: line.number, message: `${error.message}; the case was skipped` });
        continue;
      }
      yield whole;
    }
  } finally {
    await handle.close();
  }
}

/**
 * The runs in `dir`, newest first. Cheap: reads each log's first line and its last complete line only,
 * never the case lines in between. A log whose last complete line is not a summary is 'started'.
 */
export async function listRuns(dir: string): Promise<RunListEntry[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(LOG_EXTENSION));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries = await Promise.all(names.map((name) => listEntry(path.join(dir, name))));
  return entries.sort((a, b) => (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0));
}

async function listEntry(file: string): Promise<RunListEntry> {
  const runId = path.basename(file, LOG_EXTENSION);
  let handle: FileHandle | undefined;
  try {
    handle = await openRegularFile(file);
    const header = await checkHeader(file, handle);
    const summary = parseSummary(await readLastCompleteLine(handle, (await handle.stat()).size));
    return { file, runId, header, status: summary?.status ?? 'started', ...(summary ? { summary } : {}) };
  } catch (error) {
    const problem = error instanceof InputError ? error.format() : error instanceof FileProblem ? error.message : `${file}: ${(error as Error).message}`;
    return { file, runId, status: 'unreadable', problem };
  } finally {
    await handle?.close();
  }
}

function parseSummary(text: string | undefined): SummaryLine | undefined {
  if (text === undefined) return undefined;
  const decoded = decodeLogLine(text, new SharedTable(), 0);
  return 'line' in decoded && decoded.line.type === 'summary' ? decoded.line : undefined;
}
