// The LLM-Eval score schema: the format-instruction schema text the reference shows the judge, and the JSON schema its answer is checked against.
import type { Dimension, Scale } from './params.js';

export interface ScaleConfig {
  min: number;
  max: number;
  /** The bounds as the reference prints them (Python floats for 0–5: "0.0", "5.0"). */
  minText: string;
  maxText: string;
  /** JSON-schema type of each score: float fields for 0–5, int fields for 0–100 (reference `score_config`). */
  type: 'number' | 'integer';
}

export const SCALE_CONFIG: Readonly<Record<Scale, ScaleConfig>> = {
  '0-5': { min: 0, max: 5, minText: '0.0', maxText: '5.0', type: 'number' },
  '0-100': { min: 0, max: 100, minText: '0', maxText: '100', type: 'integer' },
};

/** Python's str.title() on a pydantic v1 field name: underscores become spaces, each word capitalised. */
export function pydanticTitle(name: string): string {
  return name.replaceAll('_', ' ').replace(/\p{L}+/gu, (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
}

/** "{dimension} score in the range of {min} to {max}" (reference `generate_score_model`), then the user's gloss if any. */
export function dimensionDescription(dimension: Dimension, scale: ScaleConfig): string {
  const base = `${dimension.name} score in the range of ${scale.minText} to ${scale.maxText}`;
  return dimension.description === undefined ? base : `${base}: ${dimension.description}`;
}

/**
 * Python's json.dumps with its defaults: ", " and ": " separators and non-ASCII escaped as \uXXXX, so the schema
 * text in the prompt is byte for byte what langchain's PydanticOutputParser put there.
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`).join(', ')}}`;
  }
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return JSON.stringify(value);
}

/** The schema as the format instructions show it: pydantic's model schema without its top-level title and type. */
export function formatInstructionSchema(dimensions: readonly Dimension[], scale: ScaleConfig): string {
  const properties = Object.fromEntries(dimensions.map((d) => [d.name, { title: pydanticTitle(d.name), description: dimensionDescription(d, scale), type: scale.type }]));
  return pythonJsonDumps({ properties, required: dimensions.map((d) => d.name) });
}

/** The JSON schema the judge's answer must satisfy (and the provider's structured output): one required score per dimension. */
export function answerSchema(dimensions: readonly Dimension[], scale: ScaleConfig): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(dimensions.map((d) => [d.name, { type: scale.type, description: dimensionDescription(d, scale) }])),
    required: dimensions.map((d) => d.name),
    additionalProperties: false,
  };
}
