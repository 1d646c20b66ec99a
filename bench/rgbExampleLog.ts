// Benchmark: the run log of the bundled RGB example (260 cases, real passages, offline extractive model) as the built
// CLI writes it — bytes per case line and per case, by line type — for this tree and, with --before <dir>, another
// built checkout; then whether the two trees' report.json and cases.csv say the same (run ids, timestamps, hashes,
// latencies and the workspace path left out). Deterministic: sizes do not depend on load.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { machineLine, stringArg, table } from './lib/report.js';

const EXAMPLE = path.resolve(__dirname, '..', 'examples', 'rgb');

interface TreeRun {
  workspace: string;
  cases: number;
  caseBytes: number;
  logBytes: number;
  byType: Map<string, { lines: number; bytes: number }>;
}

function runTree(tree: string): TreeRun {
  const workspace = mkdtempSync(path.join(tmpdir(), 'rag-rgb-example-'));
  cpSync(EXAMPLE, workspace, { recursive: true });
  const run = spawnSync(process.execPath, [path.join(tree, 'dist', 'cli.js'), 'run', 'rgb-example.eval.yaml', '--no-cache', '--quiet', '--format', 'json,csv'], { cwd: workspace, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${tree}: exit ${run.status}: ${run.stderr}`);
  const runs = path.join(workspace, '.rag-inspector', 'runs');
  const bytes = readFileSync(path.join(runs, readdirSync(runs)[0]!));
  const byType = new Map<string, { lines: number; bytes: number }>();
  for (const line of bytes.toString('utf8').split('\n').filter(Boolean)) {
    const type = /^\{"type":"([a-z]+)"/.exec(line)?.[1] ?? 'header';
    const entry = byType.get(type) ?? { lines: 0, bytes: 0 };
    entry.lines++;
    entry.bytes += Buffer.byteLength(line) + 1;
    byType.set(type, entry);
  }
  const caseLines = byType.get('case') ?? { lines: 0, bytes: 0 };
  return { workspace, cases: caseLines.lines, caseBytes: caseLines.bytes, logBytes: bytes.length, byType };
}

/** A run's reports with what differs between any two runs of the same cases blanked out. */
function reportsOf(run: TreeRun): { json: string; csv: string } {
  const reports = path.join(run.workspace, '.rag-inspector', 'reports');
  const dir = path.join(reports, readdirSync(reports)[0]!);
  const scrub = (text: string) => text.replaceAll(run.workspace, '<workspace>').replace(/\d{4}-\d\d-\d\dT[\d:.-]+Z(-[0-9a-f]{6})?/g, '<time>');
  const volatile = /runId|At$|^at$|latency|Ms$|hash|duration/i;
  const json = JSON.stringify(JSON.parse(scrub(readFileSync(path.join(dir, 'report.json'), 'utf8'))), (key, value: unknown) => (volatile.test(key) ? '<volatile>' : value));
  const rows = csvRows(scrub(readFileSync(path.join(dir, 'cases.csv'), 'utf8')));
  const latency = rows[0]?.indexOf('latency_ms') ?? -1;
  const csv = rows.map((row) => row.filter((_, i) => i !== latency).join('\u0001')).join('\n');
  return { json, csv };
}

/** RFC 4180 rows (quoted fields may hold commas, quotes and newlines). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',' || c === '\n') {
      row.push(field);
      field = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    } else if (c !== '\r') {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

function main(): void {
  const before = stringArg('before');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];
  console.log(machineLine());
  const runs = trees.map(([label, tree]) => [label, runTree(tree)] as const);
  const types = [...new Set(runs.flatMap(([, run]) => [...run.byType.keys()]))];
  console.log(table(['tree', 'cases', 'B per case line', 'log B per case', 'log bytes', ...types.map((t) => `${t} lines (bytes)`)], runs.map(([label, run]) => [
    label,
    run.cases,
    Math.round(run.caseBytes / run.cases),
    Math.round(run.logBytes / run.cases),
    run.logBytes,
    ...types.map((t) => (run.byType.has(t) ? `${run.byType.get(t)!.lines} (${run.byType.get(t)!.bytes})` : '—')),
  ])));
  if (runs.length === 2) {
    const [a, b] = runs.map(([, run]) => reportsOf(run));
    console.log(`report.json the same: ${a!.json === b!.json}; cases.csv the same: ${a!.csv === b!.csv}`);
  }
  for (const [, run] of runs) rmSync(run.workspace, { recursive: true, force: true });
}

main();
