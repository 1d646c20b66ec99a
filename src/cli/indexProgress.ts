// An index build's progress on stderr, for `rag-inspector index` and for a run that builds its index first.
import type { IndexProgress } from '../core/corpus/contract.js';
import { print } from './terminal.js';

const STAGE_UNITS: Record<IndexProgress['stage'], string> = { read: 'files read', chunk: 'files chunked', embed: 'texts embedded', store: 'files stored', optimize: 'index optimized' };

/** One line per stage's start and end and per tenth of the way: readable in a terminal and in CI logs alike. */
export class IndexProgressLines {
  private last?: { stage: string; tenth: number };
  /** `emitLine`: where a line goes (a run's progress note, which keeps its bar intact); stderr by default. */
  constructor(private readonly quiet: boolean, private readonly emitLine: (line: string) => void = (line) => print(process.stderr, `${line}\n`)) {}

  show(progress: IndexProgress): void {
    if (this.quiet) return;
    const tenth = progress.total === 0 ? 10 : Math.floor((progress.done / progress.total) * 10);
    if (this.last && this.last.stage === progress.stage && this.last.tenth === tenth) return;
    this.last = { stage: progress.stage, tenth };
    this.emitLine(`${progress.stage}: ${progress.done}/${progress.total} ${STAGE_UNITS[progress.stage]}`);
  }
}
