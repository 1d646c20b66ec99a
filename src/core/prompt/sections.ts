// Splits a template body into role sections at lines reading only "system:", "user:" or "assistant:".
import { InputError } from '../errors.js';
import type { ChatMessage } from '../model.js';

export interface SectionSource {
  role: ChatMessage['role'];
  /** 1-based file line of the section's first body line (the line after its role marker). */
  line: number;
  source: string;
}

const ROLE_LINE = /^(system|user|assistant):[ \t]*\r?$/i;

/**
 * Done on the raw text before any rendering, so a value containing a "user:" line can never start a new
 * message. A body with no role line is one user message.
 */
export function splitSections(file: string, body: string, bodyLine: number): SectionSource[] {
  const lines = body.split('\n');
  const sections: SectionSource[] = [];
  let current: { role: ChatMessage['role']; line: number; lines: string[] } | undefined;
  const preamble: string[] = [];
  lines.forEach((text, index) => {
    const marker = ROLE_LINE.exec(text);
    if (marker) {
      if (current) sections.push(close(current));
      current = { role: marker[1]!.toLowerCase() as ChatMessage['role'], line: bodyLine + index + 1, lines: [] };
    } else if (current) current.lines.push(text);
    else preamble.push(text);
  });
  if (!current) return [{ role: 'user', line: bodyLine, source: body }];
  sections.push(close(current));
  checkPreamble(file, preamble, bodyLine);
  return sections;
}

function close(section: { role: ChatMessage['role']; line: number; lines: string[] }): SectionSource {
  return { role: section.role, line: section.line, source: section.lines.join('\n') };
}

/** Text before the first role line would belong to no message; say so instead of guessing a role. */
function checkPreamble(file: string, preamble: string[], bodyLine: number): void {
  const index = preamble.findIndex((text) => text.trim() !== '');
  if (index === -1) return;
  throw new InputError(
    { file, line: bodyLine + index, column: 1 },
    'text before the first role line belongs to no message',
    'start the body with a line "system:" or "user:", or remove the role lines to make the whole body one user message',
  );
}
