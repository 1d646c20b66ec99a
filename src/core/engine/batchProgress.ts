// Batch mode's progress in words (submitted / in progress / n of m done), for the CLI's lines and VS Code's status bar,
// progress notification and output channel: a batch runs for minutes to hours with no case finishing, so the case
// counter alone would look stalled. A line is given only when a batch moves.
import type { RunEvent } from './events.js';

export type BatchEvent = Extract<RunEvent, { type: 'batch' }>;

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

/** Where a run's vendor batches stand together: how many are still open at the vendor, and their requests done of all. */
export interface BatchStanding {
  open: number;
  batches: number;
  done: number;
  total: number;
}

/** Each batch's latest event, summed: what the status bar shows while a run waits on its batches. */
export class BatchTally {
  private readonly latest = new Map<string, BatchEvent>();

  add(event: BatchEvent): BatchStanding {
    this.latest.set(event.batchId, event);
    return this.standing();
  }

  standing(): BatchStanding {
    let open = 0;
    let done = 0;
    let total = 0;
    for (const event of this.latest.values()) {
      if (event.state === 'submitted' || event.state === 'pending') open += 1;
      done += event.done;
      total += event.total;
    }
    return { open, batches: this.latest.size, done, total };
  }
}
