// Everything the CLI prints goes through here, so text from files and servers (model names, messages, paths, answers)
// can never drive the terminal: a model name holding "\r\x1b[2K  PASS" must not overwrite a FAIL line.

/**
 * Control characters as visible escapes: every C0 character but newline and tab, DEL, the C1 controls (a lone
 * U+009B is a CSI on some terminals) and the bidirectional overrides that reorder what is shown.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with every control character written as a visible escape: ESC as `\x1b`, CR as `\x0d`, U+202E as `\u202e`. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Writes `text` to `stream` with its control characters made visible: the CLI's one way to print. */
export function print(stream: NodeJS.WritableStream, text: string): void {
  stream.write(terminalText(text));
}

/** The CLI's own terminal control, never text from elsewhere: the progress bar's return to the line start and erase. */
export type TerminalControl = '\r' | '\r\x1b[K';

export function printControl(stream: NodeJS.WritableStream, control: TerminalControl): void {
  stream.write(control);
}

/**
 * `value` as one line of JSON whose control characters are JSON's own `\u` escapes: the same value when parsed, and
 * nothing left for print to make visible (its `\x1b` would not be JSON). For output read by programs (`jq`).
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value).replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * print, then wait while the stream's buffer is full, so a long listing piped to a slow reader is not held in memory.
 * False once the stream is closed (the reader went away, as `| head` does): stop printing.
 */
export async function printAndWait(stream: NodeJS.WritableStream & { writableNeedDrain?: boolean; destroyed?: boolean }, text: string): Promise<boolean> {
  if (stream.destroyed) return false;
  if (stream.write(terminalText(text)) || !stream.writableNeedDrain) return true;
  return new Promise((resolve) => {
    const done = (open: boolean) => {
      stream.off('drain', drained);
      stream.off('close', closed);
      stream.off('error', closed);
      resolve(open);
    };
    const drained = () => done(true);
    const closed = () => done(false);
    stream.on('drain', drained);
    stream.on('close', closed);
    stream.on('error', closed);
  });
}
