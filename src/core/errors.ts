// Errors a user can act on: each names the file and position at fault and says how to fix it.

export interface SourcePosition {
  file: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
}

/** Bad input from the user's files (eval file, dataset, template). Shown as "file:line:col: message. hint". */
export class InputError extends Error {
  readonly position: SourcePosition;
  readonly hint?: string;

  constructor(position: SourcePosition, message: string, hint?: string) {
    super(message);
    this.name = 'InputError';
    this.position = position;
    this.hint = hint;
  }

  /** The one-line form used by the CLI, diagnostics and logs. */
  format(): string {
    return `${formatPosition(this.position)}: ${this.message}${this.hint ? ` — ${this.hint}` : ''}`;
  }
}

export function formatPosition(position: SourcePosition): string {
  let text = position.file;
  if (position.line !== undefined) {
    text += `:${position.line}`;
    if (position.column !== undefined) text += `:${position.column}`;
  }
  return text;
}

/** Several input errors found in one pass, so a user can fix them all at once. */
export class InputErrors extends Error {
  readonly errors: InputError[];

  constructor(errors: InputError[]) {
    super(errors.map((e) => e.format()).join('\n'));
    this.name = 'InputErrors';
    this.errors = errors;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof InputError) return error.format();
  if (error instanceof Error) return error.message;
  return String(error);
}

export type PathSegment = string | number;

/** "suites[0].dataset", for messages. */
export function displayPath(segments: readonly PathSegment[]): string {
  return segments.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    return text === '' ? segment : `${text}.${segment}`;
  }, '');
}
