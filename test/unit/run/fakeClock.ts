// A manual clock for scheduler tests: time moves only when a test advances it, so timing logic is checked without waiting.
import type { Clock } from '../../../src/core/run/clock.js';

interface Timer {
  at: number;
  fire: () => void;
}

/** Lets every promise continuation that is already due run (several turns, for chains of awaits). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export class FakeClock implements Clock {
  private current = 0;
  private timers = new Set<Timer>();

  now(): number {
    return this.current;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer: Timer = { at: this.current + Math.max(0, ms), fire: callback };
    this.timers.add(timer);
    return () => {
      this.timers.delete(timer);
    };
  }

  /** Deadlines of the timers still pending, soonest first; empty means nothing was left behind. */
  get pending(): number[] {
    return [...this.timers].map((t) => t.at).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, firing each due timer in order and letting its continuations run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      const due = [...this.timers].filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due);
      this.current = due.at;
      due.fire();
    }
    this.current = target;
    await settle();
  }
}
