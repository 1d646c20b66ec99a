// Parses the command line into a typed request, with messages that say how to fix a wrong flag.
import { parseArgs } from 'node:util';
import { REPORT_FORMATS, parseFormats } from '../core/report/writeReports.js';
import { EXPLAIN_OPTIONS, IMPORT_TRACES_FILTERS, RUN_OPTIONS } from './commandHelp.js';
import type { ReportFormat } from '../core/report/writeReports.js';
import type { ModelSpec } from '../core/providers/contract.js';
import { VARIANT_KINDS } from '../core/explain/model.js';
import type { VariantKind } from '../core/explain/model.js';
import { MAX_CONCURRENCY } from '../core/spec/schema.js';
import { otlpEndpointProblem } from '../core/traces/otlpExport.js';

export const USAGE = `Usage:
  rag-inspector run <file.eval.yaml> [options]    run an evaluation and write its reports
  rag-inspector report <run-log.jsonl> [options]  write reports again from a finished run log
  rag-inspector runs [folder]                     list the runs under <folder>/.rag-inspector/runs
  rag-inspector log <run|latest> [--case ID]… [--failed]
                                                  print each case as it was sent and scored, one JSON line per case
  rag-inspector compare <run-a> <run-b> [--level p]
                                                  whether the change from run-a to run-b helped: the paired verdict
  rag-inspector explain <run-log|run-id|latest> [--case ID]… [--failed] [--variants loo,subsets,position,instruction]
                        [--max-calls N] [--plan]  say which document, position or instruction made each case come out as it did
  rag-inspector generate-counterfactual <dataset> --model <provider:model> --out <file> [--seed n]
                                                  write IF-RAG counterfactual data with a model, for review
  rag-inspector generate-questions <file.eval.yaml> --out <questions.jsonl> [--count n] [--kinds k,…] [--plan]
                                                  test questions from the eval file's index: corpus, with provenance
  rag-inspector import-traces <file|folder> --out <dataset.jsonl> [--since t] [--until t] [--where k=v]
                [--score-below name=x] [--sample n --seed n]
                                                  turn OTLP JSON, Phoenix or Langfuse trace exports into dataset rows
  rag-inspector sweep <eval file> [--out folder] [--metric ndcg]
                                                  retrieval metrics for every cell of the file's sweep: grid, best cell
  rag-inspector mcp [--max-cost usd] [--contain]   serve these tools to an editor's agent over MCP (stdio)
  rag-inspector index <file.eval.yaml> [--no-cache] [--quiet] [--contain]
                                                  build or update the eval file's index: (chunks, embeddings, store)

Options for run:
${RUN_OPTIONS}

Options for explain:
${EXPLAIN_OPTIONS}

Filters for import-traces: ${IMPORT_TRACES_FILTERS}

Each command's own help, with an example: rag-inspector <command> --help.
Keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY; OPENAI_BASE_URL points the openai provider at any
OpenAI-compatible server. Exit codes: 0 thresholds pass, 1 a threshold failed, 2 an error.
generate-counterfactual exits 0 when every row got counterfactual data, 1 when some rows failed (listed, file
still written), 2 on an error.`;

export interface RunCommand {
  command: 'run';
  specFile: string;
  models: ModelSpec[];
  concurrency?: number;
  /** true: every model and the judge in batch mode (--batch); false: none (--no-batch); unset: the eval file's choice, or the resumed run's. */
  batch?: boolean;
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
  /** --baseline: a run log path, a run id, or "latest", compared with this run pair by pair. */
  baseline?: string;
  /** --fail-on regression: exit 1 on a significant regression against the baseline. */
  failOnRegression: boolean;
  /** --level: the significance level of the baseline verdicts. */
  level: number;
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
      'no-batch': { type: 'boolean', default: false },
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
      baseline: { type: 'string' },
      'fail-on': { type: 'string' },
      level: { type: 'string' },
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
      if (values.batch && values['no-batch']) throw new UsageError('--batch and --no-batch contradict each other: use one of them');
      if (rerunFailed !== undefined && values.resume !== undefined) throw new UsageError('--rerun-failed starts a new run; --resume continues one: use one of them');
      if (values['fail-on'] !== undefined && values['fail-on'] !== 'regression') throw new UsageError(`--fail-on: unknown condition '${values['fail-on']}': use --fail-on regression`);
      if (values['fail-on'] !== undefined && values.baseline === undefined) throw new UsageError('--fail-on regression needs --baseline <run>: the run to compare with (a run log path, a run id)');
      if (values.level !== undefined && values.baseline === undefined) throw new UsageError('--level goes with --baseline <run>: it is the significance level of the comparison');
      return {
        command: 'run',
        specFile: target,
        models: (values.model ?? []).map((m) => parseModel(m, values.provider)),
        concurrency: values.concurrency === undefined ? undefined : concurrencyOption(values.concurrency),
        ...(values.batch ? { batch: true } : values['no-batch'] ? { batch: false } : {}),
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
        baseline: values.baseline,
        failOnRegression: values['fail-on'] === 'regression',
        level: levelOf(values.level),
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
      throw new UsageError(`unknown command '${command}': use run, report, runs, compare, explain, generate-counterfactual, generate-questions, import-traces, index, sweep or mcp (rag-inspector --help)`);
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
    concurrency: values.concurrency === undefined ? 4 : concurrencyOption(values.concurrency),
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

/** --level: a probability strictly between 0 and 1; 0.05 when not given. */
export function levelOf(text: string | undefined): number {
  if (text === undefined) return 0.05;
  const level = Number(text);
  if (!(level > 0 && level < 1)) throw new UsageError(`--level must be a probability between 0 and 1, e.g. 0.05; got '${text}'`);
  return level;
}

function wholeNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new UsageError(`${flag} must be a whole number, got '${text}'`);
  return value;
}

/** Calls in flight per model: refused above MAX_CONCURRENCY here, before anything is loaded or paid for. */
function concurrencyOption(text: string): number {
  const value = positiveInteger('--concurrency', text);
  if (value > MAX_CONCURRENCY) throw new UsageError(`--concurrency must be at most ${MAX_CONCURRENCY} calls in flight per model, got '${text}'`);
  return value;
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got '${text}'`);
  return value;
}
