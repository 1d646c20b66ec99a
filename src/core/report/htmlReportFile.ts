// The standalone HTML report written as a stream: every case in the list, full details for as many as a size budget
// allows (failures first), so a 100,000-case run gives a page a browser can open and a writer that stays flat.
import type { CaseDetail, RunDetail } from './viewModel.js';
import { caseListItem } from './caseItems.js';
import { escapeJsonForHtml, htmlReportFrame, reportDataOpening } from './html.js';
import { runDetailOf } from './inspectorRun.js';
import { spoolsIn, writeInOnePass } from './reportPass.js';
import type { ReportWriter, SpoolFactory } from './reportPass.js';
import { ErrorCauseTally } from '../errorCauses.js';
import type { RunData } from './runData.js';
import type { TextSink } from './textSink.js';
import type { InputProblem } from '../model.js';
import { isFailure } from '../model.js';
import { NumberColumn } from '../suites/aggregator.js';
import { ExplainedItems, explanationOfRunLog } from './explainedItems.js';

/**
 * Case details embedded at most, in characters of JSON. A case with its documents and response is 2–10 KB, so
 * ~20 MB is a few thousand cases: a page that opens in seconds. The run log keeps them all.
 */
export const DEFAULT_DETAIL_BUDGET = 20 * 1024 * 1024;

export interface HtmlReportOptions {
  css?: string;
  detailBudget?: number;
}

export function writeHtmlReport(run: RunData, sink: TextSink, webviewBundleJs: string, options: HtmlReportOptions = {}, spool: SpoolFactory = spoolsIn()): Promise<void> {
  return writeInOnePass(run, [htmlReportWriter(run, sink, webviewBundleJs, options, spool)]);
}

/**
 * The HTML report in one pass (reportPass.ts). The data element opens with what only the end knows (the error causes,
 * how many details fit), so the list items and the details are spooled as they come: each listed case's size is kept
 * (8 bytes, negative for a failure) and its detail spooled unless it is over the whole budget on its own. At the end
 * the details chosen — failures first, then the others in log order, while they fit — are copied out of the spool in
 * log order. A case left out is still listed with its outcome and score; opening it says it is not in this report,
 * and a problem at the top of the report says how many were embedded and where the rest are.
 */
export function htmlReportWriter(run: RunData, sink: TextSink, webviewBundleJs: string, options: HtmlReportOptions, newSpool: SpoolFactory): ReportWriter {
  const budget = options.detailBudget ?? DEFAULT_DETAIL_BUDGET;
  const items = newSpool();
  const details = newSpool();
  const sizes = new NumberColumn();
  const causes = new ErrorCauseTally();
  const dispose = async () => {
    await items.dispose();
    await details.dispose();
  };
  // Read once, before the first case, so each listed case shows Explain's cause when it was explained.
  // The run's tables are read only when it was explained: a run being written live has none until its end.
  const explaining = explanationOfRunLog(run.logFile, run.runId).then((explained) => ({ ...explained, items: new ExplainedItems(explained.explanation, explained.explanation ? run.reports : []) }));
  // The page's head and the inspector bundle depend on nothing the cases hold: written at once, so a run written live
  // does it while it waits on its first calls instead of after its last case.
  const { before, after } = htmlReportFrame(run.name, webviewBundleJs, options.css);
  const head = sink.write(before);
  head.catch(() => undefined);
  return {
    async add({ evalCase, result }) {
      if (result.status === 'error') causes.add(result);
      if (!evalCase) return; // a result without its case cannot be shown; the log reader reports such lines
      const item = (await explaining).items.item(caseListItem(evalCase, result), { evalCase, result });
      await items.write(`${sizes.length === 0 ? '' : ','}${escapeJsonForHtml(JSON.stringify(item))}`);
      const caseDetail: CaseDetail = { runId: run.runId, evalCase, result };
      const json = JSON.stringify(caseDetail);
      // One line per listed case, escaped for the page (JSON holds no raw newline), each after a newline but the first:
      // when every detail fits, the spool is copied as it is with its newlines as commas. One that cannot fit any budget
      // is left empty.
      await details.write(`${sizes.length === 0 ? '' : '\n'}${json.length <= budget ? escapeJsonForHtml(json) : ''}`);
      sizes.push(isFailure(result) ? -json.length : json.length);
    },
    async finish() {
      const { embedded, listed } = chooseEmbedded(sizes, budget);
      const notes: InputProblem[] = embedded.size < listed ? [embeddingNote(run, embedded.size, listed, budget)] : [];
      const explained = await explaining;
      if (explained.problem) notes.push(explained.problem);
      const detail: Omit<RunDetail, 'cases'> = { ...runDetailOf(run), reports: explained.explanation ? explained.items.reports() : run.reports, errorCauses: causes.list() };
      await head;
      await sink.write(escapeJsonForHtml(reportDataOpening({ ...detail, problems: [...notes, ...detail.problems] })));
      await sink.write('[');
      await items.copyTo(sink);
      await items.dispose();
      await sink.write(']},"cases":[');
      if (embedded.size === listed) {
        await details.copyTo(sink, ',');
      } else {
        let first = true;
        let index = -1;
        for await (const json of details.lines()) {
          index += 1;
          if (!embedded.has(index)) continue;
          await sink.write(`${first ? '' : ','}${json}`);
          first = false;
        }
      }
      await details.dispose();
      // The run's explanation goes after the cases (StaticRun.explanation), so explained cases show their attribution.
      await sink.write(`]${explained.explanation ? `,"explanation":${escapeJsonForHtml(JSON.stringify(explained.explanation))}` : ''}}]}${after}`);
    },
    dispose,
  };
}

/**
 * Failures first (what a reader opens the report for), then the others in log order, while they fit the budget. Kept
 * per listed case: its size, negative for a failure (8 bytes), not its key; the chosen ones are their positions in
 * the list, at most as many as the budget holds.
 */
function chooseEmbedded(sizes: NumberColumn, budget: number): { embedded: Set<number>; listed: number } {
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
