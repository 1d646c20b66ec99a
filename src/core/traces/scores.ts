// Scores recorded on a span, by name: the OpenInference feedback attributes (`evaluations.{i}.evaluation.name` /
// `.score`, the same under `annotations.{i}.annotation.*`, and both at trace scope: `trace.evaluations.{i}…`), or span events carrying `evaluation.name` and
// `evaluation.score` (what our own exporter writes next to the attributes, for tools that show events).
import { SC } from './conventions.js';
import type { AttributeValue } from './span.js';

const FEEDBACK = [
  { list: SC.EVALUATIONS, name: SC.EVALUATION_NAME, score: SC.EVALUATION_SCORE },
  { list: SC.TRACE_EVALUATIONS, name: SC.EVALUATION_NAME, score: SC.EVALUATION_SCORE },
  { list: SC.ANNOTATIONS, name: SC.ANNOTATION_NAME, score: SC.ANNOTATION_SCORE },
  { list: SC.TRACE_ANNOTATIONS, name: SC.ANNOTATION_NAME, score: SC.ANNOTATION_SCORE },
] as const;

export function scoresFromAttributes(attributes: Record<string, AttributeValue>): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const feedback of FEEDBACK) {
    for (let i = 0; ; i++) {
      const name = attributes[`${feedback.list}.${i}.${feedback.name}`];
      if (name === undefined) break;
      const score = numeric(attributes[`${feedback.list}.${i}.${feedback.score}`]);
      if (typeof name === 'string' && score !== undefined) scores[name] = score;
    }
  }
  return scores;
}

export function scoresFromEvents(events: { name: unknown; attributes: Record<string, AttributeValue> }[]): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const event of events) {
    for (const feedback of FEEDBACK) {
      const name = event.attributes[feedback.name];
      const score = numeric(event.attributes[feedback.score]);
      if (typeof name === 'string' && score !== undefined) scores[name] = score;
    }
  }
  return scores;
}

export function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}
