// Parses the command line into a typed request, with messages that say how to fix a wrong flag.
import { parseArgs } from 'node:util';
import { REPORT_FORMATS, parseFormats } from '../core/report/writeReports.js';
import type { ReportFormat } from '../core/report/writeReports.js';
import type { ModelSpec } from '../core/providers/contract.js';
import { VARIANT_KINDS } from '../core/explain/model.js';
import type { VariantKind } from '../core/explain/model.js';
import { otlpEndpointProblem } from '../core/traces/otlpExport.js';

export const USAGE = `Usage:
  rag-inspector run <file.eval.yaml> [options]    run an evaluation and write its reports
  rag-inspector report <run-log.jsonl> [options]  write reports again from a finished run log
  rag-inspector runs [folder]                     list the runs under <folder>/.rag-inspector/runs
  rag-inspector explain <run-log|run-id|latest> [--case ID]… [--failed] [--variants loo,subsets,position,instruction]
                        [--max-calls N] [--plan]  say which document, position or instruction made each case come out as it did
  rag-inspector generate-counterfactual <dataset> --model <provider:model> --out <file> [--seed n]
                                                  write IF-RAG counterfactual data with a model, for review
  rag-inspector import-traces <file|folder> --out <dataset.jsonl> [--since t] [--until t] [--where k=v]
                [--score-below name=x] [--sample n --seed n]
                                                  turn OTLP JSON, Phoenix or Langfuse trace exports into dataset rows

Options for run:
  --model <provider:model>   model under test (repeatable); replaces the eval file's models
  --provider <name>          provider for --model values given without one (openai, anthropic, openai-compatible, extractive)
  --concurrency <n>          calls in flight per model
  --batch                    send the calls of every model (and the judge) whose vendor has a batch API (openai, openai-compatible, anthropic) through it
  --no-cache                 no response cache at all: every request goes to the model, nothing is stored
  --refresh                  call the models even when an answer is cached, and store the fresh answers
  --resume <run>             finish an interrupted run: a run log path, a run id, or "latest"
  --retry-errors             with --resume: also run again the cases that ended in an error
  --rerun-failed [run]       a new run of the failed and errored cases of a run (default: the latest)
  --no-preflight             skip the first check of each server and model (one cheap request each)
  --out <folder>             where reports go (default .rag-inspector/reports/<run-id>)
  --format <list>            report formats, comma-separated: ${REPORT_FORMATS.join(', ')} (default all)
  --quiet                    no progress output
  --contain                  for eval files you did not write (CI on pull requests): refuse, before reading anything,
                             any dataset, template or haystack outside the eval file's folder tree (symbolic links
                             followed), and any baseUrl the eval file sets unless allowed with --allow-endpoint
  --allow-endpoint <url>     with --contain: a baseUrl the eval file may use (repeatable, exact URL)
  --export-otlp <url>        also send each case as an OpenInference trace to this OTLP/HTTP endpoint (run, report);
                             the eval file's export.otlp does the same with headers from environment variables

Options for explain:
  --case <id>                explain this case (repeatable); with --failed, only its failed models
  --failed                   explain every failed case (the default when no --case is given)
  --variants <list>          leave-one-out, random subsets, position sweep, instruction removal (default all)
  --max-calls <n>            at most n model calls (cached answers are free); the rest of the variants are left out
  --plan                     print the cost plan (calls, cached, estimated USD) and stop
  --no-cache, --out, --format, --quiet as for run; explanations are kept in .rag-inspector/explanations/

Filters for import-traces: --since/--until <ISO time> (trace start), --where <attribute>=<value> (on any span,
repeatable), --score-below <name>=<x> (a score on the trace; document.score: the best passage's), --sample <n>.

Keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY; OPENAI_BASE_URL points the openai provider at any
OpenAI-compatible server. Exit codes: 0 thresholds pass, 1 a threshold failed, 2 an error.
generate-counterfactual exits 0 when every row got counterfactual data, 1 when some rows failed (listed, file
still written), 2 on an error.`;

export interface RunCommand {
  command: 'run';
  specFile: string;
  models: ModelSpec[];
  concurrency?: number;
  /** Every model and the judge in batch mode, as `batch: true` in the eval file. */
  batch: boolean;
  noCache: boolean;
  /** Fresh answers, still written to the cache. */
  refresh: boolean;
  resume?: string;
  retryErrors: boolean;
  /** A run log path, a run id, or "latest". */
  rerunFailed?: string;
  preflight: boolean;
  out?: string;
  formats: ReportFormat[];
  quiet: boolean;
  /** --contain: paths inside the eval file's folder tree, and only the listed endpoints. */
  contain?: { allowEndpoints: string[] };
  exportOtlp?: string;
}

export interface ReportCommand {
  command: 'report';
  logFile: string;
  out?: string;
  formats: ReportFormat[];
  exportOtlp?: string;
}

export interface RunsCommand {
  command: 'runs';
  folder: string;
}

export interface GenerateCounterfactualCommand {
  command: 'generate-counterfactual';
  dataset: string;
  model: ModelSpec;
  out: string;
  seed: number;
  concurrency: number;
  quiet: boolean;
}

export interface ExplainCommand {
  command: 'explain';
  /** A run log path, a run id, or "latest". */
  run: string;
  caseIds: string[];
  failed: boolean;
  variants?: VariantKind[];
  maxCalls?: number;
  planOnly: boolean;
  noCache: boolean;
  out?: string;
  formats: ReportFormat[];
  quiet: boolean;
}

export type CliCommand = RunCommand | ReportCommand | RunsCommand | GenerateCounterfactualCommand | ExplainCommand | { command: 'help' };

export class UsageError extends Error {}

/** --export-otlp checked when given, as the eval file's endpoint is when loaded: a malformed URL stops before the run. */
function otlpFlag(endpoint: string | undefined): string | undefined {
  const problem = endpoint === undefined ? undefined : otlpEndpointProblem(endpoint);
  if (problem) throw new UsageError(`--export-otlp ${problem}: write the OTLP/HTTP traces URL, e.g. http://localhost:6006/v1/traces`);
  return endpoint;
}

export function parseCommandLine(argv: string[]): CliCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      model: { type: 'string', multiple: true },
      provider: { type: 'string' },
      concurrency: { type: 'string' },
      'no-cache': { type: 'boolean', default: false },
      batch: { type: 'boolean', default: false },
      refresh: { type: 'boolean', default: false },
      resume: { type: 'string' },
      'retry-errors': { type: 'boolean', default: false },
      'rerun-failed': { type: 'boolean', default: false },
      'no-preflight': { type: 'boolean', default: false },
      out: { type: 'string' },
      format: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      contain: { type: 'boolean', default: false },
      'allow-endpoint': { type: 'string', multiple: true },
      seed: { type: 'string' },
      case: { type: 'string', multiple: true },
      failed: { type: 'boolean', default: false },
      variants: { type: 'string' },
      'max-calls': { type: 'string' },
      plan: { type: 'boolean', default: false },
      'export-otlp': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, target, ...rest] = positionals;
  if (values.help || !command || command === 'help') return { command: 'help' };
  const formats = values.format ? parseFormats(values.format) : [...REPORT_FORMATS];

  switch (command) {
    case 'run': {
      if (!target) throw new UsageError('run needs an eval file: rag-inspector run <file.eval.yaml>');
      if (values.seed !== undefined) throw new UsageError('--seed is for generate-counterfactual; a run takes its seed from the eval file (seed: n)');
      if (values['allow-endpoint'] && !values.contain) throw new UsageError('--allow-endpoint goes with --contain: without it every endpoint the eval file names is used');
      // --rerun-failed takes an optional run: parseArgs cannot, so the run is the positional after the eval file.
      const rerunFailed = values['rerun-failed'] ? (rest[0] ?? 'latest') : undefined;
      if (!values['rerun-failed'] && rest.length > 0) throw new UsageError(`unexpected '${rest[0]}': run takes one eval file`);
      if (values['no-cache'] && values.refresh) throw new UsageError('--no-cache and --refresh contradict each other: --no-cache neither reads nor writes the cache, --refresh skips reads but writes fresh answers');
      if (values['retry-errors'] && values.resume === undefined) throw new UsageError('--retry-errors goes with --resume <run>: it runs again the errored cases of that run (or use --rerun-failed [run] for a new run of failed and errored cases)');
      if (rerunFailed !== undefined && values.resume !== undefined) throw new UsageError('--rerun-failed starts a new run; --resume continues one: use one of them');
      return {
        command: 'run',
        specFile: target,
        models: (values.model ?? []).map((m) => parseModel(m, values.provider)),
        concurrency: values.concurrency === undefined ? undefined : positiveInteger('--concurrency', values.concurrency),
        batch: values.batch ?? false,
        noCache: values['no-cache'] ?? false,
        refresh: values.refresh ?? false,
        resume: values.resume,
        retryErrors: values['retry-errors'] ?? false,
        rerunFailed,
        preflight: !(values['no-preflight'] ?? false),
        out: values.out,
        formats,
        quiet: values.quiet ?? false,
        ...(values.contain ? { contain: { allowEndpoints: values['allow-endpoint'] ?? [] } } : {}),
        exportOtlp: otlpFlag(values['export-otlp']),
      };
    }
    case 'report':
      if (!target) throw new UsageError('report needs a run log: rag-inspector report .rag-inspector/runs/<run-id>.jsonl');
      return { command: 'report', logFile: target, out: values.out, formats, exportOtlp: otlpFlag(values['export-otlp']) };
    case 'runs':
      return { command: 'runs', folder: target ?? '.' };
    case 'generate-counterfactual':
      return generateCounterfactualCommand(target, values);
    case 'explain':
      if (!target) throw new UsageError('explain needs a run: rag-inspector explain latest --failed (or a run log path or run id)');
      return {
        command: 'explain',
        run: target,
        caseIds: values.case ?? [],
        // With no case named, the failed ones: explaining every passing case is rarely what is wanted and costs calls.
        failed: (values.failed ?? false) || (values.case ?? []).length === 0,
        variants: values.variants === undefined ? undefined : parseVariants(values.variants),
        maxCalls: values['max-calls'] === undefined ? undefined : positiveInteger('--max-calls', values['max-calls']),
        planOnly: values.plan ?? false,
        noCache: values['no-cache'] ?? false,
        out: values.out,
        formats,
        quiet: values.quiet ?? false,
      };
    default:
      throw new UsageError(`unknown command '${command}': use run, report, runs, explain, generate-counterfactual or import-traces (rag-inspector --help)`);
  }
}

function generateCounterfactualCommand(
  dataset: string | undefined,
  values: { model?: string[]; provider?: string; out?: string; seed?: string; concurrency?: string; quiet?: boolean },
): GenerateCounterfactualCommand {
  const example = 'rag-inspector generate-counterfactual qa.jsonl --model openai:gpt-4o --out qa.counterfactual.jsonl';
  if (!dataset) throw new UsageError(`generate-counterfactual needs a dataset: ${example}`);
  if (values.model?.length !== 1) throw new UsageError(`generate-counterfactual needs exactly one --model: ${example}`);
  if (!values.out) throw new UsageError(`generate-counterfactual needs --out <file> (a new file you review before use): ${example}`);
  return {
    command: 'generate-counterfactual',
    dataset,
    model: parseModel(values.model[0] as string, values.provider),
    out: values.out,
    seed: values.seed === undefined ? 2333 : wholeNumber('--seed', values.seed),
    concurrency: values.concurrency === undefined ? 4 : positiveInteger('--concurrency', values.concurrency),
    quiet: values.quiet ?? false,
  };
}

function parseVariants(text: string): VariantKind[] {
  const kinds = text.split(',').map((k) => k.trim()).filter(Boolean);
  for (const kind of kinds) {
    if (!(VARIANT_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--variants: unknown variant '${kind}': use ${VARIANT_KINDS.join(', ')} (comma-separated)`);
  }
  if (kinds.length === 0) throw new UsageError(`--variants needs at least one of ${VARIANT_KINDS.join(', ')}`);
  return kinds as VariantKind[];
}

/** "openai:gpt-4o-mini", or "gpt-4o-mini" with --provider openai. */
export function parseModel(text: string, provider: string | undefined): ModelSpec {
  const colon = text.indexOf(':');
  if (colon > 0) return { provider: text.slice(0, colon), model: text.slice(colon + 1), parameters: {} };
  if (provider) return { provider, model: text, parameters: {} };
  throw new UsageError(`--model ${text}: say which provider, as "openai:${text}", or add --provider <name>`);
}

function wholeNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new UsageError(`${flag} must be a whole number, got '${text}'`);
  return value;
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got '${text}'`);
  return value;
}
