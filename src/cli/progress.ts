// Progress on stderr: a redrawn bar on a terminal, plain periodic lines in CI logs.
import { print, printControl } from './terminal.js';

/** Failed verdicts and errors apart, the two counts the summary and every report show. */
export interface ProgressCounts {
  failed: number;
  /** Left out by commands with no errors apart from failures (generate-counterfactual). */
  errors?: number;
}

export interface Progress {
  /** `counts` as a number: the one count of a command that has no errors apart from it (explain's flips, generation's failures). */
  update(done: number, total: number, counts: ProgressCounts | number): void;
  note(line: string): void;
  finish(): void;
}

/** What the bar counts, and what its number-counts are: a run's cases and failures by default. */
export interface ProgressWords {
  /** "cases"; explain counts "variants". */
  unit: string;
  /** "failed"; explain counts variants whose outcome "flipped". */
  counted: string;
}

const RUN_WORDS: ProgressWords = { unit: 'cases', counted: 'failed' };

export function createProgress(stream: NodeJS.WriteStream, quiet: boolean, words: ProgressWords = RUN_WORDS): Progress {
  if (quiet) return { update() {}, note() {}, finish() {} };
  return stream.isTTY && !process.env.CI ? new TerminalBar(stream, words) : new PlainLines(stream, words);
}

class TerminalBar implements Progress {
  private lastDraw = 0;
  private started = Date.now();
  private drawn = false;
  constructor(private readonly stream: NodeJS.WriteStream, private readonly words: ProgressWords) {}

  update(done: number, total: number, counts: ProgressCounts | number): void {
    const now = Date.now();
    if (now - this.lastDraw < 80 && done < total) return; // redraw at most ~12 times a second
    this.lastDraw = now;
    const width = Math.max(10, Math.min(40, (this.stream.columns ?? 80) - 50));
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const rate = done / Math.max(0.001, (now - this.started) / 1000);
    printControl(this.stream, '\r');
    print(this.stream, `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total} ${this.words.unit}  ${countsText(counts, this.words)}  ${rate.toFixed(1)}/s `);
    this.drawn = true;
  }

  note(line: string): void {
    if (this.drawn) printControl(this.stream, '\r\x1b[K');
    print(this.stream, `${line}\n`);
  }

  finish(): void {
    if (this.drawn) print(this.stream, '\n');
  }
}

class PlainLines implements Progress {
  private lastPercent = -1;
  private lastTime = 0;
  constructor(private readonly stream: NodeJS.WriteStream, private readonly words: ProgressWords) {}

  update(done: number, total: number, counts: ProgressCounts | number): void {
    const percent = total === 0 ? 100 : Math.floor((done / total) * 10) * 10;
    const now = Date.now();
    // One line per 10% or every 10 s, whichever comes first: readable in CI logs, never silent for long.
    if (percent === this.lastPercent && now - this.lastTime < 10_000 && done < total) return;
    this.lastPercent = percent;
    this.lastTime = now;
    print(this.stream, `progress: ${done}/${total} ${this.words.unit} (${countsText(counts, this.words)})\n`);
  }

  note(line: string): void {
    print(this.stream, `${line}\n`);
  }

  finish(): void {}
}

function countsText(given: ProgressCounts | number, words: ProgressWords): string {
  const counts = typeof given === 'number' ? { failed: given } : given;
  if (counts.errors === undefined) return `${counts.failed} ${words.counted}`;
  return `${counts.failed} ${words.counted}, ${counts.errors} error${counts.errors === 1 ? '' : 's'}`;
}
