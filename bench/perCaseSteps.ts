// Benchmark: two steps every case goes through, alone — writing its run-log line (redacted JSON) and rendering its
// prompt — each against the way it was done before, so a few microseconds show above the machine's noise.
import { readFileSync } from 'node:fs';
import { buildPlan } from '../src/core/engine/plan.js';
import { runEvaluation } from '../src/core/engine/runEvaluation.js';
import { renderTemplate, renderTemplateSync } from '../src/core/prompt/template.js';
import { envCredentials } from '../src/core/providers/registry.js';
import { redact, stringifyRedacted } from '../src/core/redact.js';
import { loadEvalSpec } from '../src/core/spec/load.js';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { machineLine, median, numberArg, table } from './lib/report.js';

const EVAL_YAML = `version: 1
name: per-case steps
models:
  - extractive:baseline
suites:
  - id: noise
    method: rgb
    dataset: data.jsonl
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
`;

/** How the run log wrote a line before: a replacer on every member, which takes JSON.stringify off its fast path. */
const stringifyWithReplacer = (value: unknown): string =>
  JSON.stringify(value, (_name, member: unknown) => (typeof member === 'string' ? redact(member) : member));

/** CPU µs per call of `step` over `calls` calls (after a tenth as many unmeasured). */
async function cpuPerCall(calls: number, step: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < calls / 10; i++) await step(i);
  const started = process.cpuUsage();
  for (let i = 0; i < calls; i++) await step(i);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

async function main(): Promise<void> {
  const calls = numberArg('calls', 20_000);
  const repeats = numberArg('repeats', 5);
  // Real case lines and cases: a small RGB run on the offline reader, then its log and its plan.
  const workspace = createWorkspace({ rows: rgbRows(200), evalYaml: () => EVAL_YAML });
  const outcome = await runEvaluation(workspace.evalFile, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });
  const caseLines = readFileSync(outcome.logFile, 'utf8').split('\n').filter((line) => line.startsWith('{"type":"case"')).map((line) => JSON.parse(line) as unknown);
  const plan = await buildPlan(await loadEvalSpec(workspace.evalFile), new AbortController().signal);
  const { template, cases } = plan.suites[0]!;
  workspace.cleanup();

  console.log(machineLine());
  console.log(`${calls} calls per step, ${repeats} repeats interleaved; ${caseLines.length} RGB case lines of ~${Math.round(JSON.stringify(caseLines[0]).length / 100) / 10} KB, ${cases.length} cases`);
  const steps: [string, (i: number) => unknown][] = [
    ['run-log line: JSON.stringify with a redacting replacer (before)', (i) => stringifyWithReplacer(caseLines[i % caseLines.length])],
    ['run-log line: stringifyRedacted (now)', (i) => stringifyRedacted(caseLines[i % caseLines.length])],
    ['run-log line: plain JSON.stringify (the floor)', (i) => JSON.stringify(caseLines[i % caseLines.length])],
    ['prompt: renderTemplate, LiquidJS async (before)', (i) => renderTemplate(template, cases[i % cases.length]!.variables)],
    ['prompt: renderTemplateSync (now)', (i) => renderTemplateSync(template, cases[i % cases.length]!.variables)],
  ];
  const results = new Map<string, number[]>(steps.map(([label]) => [label, []]));
  for (let r = 0; r < repeats; r++) {
    for (const [label, step] of steps) results.get(label)!.push(await cpuPerCall(calls, step));
  }
  console.log(table(['step', 'CPU µs/call (median)', 'min–max'], steps.map(([label]) => {
    const values = results.get(label)!;
    return [label, median(values).toFixed(2), `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`];
  })));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
