// Everything a method adds to the generic case view: highlights and notes per document, notes per score, the legend's kinds.
import type { CaseDetail } from '../../src/protocol.js';
import { caseViewParts } from '../../src/core/suites/views.js';
import type { SpanKind } from '../../src/core/model.js';
import type { MarkSpan } from '../text/segments.js';
import type { CardNote } from './cardNotes.js';
import { ragasFindings, ragasMarks, ragasNotes } from './ragasFindings.js';
import type { RagasFindings } from './ragasFindings.js';
import { citationNotes, citationReading, citationScoreNotes } from './ifragCitations.js';
import { dimensionChart } from './dimensions.js';
import type { DimensionChart } from './dimensions.js';

export interface CaseAnnotations {
  marks: Map<string, MarkSpan[]>;
  notes: Map<string, CardNote[]>;
  scoreNotes: Map<string, CardNote[]>;
  legend: SpanKind[];
  ragas?: RagasFindings;
  dimensions?: DimensionChart;
}

const KINDS: SpanKind[] = ['answer', 'needle', 'counterfactual', 'evidence', 'citation'];

/** The highlight kinds this case shows in its documents or response, in the legend's order. */
function presentKinds(detail: CaseDetail, extra: readonly SpanKind[]): SpanKind[] {
  const present = new Set<SpanKind>(extra);
  for (const d of detail.evalCase.documents) for (const s of d.spans) present.add(s.kind);
  if (detail.result.scores.some((s) => s.evidence?.length)) present.add('evidence');
  return KINDS.filter((k) => present.has(k));
}

export function caseAnnotations(detail: CaseDetail): CaseAnnotations {
  const { evalCase, result } = detail;
  const out: CaseAnnotations = { marks: new Map(), notes: new Map(), scoreNotes: new Map(), legend: presentKinds(detail, []) };
  // What the method's view declares it uses (its view.ts), never its name.
  const parts = caseViewParts(evalCase.method);
  if (parts.judgeFindings) {
    const findings = ragasFindings(result.scores);
    out.ragas = findings;
    out.marks = ragasMarks(findings);
    out.notes = ragasNotes(findings);
    if (out.marks.size) out.legend = presentKinds(detail, ['evidence']);
  }
  if (parts.citations) {
    const reading = citationReading(detail);
    // Responses that cite show citation marks; the legend says what the dotted underline is.
    out.legend = presentKinds(detail, ['citation']);
    if (reading) {
      out.notes = citationNotes(reading);
      out.scoreNotes = citationScoreNotes(reading);
    }
  }
  if (parts.dimensionBars) {
    const chart = dimensionChart(result.scores);
    if (chart) out.dimensions = chart;
  }
  return out;
}
