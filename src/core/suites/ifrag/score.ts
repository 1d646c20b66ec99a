// Scores one IF-RAG response by its instruction (A answer, B answer and helpful document ID, C all answers) and flags refusals.
import type { CaseDocument, EvalCase, Evidence, Score, Span } from '../../model.js';
import { responseSpans } from '../rgb/spans.js';
import { CITATION_RULE_NAME, documentLabel, findCitations } from './citations.js';
import type { Citation, CitationReading } from './citations.js';
import { ifragCaseParams, ifragExpected } from './cases.js';
import type { GoldAnswer } from './cases.js';
import { NORMALISATION_RULES, findAlias, findRefusal } from './normalise.js';
import type { IfRagParams, Instruction } from './params.js';

/** One gold answer checked against the response. */
export interface AnswerCheck {
  source: GoldAnswer['source'];
  aliases: string[];
  /** The alias found, if any. */
  matched?: string;
  helpful: string[];
}

/** A cited document: its case id, label and whether it is evidence for a gold answer. */
export interface CitedDocument {
  documentId: string;
  label: string;
  helpful: boolean;
}

/** The verdict's label: correct, or which requirement of the instruction failed. */
export type IfRagLabel = 'correct' | 'incorrect' | 'partial' | 'refused' | 'wrong-citation' | 'missing-citation';

export interface IfRagVerdict {
  correct: boolean;
  label: IfRagLabel;
  answers: AnswerCheck[];
  cited: CitedDocument[];
  /** Numbers cited that name no document. */
  unknownCitations: number[];
  refusal?: string;
}

const quote = (text: string) => `'${text}'`;

// ——— reading the response ———

function checkAnswers(response: string, gold: readonly GoldAnswer[], params: IfRagParams): AnswerCheck[] {
  return gold.map((g) => {
    const matched = findAlias(response, g.aliases, params.normalise);
    return { source: g.source, aliases: g.aliases, helpful: g.helpful, ...(matched !== undefined ? { matched } : {}) };
  });
}

function citedDocuments(reading: CitationReading, documents: readonly CaseDocument[], gold: readonly GoldAnswer[], idFormat: string): CitedDocument[] {
  const helpful = new Set(gold.flatMap((g) => g.helpful));
  const numbers = [...new Set(reading.citations.map((c) => c.number))];
  return numbers.map((n) => {
    const doc = documents[n - 1] as CaseDocument;
    return { documentId: doc.id, label: documentLabel(idFormat, n), helpful: helpful.has(doc.id) };
  });
}

// ——— the rule per instruction ———

/** B pairs the answer with its own evidence: in multi-answer data, citing Paris's document for Lyon is wrong. */
function citesEvidenceOfFound(answers: readonly AnswerCheck[], cited: readonly CitedDocument[]): boolean {
  const citedIds = new Set(cited.map((c) => c.documentId));
  return answers.some((a) => a.matched !== undefined && a.helpful.some((id) => citedIds.has(id)));
}

function labelFor(instruction: Instruction, answers: readonly AnswerCheck[], cited: readonly CitedDocument[], refused: boolean): { correct: boolean; label: IfRagLabel } {
  const found = answers.filter((a) => a.matched !== undefined).length;
  const none: IfRagLabel = refused ? 'refused' : 'incorrect';
  if (instruction === 'C') {
    if (found === answers.length) return { correct: true, label: 'correct' };
    return { correct: false, label: found > 0 ? 'partial' : none };
  }
  if (found === 0) return { correct: false, label: none };
  if (instruction === 'A') return { correct: true, label: 'correct' };
  if (citesEvidenceOfFound(answers, cited)) return { correct: true, label: 'correct' };
  return { correct: false, label: cited.length > 0 ? 'wrong-citation' : 'missing-citation' };
}

/** The IF-RAG verdict on one response (exported for the worked examples and the report's citation table). */
export function judgeIfRag(evalCase: EvalCase, response: string, params: IfRagParams): IfRagVerdict {
  const caseParams = ifragCaseParams(evalCase);
  const gold = ifragExpected(evalCase).gold;
  const answers = checkAnswers(response, gold, params);
  const reading = findCitations(response, caseParams.idFormat, evalCase.documents.length);
  const cited = citedDocuments(reading, evalCase.documents, gold, caseParams.idFormat);
  const refusal = findRefusal(response, params.refusal, params.normalise);
  return { ...labelFor(params.instruction, answers, cited, refusal !== undefined), answers, cited, unknownCitations: reading.unknown, ...(refusal !== undefined ? { refusal } : {}) };
}

// ——— explanations ———

function describeAnswer(answer: AnswerCheck): string {
  const name = answer.source === 'factual' ? 'true answer' : 'counterfactual answer';
  const aliases = answer.aliases.map(quote).join(' / ');
  return answer.matched !== undefined ? `${name} ${quote(answer.matched)} found` : `${name} (${aliases}) not found`;
}

function describeCitations(verdict: IfRagVerdict, helpfulLabels: readonly string[]): string {
  const unknown = verdict.unknownCitations.length ? `; cites ${verdict.unknownCitations.map((n) => `document ${n}`).join(', ')}, which the case does not have` : '';
  if (verdict.cited.length === 0) return `no document cited (helpful: ${helpfulLabels.join(', ') || 'none'})${unknown}`;
  const list = verdict.cited.map((c) => `${c.label} (${c.helpful ? 'helpful' : 'not helpful'})`).join(', ');
  return `cites ${list}; helpful: ${helpfulLabels.join(', ')}${unknown}`;
}

const REQUIREMENT: Record<Instruction, string> = {
  A: 'Instruction A needs a gold answer',
  B: 'Instruction B needs a gold answer and the ID of a document that supports it',
  C: 'Instruction C needs every gold answer',
};

const VERDICT_TEXT: Record<IfRagLabel, string> = {
  'correct': 'correct',
  'incorrect': 'wrong: no gold answer in the response',
  'partial': 'wrong: only some of the gold answers',
  'refused': 'wrong: the response refuses, though the documents hold the answer',
  'wrong-citation': 'wrong citation: the answer is there but no cited document supports it',
  'missing-citation': 'missing citation: the answer is there but no document ID is given',
};

function explain(verdict: IfRagVerdict, params: IfRagParams, helpfulLabels: readonly string[]): string {
  const answers = verdict.answers.map(describeAnswer).join('; ');
  const citations = describeCitations(verdict, helpfulLabels);
  const refusal = verdict.refusal !== undefined ? ` Refusal sentence ${quote(verdict.refusal)} found.` : '';
  return `${REQUIREMENT[params.instruction]}: ${VERDICT_TEXT[verdict.label]}. ${answers} (${params.normalise}); ${citations} (${CITATION_RULE_NAME}).${refusal}`;
}

// ——— evidence and spans ———

/** A cited document as evidence: where its gold answer spans are, else the whole document. */
function evidenceOf(cited: readonly CitedDocument[], documents: readonly CaseDocument[]): Evidence[] {
  return cited.flatMap((c) => {
    const doc = documents.find((d) => d.id === c.documentId) as CaseDocument;
    const answerSpans = doc.spans.filter((s) => s.kind === 'answer' || s.kind === 'counterfactual');
    if (answerSpans.length === 0) return [{ documentId: doc.id, start: 0, end: doc.text.length, text: doc.text }];
    return answerSpans.map((s) => ({ documentId: doc.id, start: s.start, end: s.end, text: s.text }));
  });
}

function citationSpans(response: string, idFormat: string, count: number): Span[] {
  return findCitations(response, idFormat, count).citations.map((c: Citation) => ({
    kind: 'citation', start: c.start, end: c.end, text: c.text, label: documentLabel(idFormat, c.number),
  }));
}

/** Where the answers and the citations are in the response (answer spans by RGB's lowercase rule, as the inspector shows them). */
function spansOfResponse(evalCase: EvalCase, response: string): Span[] {
  const gold = ifragExpected(evalCase).gold;
  const factual = gold.filter((g) => g.source === 'factual').map((g) => g.aliases);
  const counterfactual = gold.filter((g) => g.source === 'counterfactual').map((g) => g.aliases);
  const answers = responseSpans(response, factual, 'en', counterfactual.length ? counterfactual : undefined);
  const { idFormat } = ifragCaseParams(evalCase);
  return [...answers, ...citationSpans(response, idFormat, evalCase.documents.length)].sort((a, b) => a.start - b.start || a.end - b.end);
}

// ——— scores ———

function correctScore(evalCase: EvalCase, response: string, verdict: IfRagVerdict, params: IfRagParams): Score {
  const caseParams = ifragCaseParams(evalCase);
  return {
    metric: 'correct',
    value: verdict.correct ? 1 : 0,
    pass: verdict.correct,
    label: verdict.label,
    explanation: explain(verdict, params, caseParams.helpfulLabels),
    evidence: evidenceOf(verdict.cited, evalCase.documents),
    details: {
      instruction: params.instruction,
      kind: caseParams.kind,
      normalise: NORMALISATION_RULES[params.normalise],
      citationRule: CITATION_RULE_NAME,
      answers: verdict.answers,
      cited: verdict.cited,
      unknownCitations: verdict.unknownCitations,
      responseSpans: spansOfResponse(evalCase, response),
    },
  };
}

/** Figure 3: every IF-RAG case is answerable, so the refusal sentence is always an over-refusal. Informative, no pass. */
function overRefusalScore(verdict: IfRagVerdict, params: IfRagParams): Score {
  const refused = verdict.refusal !== undefined;
  return {
    metric: 'over_refusal',
    value: refused ? 1 : 0,
    label: refused ? 'over-refusal' : 'answered',
    explanation: refused
      ? `Refusal sentence ${quote(verdict.refusal as string)} found, though the documents hold the answer (${params.normalise}).`
      : `No refusal sentence (${params.refusal.map(quote).join(', ')}; ${params.normalise}).`,
  };
}

/** Suite.score for IF-RAG: rule-based only, so it never calls a judge. */
export function scoreIfRagCase(evalCase: EvalCase, response: string, params: IfRagParams): Score[] {
  const verdict = judgeIfRag(evalCase, response, params);
  return [correctScore(evalCase, response, verdict, params), overRefusalScore(verdict, params)];
}
