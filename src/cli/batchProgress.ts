// Batch mode's progress as plain lines (submitted / in progress / n of m done): a batch runs for minutes to hours
// with no case finishing, so the case counter alone would look stalled. A line is printed only when a batch moves.
import type { RunEvent } from '../core/engine/events.js';

type BatchEvent = Extract<RunEvent, { type: 'batch' }>;

const STATE_WORDS: Record<BatchEvent['state'], string> = {
  submitted: 'submitted',
  pending: 'in progress',
  completed: 'ended',
  failed: 'failed at the vendor',
  expired: 'expired',
  cancelled: 'cancelled',
};

export function batchLine(event: BatchEvent): string {
  const where = `batch ${event.batchId} (${event.modelKey})`;
  if (event.state === 'submitted') return `${where}: submitted, ${event.total} request${event.total === 1 ? '' : 's'}`;
  return `${where}: ${STATE_WORDS[event.state]}, ${event.done} of ${event.total} done`;
}

/** Each batch's last line, so polls that found nothing new print nothing. */
export class BatchProgressLines {
  private readonly last = new Map<string, string>();

  /** The line to print for this event, or undefined when the batch has not moved since the last one. */
  lineFor(event: BatchEvent): string | undefined {
    const line = batchLine(event);
    if (this.last.get(event.batchId) === line) return undefined;
    this.last.set(event.batchId, line);
    return line;
  }
}
