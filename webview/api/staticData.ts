// The shape of run data embedded in a page for staticApi. src/core/report/html.ts writes the same shape (core may
// not import the webview, so it keeps its own copy of these few lines; test/webview/report.test.ts loads a real report).
import type { CaseDetail, RunDetail, RunExplanation } from '../../src/protocol.js';

export const STATIC_DATA_ELEMENT_ID = 'rag-inspector-data';
export const STATIC_DATA_FORMAT = 'rag-inspector/static';
export const STATIC_DATA_VERSION = 1;
/** The same element holding a sweep instead of runs (src/core/report/sweepFiles.ts writes it): the sweep view. */
export const SWEEP_DATA_FORMAT = 'rag-inspector/sweep';

/** The embedded data's format, undefined when there is no data element or it does not parse. */
export function embeddedFormat(doc: Document): unknown {
  try {
    return (JSON.parse(doc.getElementById(STATIC_DATA_ELEMENT_ID)?.textContent ?? 'null') as { format?: unknown } | null)?.format;
  } catch {
    return undefined;
  }
}

export interface StaticRun {
  detail: RunDetail;
  cases: CaseDetail[];
  /** The run's explanation (.rag-inspector/explanations/<run-id>.json), when it was explained. */
  explanation?: RunExplanation;
}

export interface StaticData {
  format: typeof STATIC_DATA_FORMAT;
  version: typeof STATIC_DATA_VERSION;
  runs: StaticRun[];
}

/** The list key of a case detail, as CaseListItem.key spells it. */
export function caseKey(detail: Pick<CaseDetail, 'evalCase' | 'result'>): string {
  return `${detail.evalCase.id}\u0000${detail.result.modelKey}`;
}

/** Validates the outer shape only: the UI tolerates missing fields inside, a wrong format must say so. */
export function parseStaticData(json: string): StaticData {
  const data = JSON.parse(json) as Partial<StaticData>;
  if (data.format !== STATIC_DATA_FORMAT) throw new Error(`Embedded data is not a RAG Inspector report (format ${String(data.format)})`);
  if (data.version !== STATIC_DATA_VERSION) throw new Error(`Embedded report data is version ${String(data.version)}; this viewer reads version ${STATIC_DATA_VERSION}`);
  if (!Array.isArray(data.runs)) throw new Error('Embedded report data has no runs');
  return data as StaticData;
}
