// Printing bench results: the machine, the median of repeats, and aligned tables.
import { availableParallelism, cpus, loadavg } from 'node:os';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The machine line every result is printed under; the load average shows how busy the shared box was. */
export function machineLine(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  return `machine: ${availableParallelism()} cores (${model}), Node ${process.version}, ${process.platform}/${process.arch}, load average ${load}`;
}

export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

/** `--name value` from the bench's own arguments (the runner passes through what follows the bench names). */
export function numberArg(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const index = args.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(args[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number, got ${args[index + 1]}`);
  return value;
}

/** `--name value` as a string, or undefined when the option is not given. */
export function stringArg(name: string): string | undefined {
  const args = process.argv.slice(2);
  const index = args.indexOf(`--${name}`);
  return index < 0 ? undefined : args[index + 1];
}
