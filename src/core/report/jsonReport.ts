// The JSON report: the whole run (tables, thresholds, every case with its scores) for other tools to read; streamed case by case.
import { isTruncated } from '../model.js';
import type { RunData, RunEntry } from './runData.js';
import { spoolsIn, writeInOnePass } from './reportPass.js';
import type { ReportWriter, SpoolFactory } from './reportPass.js';
import { renderToString } from './textSink.js';
import type { TextSink } from './textSink.js';

export function renderJsonReport(run: RunData): Promise<string> {
  return renderToString((sink) => writeJsonReport(run, sink));
}

/**
 * The same text JSON.stringify(report, …, 2) gives, written one case at a time. JSON has no NaN or Infinity:
 * JSON.stringify writes them as null, so a reader never mistakes "undetermined" for a number (and without a replacer
 * it keeps its fast path).
 */
export function writeJsonReport(run: RunData, sink: TextSink): Promise<void> {
  return writeInOnePass(run, [jsonReportWriter(run, sink)]);
}

/**
 * The JSON report as a writer of one pass (reportPass.ts): the run's fields first, then each case as it comes. A live
 * run's fields are known only at its end, so its cases wait in a spool until then.
 */
export function jsonReportWriter(run: RunData, sink: TextSink, newSpool?: SpoolFactory): ReportWriter {
  const emptyTail = '[]\n}';
  let first = true;
  let headWritten = false;
  const cases = run.live ? (newSpool ?? spoolsIn())() : undefined;
  const writeHead = async () => {
    if (headWritten) return;
    headWritten = true;
    const head = JSON.stringify({
      format: 'rag-inspector-report',
      version: 1,
      runId: run.runId,
      name: run.name,
      specFile: run.specFile,
      createdAt: run.createdAt,
      status: run.status,
      models: run.models,
      totals: run.totals,
      thresholds: run.thresholds,
      problems: run.problems,
      reports: run.reports,
      cases: [],
    }, null, 2);
    await sink.write(head.slice(0, head.length - emptyTail.length));
  };
  return {
    async add(entry) {
      if (!cases) await writeHead();
      // An element of an array two levels deep: JSON.stringify indents its lines by four more spaces.
      const text = JSON.stringify(caseJson(entry), null, 2).replace(/\n/g, '\n    ');
      await (cases ?? sink).write(`${first ? '[\n' : ',\n'}    ${text}`);
      first = false;
    },
    async finish() {
      await writeHead();
      if (cases) {
        await cases.copyTo(sink);
        await cases.dispose();
      }
      await sink.write(first ? emptyTail : '\n  ]\n}');
    },
    dispose: async () => cases?.dispose(),
  };
}

function caseJson({ evalCase, result }: RunEntry) {
  return {
    caseId: result.caseId,
    suiteId: evalCase?.suiteId,
    testbed: evalCase?.testbed,
    row: evalCase?.row,
    modelKey: result.modelKey,
    question: evalCase?.question,
    status: result.status,
    pass: result.pass,
    response: result.response?.text,
    scores: result.scores,
    error: result.error,
    usage: result.response?.usage,
    latencyMs: result.response?.latencyMs,
    costUsd: result.response?.costUsd,
    cached: result.response?.cached,
    finishReason: result.response?.finishReason,
    truncated: result.response ? isTruncated(result.response) : undefined,
    params: evalCase?.params,
  };
}
