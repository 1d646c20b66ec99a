// Test-only messages: what a new message costs is this declaration and one handler (messages.test.ts), nothing else.
import { Command, Notification, Request } from '../../src/protocol.js';
import { list, num, object, oneOf, optional, text } from '../../src/protocolShapes.js';

export interface Shelf { title: string; tags: string[]; size: { rows: number; unit?: 'cm' | 'in' } }

/** A request with params of a nested JSON shape, answered with a typed result. */
export const Measure = new Request<{ shelf: Shelf }, { area: number; labels: string[] }>('test/measure', object({
  shelf: object({ title: text, tags: list(text), size: object({ rows: num, unit: optional(oneOf('cm', 'in')) }) }),
}));
/** A command whose handler answers with a notification. */
export const Knock = new Command<{ times: number }>('test/knock', object({ times: num }));
export const Knocked = new Notification<{ heard: number }>('test/knocked');
/** Declared, but given no handler: the host says so. */
export const Unhandled = new Request<{ runId: string }, string>('test/unhandled', object({ runId: text }));
