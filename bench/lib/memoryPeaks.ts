// Peak resident set and JS heap of this process over a stretch of work, for the benchmark workers.

/** Peak RSS and heap used, sampled every 50 ms from construction until stop(), and whenever sample() is called. */
export class MemoryPeaks {
  rss = 0;
  heapUsed = 0;
  private readonly timer = setInterval(() => this.sample(), 50);

  /** Call before anything that drops memory (a forced GC), so a peak between two timer ticks is not missed. */
  sample(): void {
    const m = process.memoryUsage();
    this.rss = Math.max(this.rss, m.rss);
    this.heapUsed = Math.max(this.heapUsed, m.heapUsed);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}
