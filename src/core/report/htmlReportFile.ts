// The standalone HTML report written as a stream: every case in the list, full details for as many as a size budget
// allows (failures first), so a 100,000-case run gives a page a browser can open and a writer that stays flat.
import type { CaseDetail, RunDetail } from './viewModel.js';
import { caseListItem } from './caseItems.js';
import { escapeJsonForHtml, htmlReportFrame, reportDataOpening } from './html.js';
import { errorCausesOfRun, runDetailOf } from './inspectorRun.js';
import type { RunData } from './runData.js';
import type { TextSink } from './textSink.js';
import type { InputProblem } from '../model.js';
import { isFailure } from '../model.js';
import { NumberColumn } from '../suites/aggregator.js';
import { describeError } from '../errors.js';
import { explanationFileOfRunLog, readExplanation } from '../explain/explainRun.js';
import type { RunExplanation } from '../explain/model.js';

/**
 * Case details embedded at most, in characters of JSON. A case with its documents and response is 2–10 KB, so
 * ~20 MB is a few thousand cases: a page that opens in seconds. The run log keeps them all.
 */
export const DEFAULT_DETAIL_BUDGET = 20 * 1024 * 1024;

export interface HtmlReportOptions {
  css?: string;
  detailBudget?: number;
}

/**
 * Three passes over the run's cases: sizes (to choose which details fit), the list items, the chosen details. A case
 * left out is still listed with its outcome and score; opening it says it is not in this report, and a problem at the
 * top of the report says how many were embedded and where the rest are.
 */
export async function writeHtmlReport(run: RunData, sink: TextSink, webviewBundleJs: string, options: HtmlReportOptions = {}): Promise<void> {
  const budget = options.detailBudget ?? DEFAULT_DETAIL_BUDGET;
  const { embedded, listed } = await chooseEmbedded(run, budget);
  const notes: InputProblem[] = embedded.size < listed ? [embeddingNote(run, embedded.size, listed, budget)] : [];
  const explained = await explanationOf(run);
  if (explained.problem) notes.push(explained.problem);
  const detail: Omit<RunDetail, 'cases'> = { ...runDetailOf(run), errorCauses: await errorCausesOfRun(run) };
  const { before, after } = htmlReportFrame(run.name, webviewBundleJs, options.css);
  await sink.write(before);
  await sink.write(escapeJsonForHtml(reportDataOpening({ ...detail, problems: [...notes, ...detail.problems] })));
  await sink.write('[');
  let first = true;
  for await (const { evalCase, result } of run.entries()) {
    if (!evalCase) continue; // a result without its case cannot be shown; the log reader reports such lines
    await sink.write(`${first ? '' : ','}${escapeJsonForHtml(JSON.stringify(caseListItem(evalCase, result)))}`);
    first = false;
  }
  await sink.write(']},"cases":[');
  first = true;
  // The n-th listed case of this pass is the n-th of the sizing pass: the log is read in the same order each time.
  let index = -1;
  for await (const { evalCase, result } of run.entries()) {
    if (!evalCase) continue;
    index += 1;
    if (!embedded.has(index)) continue;
    const caseDetail: CaseDetail = { runId: run.runId, evalCase, result };
    await sink.write(`${first ? '' : ','}${escapeJsonForHtml(JSON.stringify(caseDetail))}`);
    first = false;
  }
  // The run's explanation goes after the cases (StaticRun.explanation), so explained cases show their attribution.
  await sink.write(`]${explained.explanation ? `,"explanation":${escapeJsonForHtml(JSON.stringify(explained.explanation))}` : ''}}]}${after}`);
}

/** The run's stored explanation (.rag-inspector/explanations/<run-id>.json beside its log), when it was explained. */
async function explanationOf(run: RunData): Promise<{ explanation?: RunExplanation; problem?: InputProblem }> {
  if (!run.logFile) return {};
  const file = explanationFileOfRunLog(run.logFile, run.runId);
  try {
    const explanation = await readExplanation(file);
    return explanation ? { explanation } : {};
  } catch (error) {
    // A report without the explanation is still the run's report; say why it is missing.
    return { problem: { file, message: `the run's explanation could not be read: ${describeError(error)}`, hint: 'explain the run again (rag-inspector explain)' } };
  }
}

/**
 * Failures first (what a reader opens the report for), then the others in log order, while they fit the budget. Kept
 * per listed case: its size, negative for a failure (8 bytes), not its key; the chosen ones are their positions in
 * the list, at most as many as the budget holds.
 */
async function chooseEmbedded(run: RunData, budget: number): Promise<{ embedded: Set<number>; listed: number }> {
  const sizes = new NumberColumn();
  for await (const { evalCase, result } of run.entries()) {
    if (!evalCase) continue;
    const size = JSON.stringify({ runId: run.runId, evalCase, result }).length;
    sizes.push(isFailure(result) ? -size : size);
  }
  const all = sizes.toArray();
  const embedded = new Set<number>();
  let used = 0;
  for (const failures of [true, false]) {
    all.forEach((signed, index) => {
      const size = Math.abs(signed);
      if (signed < 0 !== failures || used + size > budget) return;
      used += size;
      embedded.add(index);
    });
  }
  return { embedded, listed: all.length };
}

function embeddingNote(run: RunData, embedded: number, listed: number, budget: number): InputProblem {
  const where = run.logFile ?? 'the run log';
  return {
    file: where,
    message: `this report lists all ${listed} cases but embeds the full details (documents, prompt, response) of ${embedded} of them, failures first, to stay under ${Math.round(budget / (1024 * 1024))} MB; the run log has every case`,
    hint: `open the run in VS Code's RAG Inspector panel (RAG Inspector: Open Inspector), or read ${where}`,
  };
}
