// The cause of each failed rag case of a run and where a suite's failures come from: the run's cases joined with its
// stored explanation. Explain's evidence decides when the (case, model) was explained; otherwise the cause the case
// recorded when it ran (its `cause` score, what retrieval alone can say). Used by the report writers and the inspector.
import { caseKey, outcomeOf } from '../model.js';
import type { CaseResult, EvalCase } from '../model.js';
import { explanationFileOfRunLog, readExplanation } from '../explain/explainRun.js';
import { failureCauseFromExplanation } from '../explain/failureCause.js';
import type { CaseExplanation, RunExplanation } from '../explain/model.js';
import { FAILURE_CAUSES, type CauseFinding, type FailureCause, type RetrievalRecord } from '../retrieval/contract.js';
import { createFailureSplitAggregator, type FailureSplit, type FailureSplitAggregator } from '../retrieval/failureSplit.js';
import type { RunData, RunEntry } from './runData.js';

/** The cause of one failed (case, model) and what decided it. */
export interface CaseCause {
  caseId: string;
  modelKey: string;
  suiteId: string;
  finding: CauseFinding;
  /** 'explanation': Explain's evidence; 'case': the cause the case recorded when it ran. */
  from: 'explanation' | 'case';
}

export interface RunFailureCauses {
  /** By caseKey(caseId, modelKey): one small entry per failed rag case. */
  cases: Map<string, CaseCause>;
  /** Per suite with a failed rag case, in the order the suites first appear: the failure split's tables and charts. */
  suites: ({ suiteId: string } & FailureSplit)[];
  /** Why some causes could not be read (an explanation file that cannot be read), for the report's notes. */
  notes: string[];
}

/** The retrieval a rag case recorded (`params.retrieval`), when it has one that reads as a RetrievalRecord. */
export function retrievalRecordOf(evalCase: EvalCase | undefined): RetrievalRecord | undefined {
  const value = evalCase?.params.retrieval as Partial<RetrievalRecord> | undefined;
  if (!value || typeof value !== 'object' || !Array.isArray(value.candidates) || typeof value.k !== 'number') return undefined;
  return value as RetrievalRecord;
}

const isCause = (value: unknown): value is FailureCause => typeof value === 'string' && (FAILURE_CAUSES as readonly string[]).includes(value);

/** The cause a case recorded: its `cause` score's details (a CauseFinding), else its label with the score's words. */
export function recordedCause(result: CaseResult): CauseFinding | undefined {
  const score = result.scores.find((s) => s.metric === 'cause');
  if (!score) return undefined;
  const details = score.details as Partial<CauseFinding> | undefined;
  if (details && isCause(details.cause) && typeof details.words === 'string') return details as CauseFinding;
  if (isCause(score.label)) return { cause: score.label, words: score.explanation ?? '' };
  return { cause: 'undetermined', words: `the case's cause score could not be read (label ${JSON.stringify(score.label ?? null)})` };
}

/**
 * The cause of a failed rag case: Explain's when the case was explained (and its retrieval recorded), else the one it
 * recorded. Undefined when the case did not fail (a pass, an error: an error is not a failure of the answer) or is no
 * rag case (neither a recorded retrieval nor a cause score).
 */
export function failureCauseOf(evalCase: EvalCase | undefined, result: CaseResult, explanation: CaseExplanation | undefined): CaseCause | undefined {
  if (outcomeOf(result) !== 'fail') return undefined;
  const record = retrievalRecordOf(evalCase);
  const recorded = recordedCause(result);
  if (!record && !recorded) return undefined;
  const base = { caseId: result.caseId, modelKey: result.modelKey, suiteId: evalCase?.suiteId ?? explanation?.suiteId ?? '' };
  if (record && explanation) return { ...base, finding: failureCauseFromExplanation(record, explanation), from: 'explanation' };
  return { ...base, finding: recorded ?? { cause: 'undetermined', words: 'no cause was recorded for this case' }, from: 'case' };
}

/** The explained cases of a run by caseKey(caseId, modelKey). */
export function explanationsByCase(explanation: RunExplanation | undefined): Map<string, CaseExplanation> {
  return new Map((explanation?.cases ?? []).map((c) => [caseKey(c.caseId, c.modelKey), c]));
}

/** Reads a run's cases once (streamed) and returns every failed rag case's cause and each suite's failure split. */
export async function failureCausesOfEntries(entries: AsyncIterable<RunEntry>, explanation: RunExplanation | undefined, notes: string[] = []): Promise<RunFailureCauses> {
  const explained = explanationsByCase(explanation);
  const cases = new Map<string, CaseCause>();
  const splits = new Map<string, FailureSplitAggregator>();
  for await (const { evalCase, result } of entries) {
    const found = failureCauseOf(evalCase, result, explained.get(caseKey(result.caseId, result.modelKey)));
    if (!found) continue;
    cases.set(caseKey(found.caseId, found.modelKey), found);
    let split = splits.get(found.suiteId);
    if (!split) splits.set(found.suiteId, (split = createFailureSplitAggregator(found.suiteId)));
    split.add(found.modelKey, found.finding.cause);
  }
  const suites = [...splits].map(([suiteId, split]) => ({ suiteId, ...split.finish() }));
  return { cases, suites, notes };
}

/**
 * The causes of a run as the reports show them: its stored explanation (beside its log) joined with its cases. An
 * explanation file that cannot be read is said in a note and the recorded causes are used, never silently dropped.
 */
export async function failureCausesOfRun(run: RunData): Promise<RunFailureCauses> {
  const notes: string[] = [];
  let explanation: RunExplanation | undefined;
  if (run.logFile) {
    const file = explanationFileOfRunLog(run.logFile, run.runId);
    try {
      explanation = await readExplanation(file);
    } catch (error) {
      notes.push(`The run's explanation ${file} could not be read (${(error as Error).message}): causes are the ones recorded when the cases ran. Explain the failures again to refresh it.`);
    }
  }
  return failureCausesOfEntries(run.entries(), explanation, notes);
}
