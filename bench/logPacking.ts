// Benchmark: the run log's format-3 packer (run/sharedValues.ts) alone — CPU per case line over a long run of lines
// whose texts never repeat (RGB rows: each question and passage its own), where the packer's memory of strings seen
// is full and forgets one per string. With --before <dir>, another checkout's packer, interleaved.
import * as path from 'node:path';
import { machineLine, median, numberArg, stringArg, table } from './lib/report.js';

type Packer = { pack(members: Record<string, unknown>): unknown };

function line(i: number): Record<string, unknown> {
  const documents = [`Landmark number ${i} is in Answer${i}.`, `Visitors reach landmark ${i} via Answer${i} station.`, `Landmark number ${i + 1000} is famous.`];
  return {
    type: 'case',
    case: { id: `noise/${i}/0`, suiteId: 'noise', question: `Where is landmark number ${i}?`, documents: documents.map((text, d) => ({ text, role: d < 2 ? 'positive' : 'negative' })), row: { file: '/tmp/bench/data.jsonl', line: i + 1 } },
    result: { caseId: `noise/${i}/0`, modelKey: 'extractive:bm25', status: 'success', response: { text: `Landmark number ${i} is in Answer${i}.`, latencyMs: 1 }, scores: [{ metric: 'accuracy', value: 1, pass: true }] },
  };
}

async function main(): Promise<void> {
  const lines = numberArg('lines', 200_000);
  const repeats = numberArg('repeats', 3);
  const before = stringArg('before');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];
  const packers = new Map<string, new () => Packer>();
  for (const [label, root] of trees) packers.set(label, ((await import(path.join(root, 'src', 'core', 'run', 'sharedValues.ts'))) as { SharedPacker: new () => Packer }).SharedPacker);
  const results = new Map<string, number[]>();
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const [label] of trees) {
      const packer = new (packers.get(label)!)();
      const start = process.cpuUsage();
      for (let i = 0; i < lines; i++) packer.pack(line(i));
      const used = process.cpuUsage(start);
      results.set(label, [...(results.get(label) ?? []), (used.user + used.system) / lines]);
    }
  }
  console.log(machineLine());
  console.log(`${lines} case lines per repeat, ${repeats} repeats interleaved; building each line is included`);
  console.log(table(['packer', 'CPU µs per line (median)', 'min–max'], [...results].map(([label, us]) => [label, median(us).toFixed(2), `${Math.min(...us).toFixed(2)}–${Math.max(...us).toFixed(2)}`])));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
