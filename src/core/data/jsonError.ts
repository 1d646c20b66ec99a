// Where JSON.parse failed: V8 reports an offset in its message, or a snippet around it that locates it.

export interface JsonProblem {
  /** The parser's message without the position part. */
  message: string;
  /** UTF-16 offset into the parsed text, when it can be told. */
  offset?: number;
}

// V8 quotes up to this many characters either side of the unexpected token (json-parser.cc kMaxContextCharacters).
const CONTEXT = 10;

/** Reads the position out of a JSON.parse SyntaxError for `source` (Node 20's V8 wording; Node 22 adds line/column). */
export function jsonProblem(error: unknown, source: string): JsonProblem {
  const raw = error instanceof Error ? error.message : String(error);
  const atPosition = /^(.*?) in JSON at position (\d+)/s.exec(raw);
  if (atPosition) return { message: atPosition[1]!, offset: Number(atPosition[2]) };
  if (/Unexpected end of JSON input/.test(raw)) return { message: 'unexpected end of JSON', offset: source.trimEnd().length };
  const token = /^Unexpected token '(.)', (\.\.\.)?"(.*?)"(\.\.\.)? is not valid JSON/s.exec(raw);
  if (token) {
    const offset = offsetFromSnippet(source, token[1]!, token[3]!, Boolean(token[2]), Boolean(token[4]));
    return { message: `unexpected character '${token[1]}'`, offset };
  }
  return { message: raw };
}

/** Finds the unexpected token from the snippet V8 shows: cut at start, end, both sides, or the whole text. */
function offsetFromSnippet(source: string, char: string, snippet: string, cutBefore: boolean, cutAfter: boolean): number | undefined {
  let offset: number | undefined;
  if (!cutBefore && cutAfter) offset = snippet.length - CONTEXT;
  else if (cutBefore && !cutAfter) offset = source.length - snippet.length + CONTEXT;
  else if (cutBefore && cutAfter) {
    const start = source.indexOf(snippet);
    offset = start === -1 ? undefined : start + CONTEXT;
  } else offset = source.indexOf(char);
  return offset !== undefined && source[offset] === char ? offset : undefined;
}

/** The value of a JSON text, or undefined when it is not JSON (the caller says what that means where it stands). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
