// `rag-inspector explain`: the cost plan first, then the variants run with progress on stderr, then the summaries on
// stdout and the explanation reports beside the run's.
import * as path from 'node:path';
import { failureCausesOfRun } from '../core/report/failureCauses.js';
import type { RunFailureCauses } from '../core/report/failureCauses.js';
import { runDataFromLog } from '../core/report/runDataSources.js';
import { formatTable } from '../core/report/summaryText.js';
import { BatchProgressLines } from '../core/engine/batchProgress.js';
import { explainRun, planExplanation } from '../core/explain/explainRun.js';
import type { ExplainOptions, RunExplanation } from '../core/explain/model.js';
import { envCredentials } from '../core/providers/registry.js';
import { workspaceOfRunLog } from '../core/run/runLog.js';
import { writeExplanationReports } from '../core/report/explanationReport.js';
import type { ReportFormat } from '../core/report/writeReports.js';
import type { ExplainCommand } from './args.js';
import { formatExplanation, formatPlan } from '../core/explain/explanationText.js';
import { createProgress } from './progress.js';
import { print } from './terminal.js';

export interface ExplainInvocation extends ExplainOptions {
  runLog: string;
  workspaceDir: string;
  caseIds: string[];
  failed: boolean;
  noCache: boolean;
  planOnly: boolean;
  quiet: boolean;
  out: string;
  formats: readonly ReportFormat[];
  signal: AbortSignal;
}

/** Also used by `run` when the eval file has `explain:`. Returns the explanation, or undefined for --plan. */
export async function explainFromCli(invocation: ExplainInvocation): Promise<RunExplanation | undefined> {
  const credentials = envCredentials(process.env);
  const options = { ...invocation, credentials, caseIds: invocation.caseIds.length ? invocation.caseIds : undefined };
  if (invocation.planOnly) {
    print(process.stdout, `${formatPlan(await planExplanation(invocation.runLog, options))}\n`);
    return undefined;
  }
  // The bar counts variant runs, and of them those whose outcome differs from the original's.
  const progress = createProgress(process.stderr, invocation.quiet, { unit: 'variants', counted: 'flipped' });
  let flipped = 0;
  let made = 0;
  const batchLines = new BatchProgressLines();
  const outcome = await explainRun(invocation.runLog, {
    ...options,
    // Variants of a batched run go as vendor batches: the same plain lines as the run's.
    onBatch: (event) => {
      const line = batchLines.lineFor(event);
      if (line) progress.note(line);
    },
    onEvent: (event) => {
      if (event.type === 'explain-started') progress.note(`${formatPlan(event.plan)}\nvariant log: ${event.variantLog}`);
      // A faithfulness check an earlier run already answers leaves the total: the finished bar shows the runs made.
      if (event.type === 'explain-finished' && event.explanation.status === 'complete') progress.update(made, made, flipped);
      if (event.type !== 'variant-finished') return;
      if (event.flipped) flipped += 1;
      made = event.done;
      progress.update(event.done, event.total, flipped);
    },
  });
  progress.finish();
  const explanation = outcome.explanation as RunExplanation;
  print(process.stdout, `\n${formatExplanation(explanation)}\n`);
  const causes = await failureCausesOfRun(await runDataFromLog(invocation.runLog));
  if (causes.suites.length > 0) print(process.stdout, `\n${formatFailureCauses(causes)}\n`);
  const written = await writeExplanationReports(explanation, invocation.out, invocation.formats, causes);
  print(process.stdout, `Explanation: ${outcome.file}${written.length ? `\nReports: ${written.join(', ')}` : ''}\n`);
  return explanation;
}

export function explainInvocation(command: ExplainCommand, runLog: string, signal: AbortSignal): ExplainInvocation {
  const workspaceDir = workspaceOfRunLog(runLog);
  const runId = path.basename(runLog, '.jsonl');
  return {
    runLog,
    workspaceDir,
    caseIds: command.caseIds,
    failed: command.failed,
    variants: command.variants,
    maxCalls: command.maxCalls,
    noCache: command.noCache,
    planOnly: command.planOnly,
    quiet: command.quiet,
    out: command.out ? path.resolve(command.out) : path.join(workspaceDir, '.rag-inspector', 'reports', runId),
    formats: command.formats,
    signal,
  };
}

/** Where a run's failures come from once Explain's evidence is in: each rag suite's split, then its notes. */
function formatFailureCauses(causes: RunFailureCauses): string {
  const lines = ['With Explain\'s evidence:'];
  for (const suite of causes.suites) {
    for (const table of suite.tables) lines.push(formatTable(table));
    lines.push(...suite.notes.map((note) => `  ${note}`));
  }
  lines.push(...causes.notes);
  return lines.join('\n');
}
