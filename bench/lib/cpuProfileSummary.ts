// Where a V8 CPU profile (`node --cpu-prof`) spent its samples: self time per source file, per function, and per step
// of a case, each frame of the bundle mapped to its source through the bundle's source map (the development build,
// `node esbuild.mjs`, keeps the names). `node --import tsx bench/lib/cpuProfileSummary.ts <file.cpuprofile> [top] [--from ms] [--to ms]` (a window of
// the profile, in ms from its start: what ran before the first request, or after the last answer).
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A window of the profile, in ms from its start: only the samples taken in it count. */
export interface ProfileWindow {
  fromMs?: number;
  toMs?: number;
}

/** The steps of a case, by the source file a sample's function is in; the first that matches counts. */
const STEPS: [string, RegExp][] = [
  ['GC', /^\(garbage collector\)$/],
  ['prompt rendering (LiquidJS)', /liquidjs|core\/prompt\//],
  ['the extractive reader', /providers\/(extractive|bm25)\.ts/],
  ['writing the run log (packing, texts, redaction, write)', /run\/(sharedValues|caseText|caseDerived|packedCase|runLog)\.ts|core\/redact\.ts|^\(writeBuffers?\)$/],
  ['reading its lines back (decoder, tail, tables)', /run\/(logLine|logLineShapes|logTail|logTexts)\.ts|engine\/(followLog|tablesFromLog|totals|firstLineOfCase)\.ts/],
  ['report writers and their spools', /core\/report\/|csv-stringify|errorCauses\.ts|node:string_decoder|node:buffer/],
  ['the method (RGB: rows, cases, spans, scoring)', /core\/suites\//],
  ['planning and dataset rows', /engine\/plan\.ts|core\/data\/|core\/pool\.ts|core\/random\.ts/],
  ['scheduler, model client, executeCase, the run loop', /run\/(scheduler|modelClient|abortFanout|clock|rateLimiter|cache|singleFlight)\.ts|engine\/(executeCase|runEvaluation|checkAlongside)\.ts|abort_controller|event_target|timers|task_queues|^\(runMicrotasks\)$/],
  ['start-up (modules, YAML, schema, spec)', /node:internal\/modules|bootstrap|core\/spec\/|src\/cli\/|yaml|ajv|zod|^\(program\)$|^\(compile/],
];

export interface ProfileSummary {
  busyMs: number;
  files: [string, number][];
  functions: [string, number][];
  steps: [string, number][];
}

export function summarizeCpuProfile(file: string, window: ProfileWindow = {}): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  const from = (window.fromMs ?? -Infinity) * 1000;
  const to = (window.toMs ?? Infinity) * 1000;
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from && at < to) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  const maps = new Map<string, SourceMap | undefined>();
  const sourceMap = (url: string): SourceMap | undefined => {
    if (!maps.has(url)) {
      const mapFile = `${url.replace(/^file:\/\//, '')}.map`;
      maps.set(url, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]) : undefined);
    }
    return maps.get(url);
  };
  const where = (id: number): { file: string; line: number; name: string } => {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    const name = functionName || '(anonymous)';
    if (!url) return { file: name.startsWith('(') ? name : `(${name})`, line: 0, name };
    const entry = sourceMap(url)?.findEntry(lineNumber, columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
    const source = entry?.originalSource ?? url;
    return { file: source.replace(/^file:\/\//, '').replace(/^(\.\.\/)+/, '').replace(/.*\/node_modules\//, ''), line: (entry?.originalSource ? entry.originalLine! : lineNumber) + 1, name };
  };

  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  const steps = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of self) {
    const here = where(id);
    if (here.file === '(idle)') continue;
    const ms = micros / 1000;
    busy += ms;
    add(files, here.file, ms);
    add(functions, `${here.name} ${here.file}:${here.line}`, ms);
    // A native frame (a regular expression, a write) counts for the step of the nearest frame with a source file.
    let step = here.file;
    for (let at: number | undefined = id; at !== undefined && /^\((?!garbage collector|program)/.test(step); at = parent.get(at)) step = where(at).file;
    add(steps, STEPS.find(([, pattern]) => pattern.test(step))?.[0] ?? 'other', ms);
  }
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { busyMs: busy, files: sorted(files), functions: sorted(functions), steps: sorted(steps) };
}

export function formatSummary(summary: ProfileSummary, top = 25): string {
  const rows = (entries: [string, number][]) => entries.slice(0, top).map(([key, ms]) => `${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)}%  ${key}`).join('\n');
  return [`${summary.busyMs.toFixed(0)} ms of samples busy`, '-- by step', rows(summary.steps), '-- by source file', rows(summary.files), '-- by function', rows(summary.functions)].join('\n');
}

if (require.main === module) {
  const option = (name: string): number | undefined => {
    const at = process.argv.indexOf(`--${name}`);
    return at === -1 ? undefined : Number(process.argv[at + 1]);
  };
  const [file, top] = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  if (!file) {
    console.error('usage: node --import tsx bench/lib/cpuProfileSummary.ts <file.cpuprofile> [top] [--from ms] [--to ms]');
    process.exit(2);
  }
  console.log(formatSummary(summarizeCpuProfile(file, { fromMs: option('from'), toMs: option('to') }), Number(top ?? 25)));
}
