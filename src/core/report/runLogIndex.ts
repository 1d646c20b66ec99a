// An index of one run log: header, summary, problems and a compact entry per (case, model) with the byte range of its line, so a 100,000-case log opens without holding its cases.
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { openRegularFile } from '../regularFile.js';
import type { CaseEntry, CaseError, CaseResult, RowRef, RunStatus } from '../model.js';
import { caseListItem, shortReason } from './caseItems.js';
import type { CaseDigest } from './caseItems.js';
import type { CaseListItem } from './viewModel.js';
import { scanLines } from '../run/jsonLines.js';
import type { LocatedLine } from '../run/jsonLines.js';
import { RunLogReader, decodeCaseLine, parseHeader } from '../run/runLog.js';
import { decodeLogLine } from '../run/logLine.js';
import type { RunHeader, RunLogProblem, StoredCaseLine, SummaryLine } from '../run/runLog.js';
import { LogTexts } from '../run/logTexts.js';
import { MissingTextError } from '../run/caseText.js';
import type { SharedTable } from '../run/sharedValues.js';
import type { StoredCase } from '../run/caseText.js';
import { caseKey, outcomeStatus } from '../model.js';

/**
 * One (case, model) of a log: where its line is, the row the inspector lists, and what diagnostics, CodeLens, hovers,
 * reruns and the Test Explorer read — everything else (documents, messages, response, scores) stays on disk.
 */
export interface IndexedCase {
  /** Byte offset of the case line in the log, and its length in bytes without the newline. */
  offset: number;
  length: number;
  /** 1-based line number, for messages. */
  line: number;
  item: CaseListItem;
  row: RowRef;
  template?: string;
  /** shortReason(result): "wrong answer", "model error". */
  reason: string;
  errorStage?: CaseError['stage'];
}



/**
 * The index of one run log, extended in place as the log grows. Logs are append-only (a live run appends case lines,
 * --resume appends a resume line, then more), so `update` reads only the bytes after the last indexed line; a log that
 * shrank below that point or whose first line changed was replaced, and is indexed again from the start.
 */
export class RunLogIndex {
  header!: RunHeader;
  /** One per (case, model) by caseKey, in the order first finished; a later line for the same pair replaces the earlier. */
  readonly entries = new Map<string, IndexedCase>();
  /** The lines after the header, read by the run log's own rules (problems, resumes, the summary). */
  private lines = this.newReader();
  /** The line being read, for the entry its case line becomes. */
  private current: LocatedLine | undefined;
  private headerText = '';
  /** Everything before this byte is indexed; a cut-short last line starts here. */
  private indexedBytes = 0;
  private lineCount = 0;
  /** A fragment after the last newline when last looked at: a line being written, or cut short by a crash. */
  private partialTail = false;
  private size = 0;
  private mtimeMs = 0;
  private updating: Promise<boolean> | undefined;
  private intern = new Interner();
  /** Where the log's stored texts are, to rebuild a case read by its byte range. */
  private texts = new LogTexts();

  private constructor(readonly file: string) {}

  /** Indexes a whole log; a missing or foreign header, or a newer format, is an InputError naming the file, as readRunLog's. */
  static async build(file: string): Promise<RunLogIndex> {
    const index = new RunLogIndex(file);
    await index.update();
    return index;
  }

  /** From the summary; 'started' when there is none (still running, or interrupted). */
  /** The latest summary, unless a resume came after it. */
  get summary(): SummaryLine | undefined {
    return this.lines.summary;
  }

  get resumes(): number {
    return this.lines.resumes.length;
  }

  get status(): RunStatus {
    return this.summary ? outcomeStatus(this.summary.status, this.summary.totals) : 'started';
  }

  /** The same problems, in the same order, as readRunLog reports for the log as it was at the last update. */
  get problems(): RunLogProblem[] {
    if (!this.partialTail) return this.lines.problems;
    return [...this.lines.problems, { severity: 'warning', line: this.lineCount + 1, message: 'the last line was cut short (the run was interrupted while writing it); ignored' }];
  }

  /** Bytes indexed so far (up to the end of the last complete line). */
  get bytes(): number {
    return this.indexedBytes;
  }

  /**
   * Brings the index up to the log on disk; true when anything changed. Concurrent calls share one pass, so two
   * requests arriving together do not scan the same bytes twice.
   */
  update(): Promise<boolean> {
    this.updating ??= this.catchUp().finally(() => {
      this.updating = undefined;
    });
    return this.updating;
  }

  /** The full case line of one (case, model), read from its byte range; undefined when the log has no such entry. */
  async readEntry(key: string): Promise<CaseEntry | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const handle = await open(this.file, 'r');
    try {
      return await readIndexedLine(this.file, handle, entry, key, this.header, this.texts, this.lines.shared);
    } finally {
      await handle.close();
    }
  }

  /** Several entries through one open file, in the order given; missing keys are left out. */
  async readEntries(keys: Iterable<string>): Promise<Map<string, CaseEntry>> {
    const out = new Map<string, CaseEntry>();
    const handle = await open(this.file, 'r');
    try {
      for (const key of keys) {
        const entry = this.entries.get(key);
        if (entry) out.set(key, await readIndexedLine(this.file, handle, entry, key, this.header, this.texts, this.lines.shared));
      }
    } finally {
      await handle.close();
    }
    return out;
  }

  private async catchUp(): Promise<boolean> {
    const info = await stat(this.file);
    if (this.headerText !== '' && info.size === this.size && info.mtimeMs === this.mtimeMs) return false;
    const handle = await openRegularFile(this.file); // a named pipe named like a log would block the host
    try {
      let start = this.indexedBytes;
      if (this.headerText === '' || info.size < this.indexedBytes || (await this.firstLine(handle, info.size)) !== this.headerText) {
        this.reset();
        start = 0;
      }
      for await (const line of scanLines(handle, start, info.size, this.lineCount + 1)) {
        if (this.headerText === '') {
          if (!line.utf8) throw new InputError({ file: this.file, line: 1 }, 'the run log header is not valid UTF-8', 'the log was damaged; start a new run');
          this.header = parseHeader(this.file, line.text);
          this.headerText = line.text;
        } else {
          this.current = line;
          this.lines.accept(line.number, line.text, line.utf8);
        }
        // Per line, so a read that fails half way leaves an index that the next update continues correctly.
        this.lineCount = line.number;
        this.indexedBytes = line.offset + line.length + 1;
      }
      this.partialTail = this.indexedBytes < info.size;
      if (this.headerText === '') {
        if (this.partialTail) throw new InputError({ file: this.file, line: 1 }, 'the run log header was cut short', 'start a new run');
        throw new InputError({ file: this.file, line: 1 }, 'the run log is empty', 'delete it or start a new run');
      }
      this.size = info.size;
      this.mtimeMs = info.mtimeMs;
      return true;
    } finally {
      await handle.close();
    }
  }

  /** Line 1 as it is on disk now, compared with the indexed header to tell an appended log from a replaced one. */
  private async firstLine(handle: FileHandle, size: number): Promise<string | undefined> {
    for await (const line of scanLines(handle, 0, Math.min(size, this.headerBytes + 1))) return line.text;
    return undefined;
  }

  private get headerBytes(): number {
    return Buffer.byteLength(this.headerText, 'utf8');
  }

  private reset(): void {
    this.entries.clear();
    this.lines = this.newReader();
    this.headerText = '';
    this.indexedBytes = 0;
    this.lineCount = 0;
    this.partialTail = false;
    this.intern = new Interner();
    this.texts = new LogTexts();
  }

  /** A reader with readRunLog's rules that keeps a compact entry instead of each case line. */
  private newReader(): RunLogReader {
    return new RunLogReader((_key, _number, value: StoredCaseLine) => {
      const indexed = indexedCase(value.case, value.result, this.current!, this.intern);
      const key = caseKey(value.result.caseId, value.result.modelKey);
      // Keyed like readRunLog (by the result's case id); the item's key is the same string, and one copy is enough.
      this.entries.set(key === indexed.item.key ? indexed.item.key : key, indexed);
    }, (id) => this.texts.note(id, this.current!.offset, this.current!.length));
  }

}

/** Indexes a log (see RunLogIndex.build). */
export function indexRunLog(file: string): Promise<RunLogIndex> {
  return RunLogIndex.build(file);
}

/** The full case line behind one key of an index (see RunLogIndex.readEntry). */
export function readEntry(index: RunLogIndex, key: string): Promise<CaseEntry | undefined> {
  return index.readEntry(key);
}

/**
 * The same few strings (dataset and template paths, suite, model, testbed, document roles) recur in every entry of a
 * log; JSON.parse makes a new copy of each per line, so one shared copy saves about a third of an index's memory.
 */
class Interner {
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, string[]>();

  string<T extends string | undefined>(value: T): T {
    if (value === undefined) return value;
    const known = this.strings.get(value);
    if (known !== undefined) return known as T;
    this.strings.set(value, value);
    return value;
  }

  list(values: string[]): string[] {
    const id = values.join('\u0000');
    const known = this.lists.get(id);
    if (known) return known;
    this.lists.set(id, values);
    return values;
  }
}

function indexedCase(evalCase: StoredCase, result: CaseResult, line: LocatedLine, intern: Interner): IndexedCase {
  const item = caseListItem(evalCase, result);
  item.suiteId = intern.string(item.suiteId);
  item.testbed = intern.string(item.testbed);
  item.modelKey = intern.string(item.modelKey);
  item.summary = intern.string(item.summary);
  item.roles = intern.list(item.roles);
  return {
    offset: line.offset,
    length: line.length,
    line: line.number,
    item,
    row: { file: intern.string(evalCase.row.file), line: evalCase.row.line, index: evalCase.row.index },
    ...(evalCase.template !== undefined ? { template: intern.string(evalCase.template) } : {}),
    reason: intern.string(shortReason(result)),
    ...(result.error ? { errorStage: result.error.stage } : {}),
  };
}

/** The consumer-facing digest of an indexed case; its strings are the item's, so it costs a few small objects. */
export function digestOf(entry: IndexedCase): CaseDigest {
  const { item } = entry;
  return {
    evalCase: {
      id: item.caseId,
      suiteId: item.suiteId,
      ...(item.testbed !== undefined ? { testbed: item.testbed } : {}),
      row: entry.row,
      ...(entry.template !== undefined ? { template: entry.template } : {}),
      question: item.question,
    },
    result: { caseId: item.caseId, modelKey: item.modelKey, status: item.status, ...(item.pass !== undefined ? { pass: item.pass } : {}), ...(entry.errorStage ? { error: { stage: entry.errorStage } } : {}) },
    failure: item.summary,
    reason: entry.reason,
  };
}

async function readIndexedLine(file: string, handle: FileHandle, entry: IndexedCase, key: string, header: RunHeader, texts: LogTexts, shared: SharedTable): Promise<CaseEntry> {
  const buffer = Buffer.alloc(entry.length);
  const { bytesRead } = await handle.read(buffer, 0, entry.length, entry.offset);
  // Shared values are defined before the line that uses them, so the index has read them all.
  const decoded = bytesRead === entry.length ? decodeLogLine(buffer.toString('utf8'), shared, entry.line) : undefined;
  const value = decoded && 'line' in decoded && decoded.line.type === 'case' ? decoded.line : undefined;
  if (!value || caseKey(value.result.caseId, value.result.modelKey) !== key) {
    throw new InputError({ file, line: entry.line }, `this case line is not the one indexed (the log was replaced or rewritten since it was read)`, 'open the run again');
  }
  try {
    const line = decodeCaseLine(header, value, header.format < 2 ? new Map() : await texts.resolve(value.case, handle));
    return { evalCase: line.case, result: line.result };
  } catch (error) {
    if (error instanceof MissingTextError) throw new InputError({ file, line: entry.line }, error.message, 'open the run again');
    throw error;
  }
}

