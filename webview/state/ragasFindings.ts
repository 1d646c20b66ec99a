// Reads the RAGAS judges' details off a case's scores (statements, claims, per-document verdicts, extracted sentences) for the case view.
import type { Evidence, Score } from '../../src/core/model.js';
import type { MarkSpan } from '../text/segments.js';
import { pushTo } from './cardNotes.js';
import type { CardNote } from './cardNotes.js';

/** A place in a document the inspector can scroll to, with the id its highlight carries. */
export interface Located { documentId: string; start: number; end: number; text?: string; markId: string }

export interface StatementRow { statement: string; supported: boolean; reason: string; quote?: string; evidence?: Located }
export interface ClaimSource { documentId: string; relevant: boolean; evidence?: Located }
export interface ClaimRow { claim: string; correct: boolean; reason: string; counts: 'relevant' | 'irrelevant' | null; sources: ClaimSource[] }
export interface VerdictRow { documentId: string; rank: number; useful: boolean; reason: string }
export interface ExtractedRow { text: string; evidence?: Located }
export interface RecallRow { statement: string; attributed: boolean; reason: string }

export interface RagasFindings {
  faithfulness?: { metric: string; rows: StatementRow[] };
  /** Both noise modes share one set of claims; `metrics` lists the modes the case was scored in, with their values. */
  noise?: { metrics: { metric: string; value: number | null }[]; claims: ClaimRow[]; roles: Map<string, { relevant: boolean; supports: string[] }> };
  usefulness: { metric: string; rows: VerdictRow[] }[];
  relevance?: { metric: string; rows: ExtractedRow[] };
  recall?: { metric: string; rows: RecallRow[] };
}

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : undefined);
const list = (v: unknown): Loose[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Loose => x !== undefined) : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function located(v: unknown, markId: string): Located | undefined {
  const e = obj(v) as Partial<Evidence> | undefined;
  if (!e || typeof e.documentId !== 'string' || typeof e.start !== 'number' || typeof e.end !== 'number' || e.end <= e.start) return undefined;
  return { documentId: e.documentId, start: e.start, end: e.end, markId, ...(typeof e.text === 'string' ? { text: e.text } : {}) };
}

const details = (score: Score | undefined): Loose => obj(score?.details) ?? {};

export function ragasFindings(scores: readonly Score[]): RagasFindings {
  const byMetric = (metric: string) => scores.find((s) => s.metric === metric);
  const findings: RagasFindings = { usefulness: [] };

  const faithfulness = byMetric('faithfulness');
  const statements = list(details(faithfulness).statements);
  if (faithfulness && statements.length) {
    findings.faithfulness = {
      metric: faithfulness.metric,
      rows: statements.map((s, i) => {
        const evidence = located(s.evidence, `faith-${i}`);
        return { statement: text(s.statement), supported: s.verdict === 1, reason: text(s.reason), ...(typeof s.quote === 'string' ? { quote: s.quote } : {}), ...(evidence ? { evidence } : {}) };
      }),
    };
  }

  const noiseScores = scores.filter((s) => s.metric.startsWith('noise_sensitivity'));
  const withClaims = noiseScores.find((s) => list(details(s).claims).length > 0);
  if (withClaims) {
    const roles = new Map<string, { relevant: boolean; supports: string[] }>();
    for (const r of list(details(withClaims).documentRoles)) {
      if (typeof r.documentId === 'string') roles.set(r.documentId, { relevant: r.role === 'positive', supports: Array.isArray(r.supports) ? r.supports.filter((x): x is string => typeof x === 'string') : [] });
    }
    findings.noise = {
      metrics: noiseScores.map((s) => ({ metric: s.metric, value: s.value })),
      roles,
      claims: list(details(withClaims).claims).map((c, a) => ({
        claim: text(c.claim), correct: c.correct === true, reason: text(c.reasonAgainstReference),
        counts: c.counts === 'relevant' || c.counts === 'irrelevant' ? c.counts : null,
        sources: list(c.sources).filter((src) => typeof src.documentId === 'string').map((src, k) => {
          const evidence = located(src.evidence, `claim-${a}-${k}`);
          return { documentId: src.documentId as string, relevant: src.relevant === true, ...(evidence ? { evidence } : {}) };
        }),
      })),
    };
  }

  for (const metric of ['context_precision', 'context_utilization']) {
    const verdicts = list(details(byMetric(metric)).verdicts);
    if (verdicts.length === 0) continue;
    findings.usefulness.push({
      metric,
      rows: verdicts.filter((v) => typeof v.documentId === 'string').map((v, i) => ({
        documentId: v.documentId as string, rank: typeof v.rank === 'number' ? v.rank : i + 1, useful: v.verdict === 1, reason: text(v.reason),
      })).sort((a, b) => a.rank - b.rank),
    });
  }

  const relevance = byMetric('context_relevance');
  const extracted = list(details(relevance).extracted);
  if (relevance && extracted.length) {
    findings.relevance = {
      metric: relevance.metric,
      rows: extracted.map((e, i) => {
        const evidence = located(e.evidence, `extract-${i}`);
        return { text: text(e.text), ...(evidence ? { evidence } : {}) };
      }),
    };
  }

  const recall = byMetric('context_recall');
  const classifications = list(details(recall).classifications);
  if (recall && classifications.length) {
    findings.recall = { metric: recall.metric, rows: classifications.map((c) => ({ statement: text(c.statement), attributed: c.attributed === 1, reason: text(c.reason) })) };
  }
  return findings;
}

/** Highlights the findings link to, by document: supporting quotes, claim sources, extracted sentences. */
export function ragasMarks(findings: RagasFindings): Map<string, MarkSpan[]> {
  const marks = new Map<string, MarkSpan[]>();
  const add = (where: Located | undefined, label: string) => {
    if (where) pushTo(marks, where.documentId, { kind: 'evidence', start: where.start, end: where.end, id: where.markId, label });
  };
  findings.faithfulness?.rows.forEach((row, i) => add(row.evidence, `supports statement ${i + 1}`));
  findings.noise?.claims.forEach((claim, a) => claim.sources.forEach((s) => add(s.evidence, `${claim.correct ? 'source of' : 'source of wrong'} claim ${a + 1}`)));
  findings.relevance?.rows.forEach((row) => add(row.evidence, 'extracted as relevant'));
  return marks;
}

/** Per-document verdicts shown on the cards: usefulness by rank, and the role noise sensitivity judged. */
export function ragasNotes(findings: RagasFindings): Map<string, CardNote[]> {
  const notes = new Map<string, CardNote[]>();
  for (const { metric, rows } of findings.usefulness) {
    for (const row of rows) {
      pushTo(notes, row.documentId, {
        kind: 'usefulness', tone: row.useful ? 'pass' : 'fail',
        badge: `#${row.rank} ${row.useful ? '✓ useful' : '✗ not useful'} (${metric})`, text: row.reason,
      });
    }
  }
  if (findings.noise) {
    for (const [documentId, role] of findings.noise.roles) {
      const wrong = findings.noise.claims.filter((c) => !c.correct && c.sources.some((s) => s.documentId === documentId)).length;
      pushTo(notes, documentId, {
        kind: 'judged-role', tone: role.relevant ? 'info' : 'warn',
        badge: role.relevant ? 'judged relevant' : 'judged noise',
        text: [role.relevant ? `Supports: ${role.supports.join(' ')}` : 'Supports no statement of the reference.', wrong ? `Source of ${wrong} wrong claim${wrong === 1 ? '' : 's'}.` : ''].filter(Boolean).join(' '),
      });
    }
  }
  return notes;
}
