// Loads an eval file (`*.eval.yaml`): YAML → schema and semantic checks with file:line errors → EvalSpec with paths resolved and defaults applied.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { validate as generatedValidator } from './evalValidator.generated.js';
import { LineCounter } from 'yaml';
import type { Document } from 'yaml';
import { InputError, InputErrors } from '../errors.js';
import type { TruncatedPolicy } from '../model.js';
import { decodeUtf8 } from '../data/lines.js';
import { boundedYamlValue, parseBoundedYaml } from '../data/boundedYaml.js';
import { formatMegabytes, problemOfError, readRegularFile } from '../regularFile.js';
import { duplicateSuiteIds, exportEndpointProblems, missingFiles, thresholdRanges } from './checks.js';
import { containmentProblems } from './containment.js';
import type { Containment } from './containment.js';
import { endpointProblems } from './endpointChecks.js';
import type { EndpointAllowance } from './endpointChecks.js';
import { methodProblems } from './methodChecks.js';
import { paramProblems } from './paramChecks.js';
import { providerProblems } from './providerChecks.js';
import { DEFAULTS } from './schema.js';
import { schemaErrors } from './schemaErrors.js';
import { DEFAULT_SAMPLE_TEMPERATURE } from '../suites/judgeSamples.js';
import type { JudgeSampling } from '../suites/judgeSamples.js';
import type { EvalSpec, SuiteSpec, ThresholdSpec } from './types.js';
import { YamlLocator } from './yamlPositions.js';
import { retrieverProblems, toRetrieverSpec } from './retrieverSpec.js';
import { sweepProblems, toSweepSpec } from './sweepSpec.js';
import { indexProblems, toIndexSpec } from './indexBlock.js';
import type { ModelSpec } from '../providers/contract.js';

type Raw = Record<string, unknown>;

/** Compiled ahead of time (emitValidator.ts): compiling at start-up was the largest fixed cost of a small run. */
const validator = generatedValidator as unknown as ValidateFunction;

function validate(data: unknown): ValidateFunction['errors'] {
  return validator(data) ? null : validator.errors;
}

export interface LoadOptions {
  /**
   * The host providers this process has (RunOptions.providers: the extension's `vscode-lm`); a model naming another is
   * reported at its line. Unset: every host provider is accepted (the extension reading a file it may run).
   */
  hostProviders?: readonly string[];
  /**
   * Folders every path the file names must stay inside (untrusted workspaces, the CLI's --contain). A path outside
   * is reported alone, before any other check looks at the files it names.
   */
  contain?: Containment;
  /** When set, a `baseUrl` the file writes is refused at its line unless listed (the CLI's --contain). */
  endpoints?: EndpointAllowance;
}

/** Reads, checks and normalises an eval file. Throws InputErrors listing every problem found, each at its line:column. */
export async function loadEvalSpec(file: string, options: LoadOptions = {}): Promise<EvalSpec> {
  const absolute = path.resolve(file);
  const bytes = await readEvalFile(absolute);
  const text = decodeOrThrow(absolute, bytes);
  const lineCounter = new LineCounter();
  const doc = parseEvalYaml(absolute, text, lineCounter);
  const locator = new YamlLocator(absolute, doc, lineCounter);
  const data = parsedData(absolute, doc, lineCounter);
  const refused = [
    ...(options.contain ? await containmentProblems(data, absolute, locator, options.contain) : []),
    ...(options.endpoints ? endpointProblems(data, locator, options.endpoints) : []),
  ];
  if (refused.length > 0) throw new InputErrors(sortByPosition(refused));
  const schemaProblems = schemaErrors(validate(data) ?? [], locator);
  const problems = [
    ...schemaProblems,
    ...duplicateSuiteIds(data, locator),
    ...methodProblems(data, locator),
    ...thresholdRanges(data, locator),
    ...exportEndpointProblems(data, locator),
    ...retrieverProblems(data, locator),
    ...sweepProblems(data, locator),
    ...indexProblems(data, locator, toModelSpec),
    ...providerProblems(data, locator, options.hostProviders),
    ...paramProblems(data, absolute, locator),
    ...(await missingFiles(data, path.dirname(absolute), locator)),
  ];
  if (problems.length > 0) throw new InputErrors(sortByPosition(problems));
  return toEvalSpec(absolute, sha256(bytes), data);
}

/** Far above any real eval file; a file linked to /dev/zero or a log renamed .eval.yaml is refused before it is read. */
export const MAX_EVAL_FILE_BYTES = 4 * 1024 * 1024;

async function readEvalFile(file: string): Promise<Buffer> {
  try {
    return await readRegularFile(file, MAX_EVAL_FILE_BYTES);
  } catch (error) {
    const problem = problemOfError(file, error);
    if (problem.kind === 'missing') {
      throw new InputErrors([new InputError({ file }, 'eval file not found', 'check the path, or create it with "RAG Inspector: Run Evaluation" and save the choices')]);
    }
    const hint = problem.kind === 'too-large'
      ? `an eval file names its datasets and templates; keep it under ${formatMegabytes(MAX_EVAL_FILE_BYTES)}`
      : 'point the command at a *.eval.yaml file';
    throw new InputErrors([new InputError({ file }, `the eval file ${problem.says}`, hint)]);
  }
}

/** The YAML document, or InputErrors when it nests too deep (every other YAML problem is reported by parsedData). */
function parseEvalYaml(file: string, text: string, lineCounter: LineCounter): Document.Parsed {
  try {
    return parseBoundedYaml(text, lineCounter, (offset) => yamlPosition(file, lineCounter, offset));
  } catch (error) {
    if (error instanceof InputError) throw new InputErrors([error]);
    throw error;
  }
}

function yamlPosition(file: string, lineCounter: LineCounter, offset: number): { file: string; line: number; column: number } {
  const { line, col } = lineCounter.linePos(offset);
  return { file, line, column: col };
}

function decodeOrThrow(file: string, bytes: Buffer): string {
  try {
    return decodeUtf8(file, bytes);
  } catch (error) {
    throw new InputErrors([error as InputError]);
  }
}

/** The document as plain data, or InputErrors for YAML syntax problems (nothing else is checked then). */
function parsedData(file: string, doc: Document, lineCounter: LineCounter): Raw {
  if (doc.errors.length > 0) {
    throw new InputErrors(doc.errors.map((error) => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      return new InputError({ file, line, column: col }, `invalid YAML: ${error.message}`, 'check the indentation and quoting on this line');
    }));
  }
  let data: unknown;
  try {
    data = boundedYamlValue(doc, (offset) => yamlPosition(file, lineCounter, offset));
  } catch (error) {
    if (error instanceof InputError) throw new InputErrors([error]);
    throw error;
  }
  if (data === null || data === undefined) {
    throw new InputErrors([new InputError({ file, line: 1, column: 1 }, 'the eval file is empty', 'start with "version: 1", models and suites')]);
  }
  return data as Raw;
}

function toEvalSpec(file: string, hash: string, data: Raw): EvalSpec {
  const folder = path.dirname(file);
  const resolve = (value: unknown) => (typeof value === 'string' ? path.resolve(folder, value) : undefined);
  return {
    version: 1,
    file,
    hash,
    name: typeof data.name === 'string' ? data.name : defaultName(file),
    description: data.description as string | undefined,
    models: (data.models as unknown[]).map(toModelSpec),
    judge: data.judge === undefined ? undefined : toModelSpec(data.judge),
    ...judgeSamplingOf(data.judgeSamples),
    embeddings: data.embeddings === undefined ? undefined : toModelSpec(data.embeddings),
    suites: (data.suites as Raw[]).map((suite) => ({
      ...toSuiteSpec(suite, resolve(suite.dataset ?? data.dataset), resolve(suite.template ?? data.template)),
      ...(suite.dataset === undefined && data.dataset !== undefined ? { datasetFromDefault: true } : {}),
    })),
    concurrency: (data.concurrency as number | undefined) ?? DEFAULTS.concurrency,
    rateLimit: (data.rateLimit as EvalSpec['rateLimit'] | undefined) ?? {},
    timeoutMs: (data.timeoutMs as number | undefined) ?? DEFAULTS.timeoutMs,
    maxRetries: (data.maxRetries as number | undefined) ?? DEFAULTS.maxRetries,
    seed: (data.seed as number | undefined) ?? DEFAULTS.seed,
    prices: (data.prices as EvalSpec['prices'] | undefined) ?? {},
    ...(data.explain === undefined ? {} : { explain: { failed: false, ...(data.explain as Partial<EvalSpec['explain']>) } }),
    ...(data.export === undefined ? {} : { export: toExportSpec(data.export as Raw) }),
    ...(data.retriever === undefined ? {} : { retriever: toRetrieverSpec(data.retriever, folder) }),
    ...(data.sweep === undefined ? {} : { sweep: toSweepSpec(data.sweep, toModelSpec) }),
    ...(data.index === undefined ? {} : { index: toIndexSpec(data.index, folder, toModelSpec) }),
  };
}

/** The schema has checked the shape: a number, or { k, temperature? }. */
function judgeSamplingOf(raw: unknown): { judgeSamples?: JudgeSampling } {
  if (raw === undefined) return {};
  const object = typeof raw === 'number' ? { k: raw } : (raw as { k: number; temperature?: number });
  return { judgeSamples: { k: object.k, temperature: object.temperature ?? DEFAULT_SAMPLE_TEMPERATURE } };
}

function toExportSpec(raw: Raw): NonNullable<EvalSpec['export']> {
  const otlp = raw.otlp as Raw | undefined;
  if (!otlp) return {};
  return { otlp: withoutUndefined({ endpoint: otlp.endpoint as string, headers: (otlp.headers as Record<string, { env: string; prefix?: string }> | undefined) ?? {}, batchSize: otlp.batchSize as number | undefined }) };
}

/** "provider:model" (split at the first colon: "openai-compatible:llama3:8b") or the mapping form. */
export function toModelSpec(raw: unknown): ModelSpec {
  if (typeof raw === 'string') {
    const colon = raw.indexOf(':');
    return { provider: raw.slice(0, colon), model: raw.slice(colon + 1), parameters: {} };
  }
  const { provider, model, label, baseUrl, apiKeyEnv, parameters, batch, truncated } = raw as Raw;
  return withoutUndefined({
    provider: provider as string,
    model: model as string,
    label: label as string | undefined,
    baseUrl: baseUrl as string | undefined,
    apiKeyEnv: apiKeyEnv as string | undefined,
    parameters: (parameters as Record<string, unknown> | undefined) ?? {},
    batch: batch as boolean | undefined,
    truncated: truncated as TruncatedPolicy | undefined,
  });
}

function toSuiteSpec(suite: Raw, dataset: string | undefined, template: string | undefined): SuiteSpec {
  const thresholds = Object.entries((suite.thresholds as Record<string, { min?: number; max?: number }> | undefined) ?? {}).map(
    ([metric, bounds]): ThresholdSpec => withoutUndefined({ metric, min: bounds.min, max: bounds.max }),
  );
  return withoutUndefined({
    id: suite.id as string,
    method: suite.method as string,
    dataset,
    template,
    params: (suite.params as Record<string, unknown> | undefined) ?? {},
    thresholds,
    limit: suite.limit as number | undefined,
    humanLabels: suite.humanLabels as string | undefined,
  });
}

/** "rgb-example.eval.yaml" → "rgb-example". */
function defaultName(file: string): string {
  return path.basename(file).replace(/(\.eval)?\.ya?ml$/i, '');
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function sortByPosition(errors: InputError[]): InputError[] {
  return [...errors].sort((a, b) => (a.position.line ?? 0) - (b.position.line ?? 0) || (a.position.column ?? 0) - (b.position.column ?? 0));
}

/** Optional fields left out rather than set to undefined, so specs compare and serialise cleanly. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
