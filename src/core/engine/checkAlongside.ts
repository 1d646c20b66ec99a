// The pre-run check (preflight.ts) run alongside the run's first calls instead of before them, so it never delays the
// first case by a round trip: the first wave (as many cases as the models keep in flight) starts at once, every later
// case waits for the check, and a failed check aborts the first wave — whose results are dropped, never logged —
// before the run log exists. What a failure stops is what it stopped before: everything after the first wave.

export class CheckAlongside {
  private readonly failed = new AbortController();
  private admitted = 0;
  /** Settles when the check does; rejects with its failure. */
  readonly passed: Promise<void>;

  constructor(check: Promise<void>, private readonly firstWave: number) {
    this.passed = check.catch((error: unknown) => {
      this.failed.abort(error);
      throw error;
    });
    // Every waiter handles the rejection; this keeps an unobserved one from counting as unhandled.
    this.passed.catch(() => undefined);
  }

  /** Aborted (with the check's failure as the reason) when the check fails: the first wave's calls stop. */
  get signal(): AbortSignal {
    return this.failed.signal;
  }

  /** Resolves at once for a case of the first wave, else when the check passed; rejects when it failed. */
  async admit(): Promise<void> {
    this.admitted += 1;
    if (this.admitted > this.firstWave) await this.passed;
  }
}
