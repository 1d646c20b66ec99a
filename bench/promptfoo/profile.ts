// Reads a V8 .cpuprofile of the RAG Inspector CLI bundle and says where its time went: source-mapped back to src/ and node_modules, grouped into the engine's phases.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import type { SourceMapPayload } from 'node:module';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled time that was not idle, ms (on a busy machine this includes time the process waited for a core). */
  busyMs: number;
  idleMs: number;
  /** Busy time by phase, largest first. */
  phases: [string, number][];
  /** Self time by source location (src/ file:line or package), largest first. */
  hotspots: [string, number][];
}

/** Phases in priority order: a sample belongs to the first whose test matches a frame of its stack. */
const PHASES: [string, (frame: string) => boolean][] = [
  ['garbage collection', (f) => f.startsWith('(garbage collector)')],
  ['reports (JSON, CSV, JUnit, HTML)', (f) => /src\/core\/report\/|nm:csv-stringify/.test(f)],
  ['run log (JSONL append per case)', (f) => /src\/core\/run\/(runLog|redact)\.ts/.test(f)],
  ['eval file load + schema validation (ajv)', (f) => /src\/core\/spec\/|nm:ajv|nm:yaml/.test(f)],
  ['plan: rows → cases, passage spans, template render (liquidjs)', (f) => /src\/core\/engine\/plan\.ts|src\/core\/suites\/rgb\/(cases|processData|rows|spans)\.ts|src\/core\/prompt\/|nm:liquidjs/.test(f)],
  ['scoring (RGB exact match)', (f) => /src\/core\/suites\/rgb\/(score|match|judge)\.ts/.test(f)],
  ['HTTP call (openai SDK, undici, sockets)', (f) => /nm:openai|undici|node:net|node:_http|node:internal\/(stream|net)/.test(f)],
  ['scheduler + model client (timers, abort signals, retries)', (f) => /src\/core\/run\/(scheduler|modelClient|clock|backoff|rateLimiter)\.ts|src\/core\/providers\//.test(f)],
  ['module loading at start-up', (f) => /wrapSafe|compileFunction|Module\._compile|Module\._load|node:internal\/modules/.test(f)],
  ['engine loop (executeCase, pool, events, progress)', (f) => /src\/core\/engine\/|src\/cli\//.test(f)],
];

export function summariseProfile(profileFile: string, bundleMapFile: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
  const map = new SourceMap(JSON.parse(readFileSync(bundleMapFile, 'utf8')) as SourceMapPayload);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

  const located = new Map<number, string>();
  const where = (node: ProfileNode): string => {
    const cached = located.get(node.id);
    if (cached !== undefined) return cached;
    const cf = node.callFrame;
    let text: string;
    if (cf.url.endsWith('cliMain.js')) {
      const entry = map.findEntry(cf.lineNumber, cf.columnNumber) as { originalSource?: string; originalLine?: number };
      const source = (entry.originalSource ?? '?').replace(/^(\.\.\/)+/, '').replace(/.*node_modules\//, 'nm:');
      text = source.startsWith('nm:') ? `${source.split('/').slice(0, source.startsWith('nm:@') ? 2 : 1).join('/')}` : `${source}:${(entry.originalLine ?? 0) + 1} ${cf.functionName || '(anonymous)'}`;
    } else {
      text = cf.url ? `${cf.url} ${cf.functionName}` : cf.functionName;
    }
    located.set(node.id, text);
    return text;
  };

  const phases = new Map<string, number>();
  const hotspots = new Map<string, number>();
  let busyMs = 0;
  let idleMs = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (ms === 0) continue;
    if (node.callFrame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const leaf = where(node);
    hotspots.set(leaf, (hotspots.get(leaf) ?? 0) + ms);
    const stack: string[] = [];
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) stack.push(where(nodes.get(id)!));
    const phase = PHASES.find(([, test]) => stack.some(test))?.[0] ?? 'other (V8, event loop, stdout)';
    phases.set(phase, (phases.get(phase) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { busyMs, idleMs, phases: sorted(phases), hotspots: sorted(hotspots).slice(0, 15) };
}
