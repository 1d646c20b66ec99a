// Turns offsets into 1-based line and column numbers, the way editors count them (UTF-16 columns).

export interface LineColumn {
  line: number;
  column: number;
}

export function positionAt(text: string, offset: number): LineColumn {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Lines of many increasing offsets in one pass, so a large JSON array with thousands of rows stays linear.
 * `offsets` must be sorted ascending.
 */
export function linesAt(text: string, offsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = text.indexOf('\n');
  for (const offset of offsets) {
    while (at !== -1 && at < offset) {
      line += 1;
      at = text.indexOf('\n', at + 1);
    }
    lines.push(line);
  }
  return lines;
}
