// The one cause of a failed rag case from Explain's evidence about what the model did with the passages it was sent:
// moved first it passes (position), another passage misled it (distracted), it ignored the relevant one
// (retrieved-not-used), or it had and used the relevant one and still failed (generation). Effects and thresholds are
// Explain's own (attribute.ts, outcome.ts): this only reads them.
//
// Precedence: position > distracted > retrieved-not-used > generation, and a cause is concluded only when its own
// evidence holds and every cause above it has been ruled out by evidence; otherwise the cause is undetermined and the
// words name the variants missing. Why this order:
// - position first: it is the one intervention that keeps every passage and changes only the order, and a relevant
//   passage the model skips in the middle shows as inert (or another passage as harming) without being either;
// - distracted before retrieved-not-used: when another passage misleads the model, the relevant one goes unused
//   because of it, so the harmful passage is the cause to act on;
// - generation last: "the model had what it needed and used it" is what remains once the others are ruled out.
import type { CauseFinding, RankedPassage, RetrievalRecord } from '../retrieval/contract.js';
import { retrievalCause } from '../retrieval/causes.js';
import { isRelevant, qrelsOf } from '../retrieval/metrics.js';
import type { CaseExplanation, SourceAttribution } from './model.js';

/** How a passage is named in the words: the retriever's id, the case document and its rank ("doc-17 (d1, rank 2)"). */
function named(passage: RankedPassage): string {
  return `${passage.id} (${passage.documentId ?? 'not sent'}, rank ${passage.rank})`;
}

function undetermined(words: string, passage?: RankedPassage): CauseFinding {
  return { cause: 'undetermined', words, ...(passage ? { passageId: passage.id, rank: passage.rank } : {}) };
}

/** The most telling harmful attribution first: a leave-one-out flip before a surrogate weight, then the larger one. */
function byHarm(a: SourceAttribution, b: SourceAttribution): number {
  return (b.change ?? 0) - (a.change ?? 0) || (a.attribution ?? 0) - (b.attribution ?? 0);
}

export function failureCauseFromExplanation(record: RetrievalRecord, explanation: CaseExplanation): CauseFinding {
  const qrels = qrelsOf(record);
  const sent = record.candidates.filter((passage) => passage.sent && passage.documentId !== undefined).sort((a, b) => a.rank - b.rank);
  const relevantSent = sent.filter((passage) => isRelevant(qrels.get(passage.id)));
  // No relevant passage was sent: retrieval decides (not-retrieved, ranked-out, no labels), whatever Explain found.
  if (relevantSent.length === 0) return retrievalCause(record);
  const first = relevantSent[0] as RankedPassage;

  if (explanation.basis !== 'verdict') return undetermined('Explain compared ratings, not verdicts, for this case: no cause is read from them', first);
  if (explanation.original.pass === null) {
    return undetermined(`Explain's own run of the case is undetermined (${explanation.original.undeterminedBecause ?? 'no verdict'}): no cause is read from its variants`, first);
  }
  if (explanation.original.pass) return undetermined('the case passed when Explain ran it again (the model answers differently from run to run): no cause is read', first);

  const attribution = new Map(explanation.attributions.map((a) => [a.sourceId, a]));
  const passageOf = new Map(sent.map((passage) => [passage.documentId as string, passage]));
  const missing: string[] = [];

  // 1. position: the sweep moved a relevant passage first and the case passed.
  const at = explanation.sources.findIndex((source) => relevantSent.some((passage) => passage.documentId === source.id));
  if (at > 0) {
    const curve = explanation.positionCurve;
    const moved = curve ? passageOf.get(curve.sourceId) : undefined;
    const firstPoint = curve?.points.find((point) => point.position === 0);
    if (moved && relevantSent.includes(moved) && firstPoint?.pass === true) {
      return { cause: 'position', words: `the case passes with relevant passage ${named(moved)} moved first`, passageId: moved.id, rank: moved.rank };
    }
    if (!moved || !relevantSent.includes(moved)) missing.push('the position sweep of the relevant passage');
    else if (firstPoint?.pass !== false) missing.push(`the position sweep's run with ${moved.id} first (${firstPoint ? 'undetermined' : 'not run'})`);
  }

  // 2. distracted: another sent passage harms.
  const others = sent.filter((passage) => !relevantSent.includes(passage));
  const harmful = others.flatMap((passage) => {
    const a = attribution.get(passage.documentId as string);
    return a?.effect === 'harms' ? [a] : [];
  }).sort(byHarm);
  const worst = harmful[0] ? passageOf.get(harmful[0].sourceId) : undefined;
  if (worst && missing.length === 0) {
    const how = (harmful[0]?.change ?? 0) > 0 ? 'without it the case passes' : `the subsets weigh it ${harmful[0]?.attribution ?? '?'}`;
    return { cause: 'distracted', words: `passage ${named(worst)} misleads the model: ${how}`, passageId: worst.id, rank: worst.rank };
  }
  const unknownOthers = others.filter((passage) => (attribution.get(passage.documentId as string)?.effect ?? 'undetermined') === 'undetermined');
  if (unknownOthers.length > 0) missing.push(`the effect of ${unknownOthers.map((passage) => passage.id).join(', ')} (leave-one-out or subsets)`);

  // 3. retrieved-not-used / 4. generation: what the relevant passages did.
  const effects = relevantSent.map((passage) => ({ passage, effect: attribution.get(passage.documentId as string)?.effect ?? 'undetermined' }));
  const unknownRelevant = effects.filter(({ effect }) => effect === 'undetermined');
  if (unknownRelevant.length > 0) missing.push(`the effect of relevant ${unknownRelevant.map(({ passage }) => passage.id).join(', ')} (leave-one-out or subsets)`);
  if (worst || missing.length > 0) {
    const found = worst ? `; passage ${named(worst)} harms, but position is not ruled out` : '';
    return undetermined(`relevant passage ${named(first)} was sent; missing evidence: ${missing.join('; ')}${found}`, first);
  }
  const used = effects.find(({ effect }) => effect === 'decisive' || effect === 'helps');
  if (used) {
    return { cause: 'generation', words: `relevant passage ${named(used.passage)} was sent and ${used.effect === 'decisive' ? 'is decisive' : 'helps'}, yet the answer fails`, passageId: used.passage.id, rank: used.passage.rank };
  }
  if (effects.every(({ effect }) => effect === 'inert')) {
    if (relevantSent.length === 1) {
      return { cause: 'retrieved-not-used', words: `relevant passage ${named(first)} was sent and changes nothing when left out: the model ignored it`, passageId: first.id, rank: first.rank };
    }
    // Two relevant passages stand in for each other: leaving out one at a time cannot tell "ignored" from "used either".
    if (!explanation.surrogate) {
      return undetermined(`${relevantSent.length} relevant passages were sent (first ${named(first)}): leaving out one at a time cannot tell whether the model ignored them or used either; missing evidence: the subsets`, first);
    }
    return { cause: 'retrieved-not-used', words: `the ${relevantSent.length} relevant passages sent (first ${named(first)}) change nothing when left out, alone or together: the model ignored them`, passageId: first.id, rank: first.rank };
  }
  // A relevant passage that harms (leaving it out makes the case pass): the model misread what it needed.
  const misread = effects.find(({ effect }) => effect === 'harms')?.passage ?? first;
  return { cause: 'generation', words: `relevant passage ${named(misread)} was sent and Explain finds it harms the answer: the model misread it`, passageId: misread.id, rank: misread.rank };
}
