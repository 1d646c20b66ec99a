// RAGAS suite parameters: which metrics, and the reference-vs-fixed choices each metric offers, validated with messages that name the key.
import { choice, decimal, flag, items, list, mapping, paramsReader, readParams, section, whole } from '../paramSchema.js';
import type { ParamsOf } from '../paramSchema.js';

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

/**
 * 0.3 is what ragas' own LLM wrapper used whenever it asked for several generations (`get_temperature(n > 1)`);
 * the current reference leaves the generations at the judge's default temperature.
 */
export const DEFAULT_ANSWER_RELEVANCY = { strictness: 3, noncommittal: 'all' as NoncommittalRule, temperature: 0.3 };

const metricHint = `choose from ${METRIC_ALIASES.join(', ')}`;

const answerRelevancy = section({
  strictness: whole({ min: 1, max: 10, default: DEFAULT_ANSWER_RELEVANCY.strictness, hint: 'ragas uses 3 questions per answer', description: 'Questions generated per answer (ragas strictness).' }),
  noncommittal: choice(NONCOMMITTAL_RULES, { default: DEFAULT_ANSWER_RELEVANCY.noncommittal, hint: 'e.g. noncommittal: all', description: 'all: the score is 0 only when every generation is noncommittal (ragas after PR #2327); any: when one is (earlier releases).' }),
  temperature: decimal({ min: 0, max: 2, default: DEFAULT_ANSWER_RELEVANCY.temperature, hint: 'e.g. temperature: 0.3 (at 0 the generations repeat each other)', description: 'Sampling temperature of the question generations; near 0 they come out identical and strictness buys nothing.' }),
}, { description: 'Answer relevancy\'s settings.', example: 'answerRelevancy: { strictness: 3, noncommittal: all }' });

const shape = {
  metrics: list(items.choice(METRIC_ALIASES, { noun: 'metric', hint: metricHint }), { example: metricHint, description: 'Metrics to run (noise_sensitivity stands for the mode in noiseSensitivity.mode); every metric the row\'s fields allow by default.' }),
  answerRelevancy,
  contextPrecision: section({
    exact: flag({ default: false, hint: 'write exact: true or false', description: 'false: the reference\'s Σ v + 1e-10 denominator (a perfect ranking scores 0.9999999999); true: the exact value.' }),
  }, { description: 'Context precision\'s settings.', example: 'contextPrecision: { exact: true }' }),
  noiseSensitivity: section({
    mode: choice(NOISE_MODES, { default: 'relevant', hint: 'e.g. mode: relevant', description: 'The mode noise_sensitivity (and the default metric list) stands for.' }),
  }, { description: 'Noise sensitivity\'s settings.', example: 'noiseSensitivity: { mode: irrelevant }' }),
};

/** RAGAS's params as the eval file writes them. */
export const ragasParamsSchema = mapping(shape, { example: 'params: { metrics: [faithfulness, context_recall] }' });

export type AnswerRelevancyParams = ParamsOf<typeof answerRelevancy>;

export type RagasParams = Omit<ParamsOf<typeof ragasParamsSchema>, 'metrics'> & {
  /** Metrics to run; undefined = every metric the row's fields allow. */
  metrics: RagasMetric[] | undefined;
};

export function parseRagasParams(raw: unknown, where: { file: string }): RagasParams {
  const read = readParams(ragasParamsSchema, raw, where.file, 'ragas');
  const mode = read.noiseSensitivity.mode;
  const metrics: RagasMetric[] = [];
  read.metrics?.forEach((item, i) => {
    const metric = item === 'noise_sensitivity' ? (`noise_sensitivity_${mode}` as const) : item;
    if (metrics.includes(metric)) paramsReader(where.file, 'ragas').fail(`metrics[${i}]`, `${metric} is listed twice`, 'list each metric once');
    metrics.push(metric);
  });
  return { ...read, metrics: read.metrics && metrics };
}
