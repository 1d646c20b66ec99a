// LLM-Eval suite parameters: the user's score schema (dimensions), the scale, reference use and level, validated with messages that name the key.
import { choice, flag, items, list, mapping, paramsReader, readParams, required, text } from '../paramSchema.js';
import type { ParamsOf, ParamsReader } from '../paramSchema.js';

export interface Dimension {
  /** A JSON property name: the key the judge answers under and the metric name in reports. */
  name: string;
  /** Optional gloss shown to the judge after the reference's "{name} score in the range of …". */
  description?: string;
}

export const SCALES = ['0-5', '0-100'] as const;
export type Scale = (typeof SCALES)[number];

export const LEVELS = ['response', 'dialogue'] as const;
export type Level = (typeof LEVELS)[number];

/**
 * How the judge's reply is read. 'reference' (default): as MiuLab/LLM-Eval does — no structured output, one call,
 * the JSON found in the prose, extra keys ignored, strings coerced, int() on the 0–100 scale. 'strict': the answer
 * must be JSON matching the schema (sent as structured output), with one repair retry.
 */
export const PARSERS = ['reference', 'strict'] as const;
export type Parser = (typeof PARSERS)[number];

/** The paper's four dimensions (Lin & Chen 2023, Table 1). */
export const PAPER_DIMENSIONS: readonly Dimension[] = [
  { name: 'content' },
  { name: 'grammar' },
  { name: 'relevance' },
  { name: 'appropriateness' },
];

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const quoted = (values: readonly string[]) => `one of ${values.map((value) => `'${value}'`).join(', ')}`;
const dimensionHint = 'e.g. - { name: groundedness, description: every claim is supported by the context }';

const shape = {
  dimensions: list(items.either([
    items.text(dimensionHint),
    mapping({
      name: required(items.text('the judge answers under this JSON key, e.g. groundedness'), 'A JSON property name: the key the judge answers under and the metric name in reports.'),
      description: text({ hint: 'or leave description out', description: 'Shown to the judge after the reference\'s "{name} score in the range of …".' }),
    }, { example: dimensionHint, problem: 'unknown key', hint: 'a dimension has name and description' }),
  ], { expected: 'a name or { name, description }', hint: dimensionHint }), {
    example: 'e.g. dimensions: [groundedness, completeness, citation]',
    description: 'The scores the judge gives, each a name or { name, description }; the paper\'s content, grammar, relevance and appropriateness by default.',
  }),
  scale: choice(SCALES, { default: '0-5', expected: quoted(SCALES), hint: "e.g. scale: '0-5'", description: 'The score range: 0-5 or 0-100, as the paper.' }),
  withReference: flag({ default: false, hint: 'true shows the judge each row\'s reference response', description: 'Show the judge the row\'s reference response (the paper\'s "with human reference" setting).' }),
  level: choice(LEVELS, { default: 'response', expected: quoted(LEVELS), hint: "e.g. level: 'response'", description: 'response: score one response in its context; dialogue: score a whole dialogue (the row\'s dialog).' }),
  parser: choice(PARSERS, {
    default: 'reference',
    expected: quoted(PARSERS),
    hint: "e.g. parser: 'reference'",
    description: 'How the judge\'s reply is read. reference (default): as MiuLab/LLM-Eval reads it — the JSON object inside any prose, extra keys ignored, numbers given as strings accepted, non-integer scores on 0–100 truncated by int(); one call, no structured output. strict: the reply must be JSON matching the schema (sent as structured output), one repair retry. What the reference parser tolerated is recorded on each case.',
  }),
};

/** LLM-Eval's params as the eval file writes them. */
export const llmEvalParamsSchema = mapping(shape, { example: "params: { scale: '0-5' }", hint: `LLM-Eval accepts ${Object.keys(shape).join(', ')}` });

export type LlmEvalParams = Omit<ParamsOf<typeof llmEvalParamsSchema>, 'dimensions'> & { dimensions: Dimension[] };

function dimensions(given: ParamsOf<typeof llmEvalParamsSchema>['dimensions'], reader: ParamsReader): Dimension[] {
  if (given === undefined) return PAPER_DIMENSIONS.map((d) => ({ ...d }));
  const seen = new Set<string>();
  return given.map((item, i) => {
    const dimension: Dimension = typeof item === 'string' ? { name: item } : item.description === undefined ? { name: item.name } : { name: item.name, description: item.description };
    if (!NAME.test(dimension.name)) reader.fail(`dimensions[${i}].name`, `expected a name of letters, digits and _, got ${JSON.stringify(dimension.name)}`, 'the judge answers under this JSON key, e.g. groundedness');
    if (seen.has(dimension.name)) reader.fail(`dimensions[${i}].name`, `${dimension.name} is listed twice`, 'each dimension is one score; list it once');
    seen.add(dimension.name);
    return dimension;
  });
}

export function parseLlmEvalParams(raw: unknown, where: { file: string }): LlmEvalParams {
  const read = readParams(llmEvalParamsSchema, raw, where.file, 'llm-eval');
  const reader = paramsReader(where.file, 'llm-eval');
  if (read.level === 'dialogue' && read.withReference) reader.fail('withReference', 'the dialogue-level prompt has no reference', 'remove withReference or use level: response');
  return { ...read, dimensions: dimensions(read.dimensions, reader) };
}
