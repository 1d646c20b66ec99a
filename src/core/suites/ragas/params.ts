// RAGAS suite parameters: which metrics, and the reference-vs-fixed choices each metric offers, validated with messages that name the key.
import { paramPath, paramValueError, unknownParamError } from '../paramError.js';

/** The metrics as the report names them. Noise sensitivity has one name per mode (lower is better for both). */
export const RAGAS_METRICS = [
  'faithfulness',
  'answer_relevancy',
  'context_precision',
  'context_utilization',
  'context_recall',
  'context_relevance',
  'noise_sensitivity_relevant',
  'noise_sensitivity_irrelevant',
] as const;
export type RagasMetric = (typeof RAGAS_METRICS)[number];

/** What `metrics:` may list: the names above, or `noise_sensitivity` for the mode set in `noiseSensitivity.mode`. */
const METRIC_ALIASES = [...RAGAS_METRICS, 'noise_sensitivity'] as const;

export const NONCOMMITTAL_RULES = ['all', 'any'] as const;
export type NoncommittalRule = (typeof NONCOMMITTAL_RULES)[number];

export const NOISE_MODES = ['relevant', 'irrelevant'] as const;
export type NoiseMode = (typeof NOISE_MODES)[number];

export interface AnswerRelevancyParams {
  /** Questions generated per answer (ragas `strictness`). */
  strictness: number;
  /** 'all' = ragas after PR #2327 (the score is 0 only when every generation is noncommittal); 'any' = earlier releases. */
  noncommittal: NoncommittalRule;
  /** Sampling temperature of the question generations; near 0 they come out identical and strictness buys nothing. */
  temperature: number;
}

export interface RagasParams {
  /** Metrics to run; undefined = every metric the row's fields allow. */
  metrics: RagasMetric[] | undefined;
  answerRelevancy: AnswerRelevancyParams;
  /** exact: false = the reference's `Σ v + 1e-10` denominator (a perfect ranking scores 0.9999999999); true = the fix. */
  contextPrecision: { exact: boolean };
  /** The mode `noise_sensitivity` (and the default metric list) stands for. */
  noiseSensitivity: { mode: NoiseMode };
}

/**
 * 0.3 is what ragas' own LLM wrapper used whenever it asked for several generations (`get_temperature(n > 1)`);
 * the current reference leaves the generations at the judge's default temperature.
 */
export const DEFAULT_ANSWER_RELEVANCY: AnswerRelevancyParams = { strictness: 3, noncommittal: 'all', temperature: 0.3 };

const KNOWN_KEYS = ['metrics', 'answerRelevancy', 'contextPrecision', 'noiseSensitivity'];

type Where = { file: string };

function fail(where: Where, key: string, message: string, hint: string): never {
  throw paramValueError(where.file, 'ragas', key, message, hint);
}

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function mapping(value: unknown, key: string, where: Where, example: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, key, `expected a mapping, got ${describe(value)}`, `e.g. ${example}`);
  return value as Record<string, unknown>;
}

function rejectUnknown(raw: Record<string, unknown>, known: readonly string[], prefix: string, where: Where): void {
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) throw unknownParamError(where.file, 'ragas', [...paramPath(prefix.replace(/\.$/, '')), key], known, 'unknown parameter', `use ${known.join(', ')}`);
  }
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], key: string, fallback: T, where: Where): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) fail(where, key, `expected one of ${allowed.join(', ')}, got ${describe(value)}`, `e.g. ${key.split('.').pop()}: ${fallback}`);
  return value as T;
}

function parseMetrics(value: unknown, mode: NoiseMode, where: Where): RagasMetric[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) fail(where, 'metrics', `expected a non-empty list, got ${describe(value)}`, `choose from ${METRIC_ALIASES.join(', ')}`);
  const metrics: RagasMetric[] = [];
  value.forEach((item, i) => {
    if (!METRIC_ALIASES.includes(item as (typeof METRIC_ALIASES)[number])) {
      fail(where, `metrics[${i}]`, `unknown metric ${describe(item)}`, `choose from ${METRIC_ALIASES.join(', ')}`);
    }
    const metric = item === 'noise_sensitivity' ? (`noise_sensitivity_${mode}` as RagasMetric) : (item as RagasMetric);
    if (metrics.includes(metric)) fail(where, `metrics[${i}]`, `${metric} is listed twice`, 'list each metric once');
    metrics.push(metric);
  });
  return metrics;
}

function parseAnswerRelevancy(value: unknown, where: Where): AnswerRelevancyParams {
  const raw = mapping(value, 'answerRelevancy', where, 'answerRelevancy: { strictness: 3, noncommittal: all }');
  rejectUnknown(raw, ['strictness', 'noncommittal', 'temperature'], 'answerRelevancy.', where);
  const strictness = raw.strictness ?? DEFAULT_ANSWER_RELEVANCY.strictness;
  if (typeof strictness !== 'number' || !Number.isInteger(strictness) || strictness < 1 || strictness > 10) {
    fail(where, 'answerRelevancy.strictness', `expected a whole number from 1 to 10, got ${describe(strictness)}`, 'ragas uses 3 questions per answer');
  }
  const temperature = raw.temperature ?? DEFAULT_ANSWER_RELEVANCY.temperature;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
    fail(where, 'answerRelevancy.temperature', `expected a number from 0 to 2, got ${describe(temperature)}`, 'e.g. temperature: 0.3 (at 0 the generations repeat each other)');
  }
  return {
    strictness,
    noncommittal: oneOf(raw.noncommittal, NONCOMMITTAL_RULES, 'answerRelevancy.noncommittal', DEFAULT_ANSWER_RELEVANCY.noncommittal, where),
    temperature,
  };
}

function parseBoolean(value: unknown, key: string, fallback: boolean, where: Where): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(where, key, `expected true or false, got ${describe(value)}`, `write ${key.split('.').pop()}: true or false`);
  return value;
}

export function parseRagasParams(raw: unknown, where: Where): RagasParams {
  const object = mapping(raw ?? undefined, '(root)', where, 'params: { metrics: [faithfulness, context_recall] }');
  rejectUnknown(object, KNOWN_KEYS, '', where);
  const precision = mapping(object.contextPrecision, 'contextPrecision', where, 'contextPrecision: { exact: true }');
  rejectUnknown(precision, ['exact'], 'contextPrecision.', where);
  const noise = mapping(object.noiseSensitivity, 'noiseSensitivity', where, 'noiseSensitivity: { mode: irrelevant }');
  rejectUnknown(noise, ['mode'], 'noiseSensitivity.', where);
  const mode = oneOf(noise.mode, NOISE_MODES, 'noiseSensitivity.mode', 'relevant', where);
  return {
    metrics: parseMetrics(object.metrics, mode, where),
    answerRelevancy: parseAnswerRelevancy(object.answerRelevancy, where),
    contextPrecision: { exact: parseBoolean(precision.exact, 'contextPrecision.exact', false, where) },
    noiseSensitivity: { mode },
  };
}
