// The cause of a failed rag case that retrieval alone decides (no model call): the relevant passage was never
// retrieved, or retrieved below the cut-off; when it was sent, only Explain's evidence can say what the model did.
import type { CauseFinding, RankedPassage, RetrievalRecord } from './contract.js';
import { isLabelled, isRelevant, qrelsOf, relevantCount } from './metrics.js';

/** The first relevant candidate by rank that satisfies `where`, if any. */
function firstRelevant(record: RetrievalRecord, where: (passage: RankedPassage) => boolean): RankedPassage | undefined {
  const qrels = qrelsOf(record);
  return [...record.candidates].sort((a, b) => a.rank - b.rank).find((passage) => where(passage) && isRelevant(qrels.get(passage.id)));
}

/**
 * What retrieval says about a failed case: `not-retrieved`, `ranked-out` (with the rank), or `undetermined` with
 * the reason (a relevant passage was sent, so Explain decides; or nothing is labelled, so nothing can be said).
 */
export function retrievalCause(record: RetrievalRecord): CauseFinding {
  if (!isLabelled(record)) return { cause: 'undetermined', words: 'no relevance labels for this question' };
  const sent = firstRelevant(record, (passage) => passage.sent);
  if (sent) {
    return {
      cause: 'undetermined',
      words: `relevant passage ${sent.id} sent at rank ${sent.rank}: Explain decides whether the model ignored it, was distracted or misplaced it`,
      passageId: sent.id,
      rank: sent.rank,
    };
  }
  const retrieved = firstRelevant(record, () => true);
  if (retrieved) {
    return { cause: 'ranked-out', words: `relevant passage ${retrieved.id} at rank ${retrieved.rank}, cut-off ${record.k}`, passageId: retrieved.id, rank: retrieved.rank };
  }
  const known = relevantCount(qrelsOf(record));
  // No relevant document at all: retrieval cannot have missed it, and nothing else can be said (never guessed).
  if (record.relevant !== undefined && known === 0) return { cause: 'undetermined', words: 'the labels call no passage relevant for this question' };
  const candidates = `${record.candidates.length} candidate${record.candidates.length === 1 ? '' : 's'}`;
  const words = record.relevant === undefined
    ? `no relevant passage among the ${candidates} (the labels judge only the retrieved passages)`
    : `none of the ${known} relevant passage${known === 1 ? '' : 's'} among the ${candidates}`;
  return { cause: 'not-retrieved', words };
}
