// How one (case, model) result is named and summarised, shared by the live session, the run logs on disk, diagnostics, CodeLens and hovers.
import { CUT_ANSWER, caseKey, isTruncated, outcomeOf } from '../model.js';
import type { CaseEntry, CaseError, CaseResult, EvalCase } from '../model.js';
import { FAILURE_CAUSES } from '../retrieval/contract.js';
import type { FailureCause } from '../retrieval/contract.js';
import { failureMessage } from './runData.js';
import type { CaseListItem, CompareRow } from './viewModel.js';

/**
 * What diagnostics, CodeLens, reruns and the Test Explorer read of one result: its row, template and verdict, without
 * the documents, messages, response and scores, so the current results of a 100,000-case run stay small. A hover or
 * the inspector reads the full entry from the run log when it needs it.
 */
export interface CaseDigest {
  evalCase: Pick<EvalCase, 'id' | 'suiteId' | 'testbed' | 'row' | 'template' | 'question'>;
  result: Pick<CaseResult, 'caseId' | 'modelKey' | 'status' | 'pass'> & { error?: Pick<CaseError, 'stage'> };
  /** failureMessage(result): why it failed, or "passed". */
  failure: string;
  /** shortReason(result): "wrong answer", "model error". */
  reason: string;
}

/** Reads only fields a run log stores plain in every format, so the index lists a case without rebuilding its texts. */
export function caseListItem(evalCase: Pick<EvalCase, 'id' | 'suiteId' | 'testbed' | 'question'> & { documents: readonly Pick<EvalCase['documents'][number], 'role'>[] }, result: CaseResult): CaseListItem {
  const primary = result.scores[0];
  return {
    key: caseKey(evalCase.id, result.modelKey),
    caseId: evalCase.id,
    suiteId: evalCase.suiteId,
    testbed: evalCase.testbed,
    modelKey: result.modelKey,
    status: result.status,
    pass: result.pass,
    summary: withCut(withUnstable(failureMessage(result), result), result),
    question: evalCase.question,
    roles: [...new Set(evalCase.documents.map((d) => d.role))],
    score: primary ? primary.value : undefined,
    ...(isTruncated(result.response) ? { truncated: true } : {}),
    ...withCause(causeOf(result)),
  };
}

/** The failure cause a case's scores state (the rag method's `cause` score label); undefined when none or unknown. */
export function causeOf(result: Pick<CaseResult, 'scores'>): FailureCause | undefined {
  const label = result.scores.find((s) => s.metric === 'cause')?.label;
  return FAILURE_CAUSES.find((c) => c === label);
}

function withCause(cause: FailureCause | undefined): { cause?: FailureCause } {
  return cause ? { cause } : {};
}

/** "… · answer cut at the token limit", so the list (and its search: "cut") shows a truncated answer scored as it is. */
function withCut(summary: string, result: CaseResult): string {
  if (!isTruncated(result.response) || result.error?.kind === 'truncated') return summary;
  return summary ? `${summary} · ${CUT_ANSWER}` : CUT_ANSWER;
}

/** "… · unstable judge: content" when judgeSamples gave disagreeing samples, so the list (and its search) shows them. */
function withUnstable(summary: string, result: CaseResult): string {
  const unstable = result.scores.filter((s) => s.samples?.unstable).map((s) => s.metric);
  return unstable.length === 0 ? summary : `${summary} · unstable judge: ${unstable.join(', ')}`;
}

/**
 * The part of a case id after `<suiteId>/<row>/` (the suite contract's id shape), in words: "noise 0.6", "nodocs".
 * Empty for ids of another shape.
 */
export function caseVariant(evalCase: Pick<EvalCase, 'id' | 'suiteId'>): string {
  const rest = evalCase.id.startsWith(`${evalCase.suiteId}/`) ? evalCase.id.slice(evalCase.suiteId.length + 1) : evalCase.id;
  const parts = rest.split('/');
  return parts.length > 1 ? parts.slice(1).join(' ').replaceAll('=', ' ') : '';
}

/** Labels whose plain-words form is not the label itself. */
const LABEL_WORDS: Readonly<Record<string, string>> = { incorrect: 'wrong answer' };

/** Two or three words on why a case failed, for a CodeLens title: "wrong answer", "model error", "judge error". */
export function shortReason(result: CaseResult): string {
  if (result.status === 'error') return `${result.error?.stage ?? 'run'} error`;
  if (result.scores.some((s) => s.judgeError)) return 'judge error';
  const failed = result.scores.find((s) => s.pass === false);
  if (!failed) return outcomeOf(result) === 'pass' ? 'passed' : 'no verdict';
  const label = failed.label ?? `${failed.metric} failed`;
  return LABEL_WORDS[label] ?? label.replaceAll('-', ' ');
}

/** "noise 0.6 — wrong answer", with the model when the eval file has several. */
export function failureTitle(entry: Pick<CaseDigest, 'evalCase' | 'result' | 'reason'>, withModel: boolean): string {
  const variant = caseVariant(entry.evalCase);
  const model = withModel ? ` (${entry.result.modelKey})` : '';
  return `${variant ? `${variant} — ` : ''}${entry.reason}${model}`;
}

/** What a comparison shows for a side: the response, or the error when there was none. */
export function responseTextOf(result: CaseResult | undefined): string {
  if (!result) return '';
  return result.response?.text ?? (result.error ? `[${result.error.stage} error] ${result.error.message}` : '');
}

/**
 * The cases whose outcome differs between two sets of results, in the order of the later one: what the compare view
 * lists ("N cases changed outcome"). Cases only one side has are left out: there is nothing to compare them with.
 */
export function flippedRows(before: ReadonlyMap<string, CaseEntry>, after: Iterable<CaseEntry>): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const entry of after) {
    const key = caseKey(entry.evalCase.id, entry.result.modelKey);
    const earlier = before.get(key);
    if (!earlier || outcomeOf(earlier.result) === outcomeOf(entry.result)) continue;
    rows.push({
      caseId: entry.evalCase.id,
      before: caseListItem(earlier.evalCase, earlier.result),
      after: caseListItem(entry.evalCase, entry.result),
      beforeText: responseTextOf(earlier.result),
      afterText: responseTextOf(entry.result),
    });
  }
  return rows;
}

/**
 * flippedRows for results held as list items (a large run's cases are not in memory): the outcomes come from the
 * items, and only the flipped pairs are read in full, through `read`, for their responses.
 */
export async function flippedItemRows(
  before: ReadonlyMap<string, CaseListItem>,
  after: Iterable<CaseListItem>,
  read: (side: 'before' | 'after', keys: string[]) => Promise<ReadonlyMap<string, CaseEntry>>,
): Promise<CompareRow[]> {
  const flipped: [CaseListItem, CaseListItem][] = [];
  for (const item of after) {
    const earlier = before.get(item.key);
    if (earlier && outcomeOf(earlier) !== outcomeOf(item)) flipped.push([earlier, item]);
  }
  if (flipped.length === 0) return [];
  const keys = flipped.map(([, item]) => item.key);
  const [beforeFull, afterFull] = await Promise.all([read('before', keys), read('after', keys)]);
  return flipped.map(([earlier, item]) => ({
    caseId: item.caseId,
    before: earlier,
    after: item,
    beforeText: responseTextOf(beforeFull.get(item.key)?.result),
    afterText: responseTextOf(afterFull.get(item.key)?.result),
  }));
}
