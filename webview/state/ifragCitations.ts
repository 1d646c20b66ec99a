// Reads IF-RAG's citation verdict off a case: which documents the response cites, which it needed, what went wrong.
import type { CaseDetail } from '../../src/protocol.js';
import { pushTo } from './cardNotes.js';
import type { CardNote } from './cardNotes.js';

export interface CitationReading {
  instruction?: string;
  label?: string;
  cited: { documentId: string; label: string; helpful: boolean }[];
  /** The documents that support a gold answer (what instruction B must cite), with the label the model saw. */
  helpful: { documentId: string; label: string }[];
  /** Document numbers cited that the case does not have. */
  unknown: number[];
  problem?: 'wrong-citation' | 'missing-citation';
}

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose => (typeof v === 'object' && v !== null ? (v as Loose) : {});

/** Undefined for a case without citation details (caseAnnotations asks only for a method whose view has citations). */
export function citationReading(detail: CaseDetail): CitationReading | undefined {
  const { evalCase, result } = detail;
  const score = result.scores.find((s) => s.metric === 'correct');
  const d = obj(score?.details);
  if (!score || !Array.isArray(d.cited)) return undefined;
  const labels = Array.isArray(evalCase.params.documentLabels) ? (evalCase.params.documentLabels as unknown[]) : [];
  const labelOf = (id: string) => {
    const i = evalCase.documents.findIndex((doc) => doc.id === id);
    return typeof labels[i] === 'string' ? (labels[i] as string) : `document ${i + 1}`;
  };
  const gold = Array.isArray(obj(evalCase.expected).gold) ? (obj(evalCase.expected).gold as unknown[]) : [];
  const helpfulIds = [...new Set(gold.flatMap((g) => (Array.isArray(obj(g).helpful) ? (obj(g).helpful as unknown[]) : [])).filter((x): x is string => typeof x === 'string'))];
  const reading: CitationReading = {
    cited: d.cited.map(obj).filter((c) => typeof c.documentId === 'string').map((c) => ({
      documentId: c.documentId as string, label: typeof c.label === 'string' ? c.label : labelOf(c.documentId as string), helpful: c.helpful === true,
    })),
    helpful: helpfulIds.map((documentId) => ({ documentId, label: labelOf(documentId) })),
    unknown: Array.isArray(d.unknownCitations) ? d.unknownCitations.filter((n): n is number => typeof n === 'number') : [],
  };
  if (typeof d.instruction === 'string') reading.instruction = d.instruction;
  if (score.label) reading.label = score.label;
  if (score.label === 'wrong-citation' || score.label === 'missing-citation') reading.problem = score.label;
  return reading;
}

/** Badges for the cards: each cited document, and the helpful ones (marked when the response failed to cite them). */
export function citationNotes(reading: CitationReading): Map<string, CardNote[]> {
  const notes = new Map<string, CardNote[]>();
  for (const c of reading.cited) {
    pushTo(notes, c.documentId, {
      kind: 'citation', tone: c.helpful ? 'pass' : 'fail',
      badge: `❝ cited as ${c.label}`,
      text: c.helpful ? 'The response cites this document, which supports the gold answer.' : 'The response cites this document, but it does not support the gold answer.',
    });
  }
  const citedIds = new Set(reading.cited.map((c) => c.documentId));
  for (const h of reading.helpful) {
    const missed = reading.problem !== undefined && !citedIds.has(h.documentId);
    pushTo(notes, h.documentId, missed
      ? { kind: 'helpful', tone: 'fail', badge: `✗ helpful document, not cited (${h.label})`, text: reading.problem === 'missing-citation' ? 'The answer is right but gives no document ID; this is the one to cite.' : 'The response cites another document; this is the one that supports the answer.' }
      : { kind: 'helpful', tone: 'info', badge: `● helpful document (${h.label})` });
  }
  return notes;
}

/** The citation problem, said on the score it failed. */
export function citationScoreNotes(reading: CitationReading): Map<string, CardNote[]> {
  const notes = new Map<string, CardNote[]>();
  const needed = reading.helpful.map((h) => h.label).join(' or ') || 'a helpful document';
  if (reading.problem === 'wrong-citation') {
    pushTo(notes, 'correct', { kind: 'citation-problem', tone: 'fail', badge: '✗ wrong citation', text: `Cited ${reading.cited.map((c) => c.label).join(', ')}; the answer needed ${needed}.` });
  } else if (reading.problem === 'missing-citation') {
    pushTo(notes, 'correct', { kind: 'citation-problem', tone: 'fail', badge: '✗ missing citation', text: `No document ID in the response; the answer needed ${needed}.` });
  }
  if (reading.unknown.length) {
    pushTo(notes, 'correct', { kind: 'unknown-citation', tone: 'warn', badge: '⚠ cites a document that does not exist', text: reading.unknown.map((n) => `document ${n}`).join(', ') });
  }
  return notes;
}
