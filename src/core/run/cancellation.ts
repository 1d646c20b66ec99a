// A scheduled call's cancellation as a plain object, so the scheduler needs no AbortController per call.

/**
 * The scheduler cancels a call at whatever stage it is in: queued, in an attempt, or backing off. A call is in one
 * stage at a time, so one handler slot is enough. An AbortController per call (an EventTarget with listeners
 * added and removed at every stage, and a signal the garbage collector has to trace) was most of the
 * scheduler's own CPU per call; an attempt still gets a real AbortSignal, because providers take one.
 */
export class Cancellation {
  private done = false;
  private why: unknown;
  private handler: (() => void) | undefined;

  get cancelled(): boolean {
    return this.done;
  }

  /** What the call is rejected with: the caller's signal's reason wrapped as ProviderError('cancelled'). */
  get reason(): unknown {
    return this.why;
  }

  /** Cancels once; the current stage's handler runs at once. */
  cancel(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.why = reason;
    const handler = this.handler;
    this.handler = undefined;
    handler?.();
  }

  /** `handler` runs if the call is cancelled before clear(): the stage that set it is waiting. */
  onCancel(handler: () => void): void {
    this.handler = handler;
  }

  clear(): void {
    this.handler = undefined;
  }
}
