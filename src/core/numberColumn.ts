// A growable column of numbers in a typed array: what a statistic over many values keeps, at 8 bytes a value.

/** A growable column of numbers (8 bytes each): what a mean with its interval or a correlation keeps per value. */
export class NumberColumn {
  private values = new Float64Array(64);
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = value;
  }

  /** A copy as a plain array, in the order pushed (for the statistics in stats.ts and metaEval.ts). */
  toArray(): number[] {
    return Array.from(this.values.subarray(0, this.size));
  }
}
