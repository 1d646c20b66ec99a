// Benchmark: RAG Inspector's CLI against promptfoo's on the same RAG workload and the same fixture server — wall time, throughput, CPU and peak RSS of each tool's process tree, failed cases — at each tool's defaults and at equal concurrency, latency-bound and rate-limited.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { ensureInstalled } from './promptfoo/install.js';
import type { Installed } from './promptfoo/install.js';
import { checkTimeBinary, measure } from './promptfoo/measure.js';
import { summariseProfile } from './promptfoo/profile.js';
import { DEFAULTS } from '../src/core/spec/schema.js';
import type { Measured } from './promptfoo/measure.js';
import type { ServerMessage, ServerOptions, ServerReport } from './promptfoo/server.js';
import { promptfooConfig, ragInspectorEval, writeWorkload } from './promptfoo/workload.js';
import type { WorkloadFiles } from './promptfoo/workload.js';
import { machineLine, mb, median, numberArg, table } from './lib/report.js';
import { forkServerProcess } from '../test/fixtures/serverProcess.js';

const REPO = path.resolve(__dirname, '..');
const RUN_LIMIT_MS = 10 * 60_000;
/** promptfoo's default -j (its --help: "default: 4"); ours is DEFAULTS.concurrency. */
const PROMPTFOO_DEFAULT_CONCURRENCY = 4;
const TOOLS = ['rag-inspector', 'promptfoo'] as const;
type Tool = (typeof TOOLS)[number];

interface Scenario {
  name: string;
  latencyMs: number;
  requestsPerMinute?: number;
}

interface Setting {
  name: string;
  /** undefined: the tool's own default. */
  concurrency?: number;
}

interface Outcome {
  cases: number;
  passed: number;
  /** Cases that did not pass: wrong answer, error or missing. */
  failed: number;
  errors: number;
}

interface RunResult extends Measured, Outcome {
  tool: Tool;
  scenario: string;
  setting: string;
  repeat: number;
  server: ServerReport;
}

function stringArg(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const index = args.indexOf(`--${name}`);
  return index < 0 ? fallback : (args[index + 1] ?? fallback);
}

// ---- the fixture server, one process per tool run ----

interface ServerHandle {
  openaiBaseUrl: string;
  report(): Promise<ServerReport>;
  close(): Promise<void>;
}

async function startServer(options: ServerOptions): Promise<ServerHandle> {
  const server = await forkServerProcess<ServerMessage>(path.join(__dirname, 'promptfoo', 'server.ts'), options);
  return {
    openaiBaseUrl: server.openaiBaseUrl,
    report: async () => (await server.ask('report', 'report')).report,
    close: () => server.close(),
  };
}

// ---- the two tools ----

interface Context {
  work: WorkloadFiles;
  installed: Installed;
  cliBundle: string;
  promptfooHome: string;
  cases: number;
  runDir: string;
}

let runCounter = 0;

/**
 * Builds the CLI from src/ with esbuild.mjs itself, into .bench/ (dist/ is left alone; the bundle must sit inside the
 * repo, where it finds package.json and the built-in prompts), with the vendor SDKs it loads on first use beside it.
 */
function buildCli(outdir: string): string {
  const built = spawnSync(process.execPath, ['esbuild.mjs', '--outdir', outdir], { cwd: REPO, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`esbuild.mjs exited with ${built.status}`);
  return path.join(outdir, 'cli.js');
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_BASE_URL', 'OPENAI_API_HOST', 'NODE_OPTIONS']) delete env[name];
  return env;
}

export function ragInspectorCommand(ctx: Context, evalFile: string, outDir: string, setting: Setting, nodeArgs: string[] = []): { command: string; args: string[] } {
  const args = [...nodeArgs, ctx.cliBundle, 'run', evalFile, '--no-cache', '--out', outDir];
  if (setting.concurrency !== undefined) args.push('--concurrency', String(setting.concurrency));
  return { command: process.execPath, args };
}

export function promptfooCommand(ctx: Context, configFile: string, outFile: string, setting: Setting, firstN?: number): { command: string; args: string[] } {
  const args = [ctx.installed.promptfooEntry, 'eval', '-c', configFile, '--no-cache', '-o', outFile];
  if (setting.concurrency !== undefined) args.push('-j', String(setting.concurrency));
  if (firstN !== undefined) args.push('-n', String(firstN));
  return { command: ctx.installed.node24, args };
}

/** From our own JSON report: every case scored, none in error, none failing. */
function ragInspectorOutcome(outDir: string): Outcome {
  const found = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).find((entry) => path.basename(entry) === 'report.json');
  if (!found) throw new Error(`no report.json under ${outDir}`);
  const file = path.join(outDir, found);
  const report = JSON.parse(readFileSync(file, 'utf8')) as { totals: { cases: number; passed: number; failed: number; error: number } };
  const { cases, passed, error } = report.totals;
  return { cases, passed, failed: cases - passed, errors: error };
}

/** From promptfoo's --output results.json: successes, failures (assertion), errors (provider). */
function promptfooOutcome(outFile: string): Outcome {
  const output = JSON.parse(readFileSync(outFile, 'utf8')) as { results: { stats: { successes: number; failures: number; errors: number }; results: unknown[] } };
  const { successes, failures, errors } = output.results.stats;
  const cases = output.results.results.length;
  return { cases, passed: successes, failed: failures + errors + Math.max(0, cases - successes - failures - errors), errors };
}

async function runTool(ctx: Context, tool: Tool, scenario: Scenario, setting: Setting, options: { cases: number; firstN?: number; nodeArgs?: string[] }): Promise<Measured & Outcome & { server: ServerReport }> {
  const n = ++runCounter;
  const dir = path.join(ctx.runDir, `${String(n).padStart(3, '0')}-${tool}-${scenario.name}-${setting.name}`);
  mkdirSync(dir, { recursive: true });
  const server = await startServer({ cases: ctx.cases, latencyMs: scenario.latencyMs, ...(scenario.requestsPerMinute ? { requestsPerMinute: scenario.requestsPerMinute } : {}) });
  try {
    let spec: { command: string; args: string[] };
    let env: NodeJS.ProcessEnv;
    let outcome: () => Outcome;
    if (tool === 'rag-inspector') {
      // The eval file sits beside the dataset (paths are relative to it); its run log goes to .rag-inspector/ there.
      const evalFile = path.join(ctx.work.dir, `run-${n}.eval.yaml`);
      writeFileSync(evalFile, ragInspectorEval(server.openaiBaseUrl, options.firstN));
      const outDir = path.join(dir, 'reports');
      spec = ragInspectorCommand(ctx, evalFile, outDir, setting, options.nodeArgs);
      env = cleanEnv({});
      outcome = () => ragInspectorOutcome(outDir);
    } else {
      const configFile = path.join(dir, 'promptfooconfig.yaml');
      writeFileSync(configFile, promptfooConfig(server.openaiBaseUrl, ctx.work.cases));
      const outFile = path.join(dir, 'results.json');
      spec = promptfooCommand(ctx, configFile, outFile, setting, options.firstN);
      env = cleanEnv({
        PATH: `${path.join(ctx.installed.node24Dir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
        OPENAI_API_KEY: 'sk-fixture',
        // Its database and logs in a folder of the bench's own; no phoning home (there is no internet here anyway).
        PROMPTFOO_CONFIG_DIR: ctx.promptfooHome,
        PROMPTFOO_DISABLE_TELEMETRY: '1',
        PROMPTFOO_DISABLE_UPDATE: '1',
      });
      outcome = () => promptfooOutcome(outFile);
    }
    const measured = await measure({ ...spec, env, cwd: dir, logFile: path.join(dir, 'output.log'), timeFile: path.join(dir, 'time.txt'), timeoutMs: RUN_LIMIT_MS, loadAtStart: loadavg()[0]! });
    let result: Outcome;
    try {
      result = outcome();
    } catch (error) {
      const log = readFileSync(path.join(dir, 'output.log'), 'utf8');
      throw new Error(`${tool} left no readable result (exit code ${measured.exitCode}): ${String(error)}\n--- last lines of its output ---\n${log.slice(-3000)}`);
    }
    if (result.cases !== options.cases) throw new Error(`${tool} ran ${result.cases} cases, expected ${options.cases} (${dir})`);
    return { ...measured, ...result, server: await server.report() };
  } finally {
    await server.close();
  }
}

// ---- the report ----

function row(label: string, runs: RunResult[]): (string | number)[] {
  const med = (f: (r: RunResult) => number) => median(runs.map(f));
  return [
    label,
    (med((r) => r.wallMs) / 1000).toFixed(2),
    (med((r) => r.wallMs - r.server.spanMs) / 1000).toFixed(2),
    med((r) => r.cases / (r.wallMs / 1000)).toFixed(1),
    (med((r) => r.cpuMs) / 1000).toFixed(2),
    mb(med((r) => r.peakRssBytes)),
    `${Math.max(...runs.map((r) => r.failed))}/${runs[0]?.cases ?? 0}`,
    med((r) => r.server.byStatus['429'] ?? 0).toFixed(0),
    `${med((r) => r.server.peakInFlight).toFixed(0)} / ${med((r) => r.server.meanInFlight).toFixed(1)}`,
    med((r) => r.loadAtStart).toFixed(2),
  ];
}

function ratio(ours: RunResult[], theirs: RunResult[], f: (r: RunResult) => number): string {
  return (median(ours.map(f)) / median(theirs.map(f))).toFixed(2);
}

async function main(): Promise<void> {
  const cases = numberArg('cases', 400);
  const latencyMs = numberArg('latency-ms', 200);
  const concurrency = numberArg('concurrency', 16);
  const rpm = numberArg('rpm', 300);
  const repeats = numberArg('repeats', 3);
  const wanted = stringArg('scenarios', 'latency,ratelimit').split(',');
  const scenarios: Scenario[] = [
    { name: 'latency', latencyMs },
    { name: 'ratelimit', latencyMs, requestsPerMinute: rpm },
  ].filter((s) => wanted.includes(s.name));
  const settings: Setting[] = [{ name: 'defaults' }, { name: `concurrency ${concurrency}`, concurrency }];

  checkTimeBinary();
  const installed = ensureInstalled();
  const root = mkdtempSync(path.join(tmpdir(), 'rag-inspector-promptfoo-bench-'));
  const keep = process.argv.includes('--keep');
  try {
    const cliBundle = buildCli(path.join(REPO, '.bench', 'rag-inspector-cli'));
    const work = await writeWorkload(path.join(root, 'workload'), cases);
    const promptfooHome = path.join(root, 'promptfoo-home');
    mkdirSync(promptfooHome, { recursive: true });
    const ctx: Context = { work, installed, cliBundle, promptfooHome, cases, runDir: path.join(root, 'runs') };
    const node24Version = spawnSync(installed.node24, ['--version'], { encoding: 'utf8' }).stdout.trim();

    console.log(machineLine());
    console.log(`RAG Inspector CLI (built from src/ at ${gitHead()}, default concurrency ${DEFAULTS.concurrency}) on Node ${process.version}; promptfoo ${installed.promptfooVersion} (default -j ${PROMPTFOO_DEFAULT_CONCURRENCY}) on Node ${node24Version}`);
    console.log(`${cases} cases (RGB noise robustness, noise ratio 0.4: a question and 5 passages, 2 of them noise; answer checked with contains / icontains), fixture server in its own process at ${latencyMs} ms latency; rate-limited scenario: ${rpm} requests per sliding minute, 429 with Retry-After above it; caches off (--no-cache); ${repeats} repeats, medians`);
    console.log('commands (paths shortened; <url> is the fixture server of the run):');
    console.log(`  rag-inspector: node cli.js run run.eval.yaml --no-cache --out reports [--concurrency ${concurrency}]   (eval file: model openai-compatible:fixture-model at <url>)`);
    console.log(`  promptfoo:     PATH=<node24>/bin:$PATH PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 node24 promptfoo/dist/src/entrypoint.js eval -c promptfooconfig.yaml --no-cache -o results.json [-j ${concurrency}]   (provider openai:chat:fixture-model, apiBaseUrl <url>)`);
    console.log('  each under /usr/bin/time -v (user+sys CPU and max RSS of the tool\'s process tree; the server is a separate process and not counted)');

    // Unmeasured warm-up: file caches, promptfoo's database migrations, our first run log folder.
    const warmCases = Math.min(20, cases);
    for (const tool of TOOLS) await runTool(ctx, tool, { name: 'warmup', latencyMs: 0 }, { name: 'defaults' }, { cases: warmCases, firstN: warmCases });

    const results: RunResult[] = [];
    const digests = new Set<string>();
    for (let repeat = 1; repeat <= repeats; repeat++) {
      for (const scenario of scenarios) {
        for (const setting of settings) {
          // Alternate which tool goes first, so drift in the machine's load does not favour one.
          const order = repeat % 2 === 1 ? TOOLS : ([...TOOLS].reverse() as Tool[]);
          for (const tool of order) {
            const result = await runTool(ctx, tool, scenario, setting, { cases });
            results.push({ ...result, tool, scenario: scenario.name, setting: setting.name, repeat });
            digests.add(result.server.promptsDigest);
            console.log(`repeat ${repeat} ${scenario.name} ${setting.name} ${tool}: ${(result.wallMs / 1000).toFixed(2)} s wall, ${(result.cpuMs / 1000).toFixed(2)} s CPU, ${mb(result.peakRssBytes)} MB peak RSS, ${result.failed} failed, ${result.server.byStatus['429'] ?? 0} × 429, ${result.server.requests} requests, peak ${result.server.peakInFlight} in flight, exit ${result.exitCode}, load ${result.loadAtStart.toFixed(2)}`);
          }
        }
      }
    }

    const sample = results.find((r) => r.tool === 'rag-inspector')?.server;
    const theirs = results.find((r) => r.tool === 'promptfoo')?.server;
    console.log(`\nsame prompts: ${digests.size === 1 ? 'yes' : 'NO'} (digest of the answered message lists per run: ${[...digests].join(', ')}; ${sample?.distinctPrompts} distinct prompts)`);
    console.log(`request bodies besides messages: rag-inspector ${JSON.stringify(sample?.sampleBody)}; promptfoo ${JSON.stringify(theirs?.sampleBody)}`);

    const header = ['tool', 'wall s', 'outside calls s', 'cases/s', 'CPU s', 'peak RSS MB', 'failed (max)', '429s', 'in flight peak / mean', 'load'];
    const verdicts: string[] = [];
    for (const scenario of scenarios) {
      for (const setting of settings) {
        const pick = (tool: Tool) => results.filter((r) => r.tool === tool && r.scenario === scenario.name && r.setting === setting.name);
        const ours = pick('rag-inspector');
        const them = pick('promptfoo');
        const floorAt = (inFlight: number) => `${((Math.ceil(cases / inFlight) * scenario.latencyMs) / 1000).toFixed(1)} s at ${inFlight} in flight`;
        const floors = setting.concurrency !== undefined ? floorAt(setting.concurrency) : `RAG Inspector ${floorAt(DEFAULTS.concurrency)}, promptfoo ${floorAt(PROMPTFOO_DEFAULT_CONCURRENCY)}`;
        const floor = scenario.requestsPerMinute ? '' : `; latency floor: ${floors}`;
        console.log(`\n${scenario.name}${scenario.requestsPerMinute ? ` (${scenario.requestsPerMinute} rpm)` : ''}, ${setting.name} — median of ${repeats}${floor}:`);
        console.log(
          table(header, [
            row('rag-inspector', ours),
            row('promptfoo', them),
            [
              'ratio RI ÷ pf',
              ratio(ours, them, (r) => r.wallMs),
              '',
              ratio(ours, them, (r) => r.cases / r.wallMs),
              ratio(ours, them, (r) => r.cpuMs),
              ratio(ours, them, (r) => r.peakRssBytes),
              '',
              '',
              '',
              '',
            ],
          ]),
        );
        const speedup = median(them.map((r) => r.wallMs)) / median(ours.map((r) => r.wallMs));
        if (setting.concurrency !== undefined) verdicts.push(`${scenario.name}, equal concurrency ${setting.concurrency}: RAG Inspector ${speedup > 1 ? 'faster' : 'NOT faster'} (${speedup.toFixed(2)}× promptfoo's speed) — target ${speedup > 1 ? 'met' : 'missed'}`);
        else if (scenario.requestsPerMinute === undefined) verdicts.push(`${scenario.name}, defaults: RAG Inspector ${speedup.toFixed(2)}× promptfoo's speed — target ≥ 2× ${speedup >= 2 ? 'met' : 'missed'}`);
      }
    }
    const failedRuns = results.filter((r) => r.failed > 0);
    verdicts.push(
      `zero failed cases: RAG Inspector ${failedRuns.some((r) => r.tool === 'rag-inspector') ? 'NO' : 'yes'}, promptfoo ${failedRuns.some((r) => r.tool === 'promptfoo') ? 'NO' : 'yes'} (over all ${results.length} measured runs)`,
    );
    console.log('outside calls: wall time before the server saw the first request and after it sent the last answer (start-up, planning, reports, exit)');
    console.log(`\nverdicts:\n${verdicts.map((v) => `  ${v}`).join('\n')}`);

    if (!process.argv.includes('--no-profile')) {
      // One more, unmeasured run of our CLI with V8's sampling profiler, at equal concurrency on the latency-bound workload.
      const profileDir = path.join(root, 'cpu-profile');
      const setting = settings[1]!;
      const run = await runTool(ctx, 'rag-inspector', { name: 'profile', latencyMs }, setting, { cases, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
      const profileFile = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
      if (!profileFile) throw new Error(`no .cpuprofile in ${profileDir}`);
      // dist/cli.js only starts the bundle (src/cli/bin.ts): the profile's frames are in cliMain.js.
      const summary = summariseProfile(path.join(profileDir, profileFile), path.join(path.dirname(cliBundle), 'cliMain.js.map'));
      const share = (ms: number) => `${((ms / summary.busyMs) * 100).toFixed(0)}%`;
      console.log(`
RAG Inspector CPU profile (--cpu-prof, ${setting.name}, latency scenario; this run: ${(run.wallMs / 1000).toFixed(2)} s wall, ${(run.cpuMs / 1000).toFixed(2)} s CPU, load ${run.loadAtStart.toFixed(2)}): ${summary.busyMs.toFixed(0)} ms sampled busy, ${summary.idleMs.toFixed(0)} ms idle`);
      console.log(table(['phase (a sample goes to the first phase in its stack)', 'ms', 'share'], summary.phases.map(([phase, ms]) => [phase, ms.toFixed(0), share(ms)])));
      console.log(table(['self time at (source-mapped)', 'ms', 'share'], summary.hotspots.map(([at, ms]) => [at, ms.toFixed(0), share(ms)])));
    }

    const rawFile = path.join(tmpdir(), `rag-inspector-promptfoo-bench-${Date.now()}.json`);
    writeFileSync(rawFile, JSON.stringify({ cases, latencyMs, concurrency, rpm, repeats, promptfoo: installed.promptfooVersion, node24: node24Version, node: process.version, results }, null, 2));
    console.log(`raw results: ${rawFile}${keep ? `; run folders kept in ${root}` : ''}`);
  } finally {
    if (!keep) rmSync(root, { recursive: true, force: true });
  }
}

function gitHead(): string {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'unknown commit';
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
