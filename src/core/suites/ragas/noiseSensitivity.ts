// Noise sensitivity (ragas, lower is better): the share of the response's claims that are wrong and came from relevant or from noise contexts.
import type { CaseDocument, DocumentRole, Evidence, Score } from '../../model.js';
import type { JudgeOutcome } from '../judging.js';
import { locateQuoteIn } from './evidence.js';
import { judgeErrorScore } from '../judging.js';
import { undeterminedScore } from './judgeStep.js';
import type { StepContext } from './judgeStep.js';
import type { NoiseMode } from './params.js';
import { generateStatements, judgeStatementsAligned } from './statements.js';
import type { NliVerdict } from './statements.js';

export const NOISE_SENSITIVITY_RELEVANT = 'noise_sensitivity_relevant';
export const NOISE_SENSITIVITY_IRRELEVANT = 'noise_sensitivity_irrelevant';

export function noiseMetric(mode: NoiseMode): string {
  return mode === 'relevant' ? NOISE_SENSITIVITY_RELEVANT : NOISE_SENSITIVITY_IRRELEVANT;
}

/** The three NLI results the reference builds: rows are statements, columns contexts. */
export interface NoiseMatrices {
  /** R2G[g][c]: reference statement g can be inferred from context c. */
  r2g: readonly (readonly boolean[])[];
  /** R2A[a][c]: response statement a can be inferred from context c. */
  r2a: readonly (readonly boolean[])[];
  /** G2A[a]: response statement a can be inferred from the reference (false = an incorrect claim). */
  g2a: readonly boolean[];
}

export interface NoiseAnalysis {
  /** relevantCtx[c] = any_g R2G[g][c]: the context supports some part of the reference. */
  relevantContexts: boolean[];
  incorrect: boolean[];
  /** relFaithful[a] = any_c(relevantCtx[c] ∧ R2A[a][c]). */
  relevantFaithful: boolean[];
  /** any_c(¬relevantCtx[c] ∧ R2A[a][c]) ∧ ¬relFaithful[a]: drawn from noise only. */
  irrelevantFaithful: boolean[];
}

/** The reference's boolean algebra (numpy max/&/~ over the matrices), kept as named vectors for attribution. */
export function analyseNoise(m: NoiseMatrices): NoiseAnalysis {
  const contexts = m.r2a[0]?.length ?? m.r2g[0]?.length ?? 0;
  const relevantContexts = Array.from({ length: contexts }, (_, c) => m.r2g.some((row) => row[c] === true));
  const incorrect = m.g2a.map((supported) => !supported);
  const relevantFaithful = m.r2a.map((row) => row.some((inferred, c) => inferred && relevantContexts[c] === true));
  const irrelevantFaithful = m.r2a.map((row, a) => row.some((inferred, c) => inferred && relevantContexts[c] === false) && !relevantFaithful[a]);
  return { relevantContexts, incorrect, relevantFaithful, irrelevantFaithful };
}

/** mean_a(relFaithful ∧ incorrect) or mean_a(irrelevantFaithful ∧ incorrect); no response statements → null (NaN). */
export function noiseSensitivityScore(m: NoiseMatrices, mode: NoiseMode): number | null {
  const analysis = analyseNoise(m);
  const claims = analysis.incorrect.length;
  if (claims === 0) return null;
  const faithful = mode === 'relevant' ? analysis.relevantFaithful : analysis.irrelevantFaithful;
  return faithful.filter((f, a) => f && analysis.incorrect[a]).length / claims;
}

/** Where one response claim came from: each context it can be inferred from, with that context's judged role. */
export interface ClaimAttribution {
  claim: string;
  correct: boolean;
  reasonAgainstReference: string;
  sources: { documentId: string; relevant: boolean; evidence?: Evidence }[];
  /** The mode whose numerator this claim adds to, if any. */
  counts: NoiseMode | null;
}

export interface DocumentRoleFinding {
  documentId: string;
  role: DocumentRole;
  /** The reference statements this context supports (why it is 'positive'). */
  supports: string[];
}

export interface NoiseInput {
  question: string;
  reference: string;
  documents: readonly CaseDocument[];
  responseStatements: () => Promise<JudgeOutcome<string[]>>;
}

interface Judged {
  groundTruth: string[];
  answer: string[];
  r2g: NliVerdict[][];
  r2a: NliVerdict[][];
  g2a: NliVerdict[];
}

type Step<T> = { ok: true; value: T } | { ok: false; error: string; raw: string };

/** Step: the reference's statements and the response's (shared with faithfulness). */
async function decompose(context: StepContext, input: NoiseInput): Promise<Step<{ groundTruth: string[]; answer: string[] }>> {
  const [groundTruth, answer] = await Promise.all([generateStatements(context, { question: input.question, answer: input.reference }), input.responseStatements()]);
  if (!groundTruth.ok) return { ok: false, error: `reference statements: ${groundTruth.error}`, raw: groundTruth.raw };
  if (!answer.ok) return { ok: false, error: `response statements: ${answer.error}`, raw: answer.raw };
  return { ok: true, value: { groundTruth: groundTruth.value, answer: answer.value } };
}

/** Step: 2·C + 1 NLI calls — both statement lists against every context, and the response's against the reference. */
async function judgeAll(context: StepContext, input: NoiseInput, groundTruth: string[], answer: string[]): Promise<Step<Judged>> {
  const perContext = (statements: string[]) => Promise.all(input.documents.map((d) => judgeStatementsAligned(context, { context: d.text, statements })));
  const [r2g, r2a, g2a] = await Promise.all([perContext(groundTruth), perContext(answer), judgeStatementsAligned(context, { context: input.reference, statements: answer })]);
  const failures: [string, JudgeOutcome<NliVerdict[]>][] = [
    ...r2g.map((o, c): [string, JudgeOutcome<NliVerdict[]>] => [`reference statements vs ${input.documents[c]!.id}`, o]),
    ...r2a.map((o, c): [string, JudgeOutcome<NliVerdict[]>] => [`response statements vs ${input.documents[c]!.id}`, o]),
    ['response statements vs the reference', g2a],
  ];
  for (const [what, outcome] of failures) if (!outcome.ok) return { ok: false, error: `NLI ${what}: ${outcome.error}`, raw: outcome.raw };
  const values = <T>(o: JudgeOutcome<T>) => (o.ok ? o.value : ([] as unknown as T));
  return { ok: true, value: { groundTruth, answer, r2g: r2g.map(values), r2a: r2a.map(values), g2a: values(g2a) } };
}

/** Transpose per-context verdict lists into statement × context booleans, as the reference's `.T` does. */
function matricesOf(judged: Judged): NoiseMatrices {
  const byStatement = (perContext: NliVerdict[][], count: number) =>
    Array.from({ length: count }, (_, s) => perContext.map((verdicts) => verdicts[s]?.verdict === 1));
  return {
    r2g: byStatement(judged.r2g, judged.groundTruth.length),
    r2a: byStatement(judged.r2a, judged.answer.length),
    g2a: judged.g2a.map((v) => v.verdict === 1),
  };
}

function attributeClaims(judged: Judged, analysis: NoiseAnalysis, documents: readonly CaseDocument[]): ClaimAttribution[] {
  return judged.answer.map((claim, a) => {
    const sources = documents.flatMap((document, c) => {
      const verdict = judged.r2a[c]?.[a];
      if (verdict?.verdict !== 1) return [];
      const evidence = locateQuoteIn(document, verdict.quote);
      return [{ documentId: document.id, relevant: analysis.relevantContexts[c] === true, ...(evidence ? { evidence } : {}) }];
    });
    const incorrect = analysis.incorrect[a] === true;
    const counts: NoiseMode | null = !incorrect ? null : analysis.relevantFaithful[a] ? 'relevant' : analysis.irrelevantFaithful[a] ? 'irrelevant' : null;
    return { claim, correct: !incorrect, reasonAgainstReference: judged.g2a[a]?.reason ?? '', sources, counts };
  });
}

function documentRoles(judged: Judged, analysis: NoiseAnalysis, documents: readonly CaseDocument[]): DocumentRoleFinding[] {
  return documents.map((document, c) => ({
    documentId: document.id,
    role: analysis.relevantContexts[c] ? 'positive' : 'negative',
    supports: judged.groundTruth.filter((_, g) => judged.r2g[c]?.[g]?.verdict === 1),
  }));
}

function explain(mode: NoiseMode, value: number, claims: readonly ClaimAttribution[]): string {
  const counted = claims.filter((c) => c.counts === mode);
  const kind = mode === 'relevant' ? 'relevant' : 'noise (irrelevant)';
  const lines = claims.map((c, i) => {
    const from = c.sources.length === 0 ? 'in no context' : `from ${c.sources.map((s) => `${s.documentId} (${s.relevant ? 'relevant' : 'noise'})`).join(', ')}`;
    return `${i + 1}. ${c.correct ? 'correct' : 'INCORRECT'}, ${from}: ${c.claim}`;
  });
  return [`${counted.length} of ${claims.length} response claims are incorrect and came from ${kind} contexts (noise sensitivity ${value}; lower is better).`, ...lines].join('\n');
}

/** Handler: both modes from one set of judge calls (a suite may ask for both); the role of each document comes with them. */
export async function scoreNoiseSensitivity(context: StepContext, input: NoiseInput, modes: readonly NoiseMode[]): Promise<Score[]> {
  const each = (make: (mode: NoiseMode) => Score) => modes.map(make);
  const statements = await decompose(context, input);
  if (!statements.ok) return each((mode) => judgeErrorScore(noiseMetric(mode), context.judge.key, statements.error, { raw: statements.raw }));
  const { groundTruth, answer } = statements.value;
  if (answer.length === 0) {
    return each((mode) => undeterminedScore(noiseMetric(mode), 'no-statements', 'The judge found no statements in the response: the mean over no claims is NaN in the reference.'));
  }
  if (groundTruth.length === 0) {
    return each((mode) => undeterminedScore(noiseMetric(mode), 'no-reference-statements', 'The judge found no statements in the reference, so no context can be judged relevant (the reference implementation fails on this input).'));
  }
  const judged = await judgeAll(context, input, groundTruth, answer);
  if (!judged.ok) return each((mode) => judgeErrorScore(noiseMetric(mode), context.judge.key, judged.error, { raw: judged.raw }));
  const matrices = matricesOf(judged.value);
  const analysis = analyseNoise(matrices);
  const claims = attributeClaims(judged.value, analysis, input.documents);
  const roles = documentRoles(judged.value, analysis, input.documents);
  return each((mode) => {
    const value = noiseSensitivityScore(matrices, mode) as number;
    const evidence = claims.filter((c) => c.counts === mode).flatMap((c) => c.sources.flatMap((s) => (s.evidence ? [s.evidence] : [])));
    return {
      metric: noiseMetric(mode),
      value,
      label: value === 0 ? 'no-noise-errors' : 'noise-errors',
      explanation: explain(mode, value, claims),
      ...(evidence.length > 0 ? { evidence } : {}),
      details: { mode, claims, documentRoles: roles, referenceStatements: groundTruth, matrices, judge: context.judge.key },
    };
  });
}
