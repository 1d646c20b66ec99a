// Which interactions become rows: a time range, span / scope / resource attributes, a score below a threshold, and a seeded sample.
import { mulberry32, sample } from '../random.js';
import { SC } from './conventions.js';
import type { Interaction } from './interactions.js';

export interface TraceFilters {
  /** Unix ms; the trace's first span must start at or after it. */
  since?: number;
  /** Unix ms; the trace's first span must start before it. */
  until?: number;
  /**
   * Every condition must hold on some span of the trace: the attribute, read as text, equals the value. The span's
   * own attributes are read first, then its instrumentation scope's, then its resource's (service.name,
   * deployment.environment), so standard OTLP files filter by where they came from.
   */
  where: { key: string; value: string }[];
  /** Keep only traces whose score `name` is below `threshold` (traces without that score are left out). */
  scoreBelow?: { name: string; threshold: number };
  /** At most this many rows, drawn with `seed` so the same files and seed give the same rows. */
  sample?: number;
  seed: number;
}

/**
 * The score name that stands for retrieval quality: the best passage's `document.score`, so "the retriever's top hit
 * scored below 0.5" picks the interactions where retrieval was weak.
 */
export const RETRIEVAL_SCORE = SC.DOCUMENT_SCORE;

export function applyFilters(interactions: readonly Interaction[], filters: TraceFilters): Interaction[] {
  const kept = interactions.filter((interaction) => inTimeRange(interaction, filters) && matchesWhere(interaction, filters) && scoreBelow(interaction, filters));
  if (filters.sample === undefined || filters.sample >= kept.length) return kept;
  // Sample, then put the picked rows back in trace order so the output reads like the input.
  const picked = new Set(sample(kept, filters.sample, mulberry32(filters.seed)));
  return kept.filter((interaction) => picked.has(interaction));
}

function inTimeRange(interaction: Interaction, filters: TraceFilters): boolean {
  if (filters.since === undefined && filters.until === undefined) return true;
  const start = interaction.startMs;
  if (start === undefined) return false;
  return (filters.since === undefined || start >= filters.since) && (filters.until === undefined || start < filters.until);
}

/** A condition holds on a span when its own attribute, else its scope's, else its resource's has the value. */
function matchesWhere(interaction: Interaction, filters: TraceFilters): boolean {
  return filters.where.every(({ key, value }) => interaction.spans.some((span) => {
    const attribute = span.attributes[key] ?? span.scopeAttributes?.[key] ?? span.resourceAttributes?.[key];
    if (attribute === undefined || attribute === null) return false;
    return (typeof attribute === 'string' ? attribute : JSON.stringify(attribute)) === value;
  }));
}

function scoreBelow(interaction: Interaction, filters: TraceFilters): boolean {
  if (!filters.scoreBelow) return true;
  const { name, threshold } = filters.scoreBelow;
  const score = name === RETRIEVAL_SCORE ? bestPassageScore(interaction) : interaction.scores[name];
  return score !== undefined && score < threshold;
}

function bestPassageScore(interaction: Interaction): number | undefined {
  const scores = interaction.passages.flatMap((p) => (p.score === undefined ? [] : [p.score]));
  return scores.length ? Math.max(...scores) : undefined;
}
