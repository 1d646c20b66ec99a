// The JUnit XML report, so CI systems show each case as a test: failures carry what failed and the response; streamed.
import { failureMessage } from './runData.js';
import { OUTCOME_METRIC } from './pairedRows.js';
import type { RunData, RunEntry } from './runData.js';
import { spoolsIn, writeInOnePass } from './reportPass.js';
import type { ReportWriter, SpoolFactory } from './reportPass.js';
import type { Spool } from './spool.js';
import { renderToString } from './textSink.js';
import type { TextSink } from './textSink.js';

export function renderJunitReport(run: RunData): Promise<string> {
  return renderToString((sink) => writeJunitReport(run, sink));
}

interface SuiteCounts {
  tests: number;
  failures: number;
  errors: number;
  latencyMs: number;
}

export function writeJunitReport(run: RunData, sink: TextSink, spool: SpoolFactory = spoolsIn()): Promise<void> {
  return writeInOnePass(run, [junitReportWriter(run, sink, spool)]);
}

/**
 * The JUnit report in one pass (reportPass.ts): each suite's testcases are spooled as they come, since its
 * <testsuite> attributes (counts, time) come first; at the end each suite is written whole, in the order first seen.
 */
export function junitReportWriter(run: RunData, sink: TextSink, newSpool: SpoolFactory): ReportWriter {
  const bySuite = new Map<string, SuiteCounts & { cases: Spool }>();
  const dispose = async () => {
    for (const { cases } of bySuite.values()) await cases.dispose();
  };
  return {
    async add({ evalCase, result }) {
      const suiteId = evalCase?.suiteId ?? 'unknown';
      let counts = bySuite.get(suiteId);
      if (!counts) {
        counts = { tests: 0, failures: 0, errors: 0, latencyMs: 0, cases: newSpool() };
        bySuite.set(suiteId, counts);
      }
      await counts.cases.write(`${counts.tests === 0 ? '' : '\n'}${testcase(run, suiteId, evalCase, result)}`);
      counts.tests += 1;
      if (result.status === 'success' && result.pass === false) counts.failures += 1;
      if (result.status === 'error') counts.errors += 1;
      counts.latencyMs += result.response?.latencyMs ?? 0;
    },
    async finish() {
      await sink.write(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(run.name)}" tests="${run.caseCount}">\n`);
      let firstSuite = true;
      for (const [suiteId, counts] of bySuite) {
        await sink.write(`${firstSuite ? '' : '\n'}  <testsuite name="${xml(suiteId)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" time="${(counts.latencyMs / 1000).toFixed(3)}">\n`);
        firstSuite = false;
        await counts.cases.copyTo(sink);
        await counts.cases.dispose();
        await sink.write('\n  </testsuite>');
      }
      await sink.write(`${thresholdSuite(run)}${baselineSuite(run)}\n</testsuites>\n`);
    },
    dispose,
  };
}

/** The thresholds as one suite, a test each. */
function thresholdSuite(run: RunData): string {
  if (run.thresholds.length === 0) return '';
  return `\n  <testsuite name="thresholds" tests="${run.thresholds.length}" failures="${run.thresholds.filter((t) => !t.passed).length}" errors="0">\n${run.thresholds.map((t) => {
    const name = `${t.suiteId}.${t.metric} [${t.modelKey}]`;
    const bounds = [t.min !== undefined ? `>= ${t.min}` : '', t.max !== undefined ? `<= ${t.max}` : ''].filter(Boolean).join(' and ');
    return t.passed
      ? `    <testcase name="${xml(name)}" classname="${xml(run.name)}.thresholds"/>`
      : `    <testcase name="${xml(name)}" classname="${xml(run.name)}.thresholds">\n      <failure message="${xml(`${t.metric} = ${t.value ?? 'undetermined'}, required ${bounds}`)}"/>\n    </testcase>`;
  }).join('\n')}\n  </testsuite>`;
}

/** `run --baseline`: one test per suite and model, failed when its case verdicts got significantly worse, naming the broken cases. */
function baselineSuite(run: RunData): string {
  if (!run.baseline) return '';
  const { runId, comparison } = run.baseline;
  const rows = comparison.rows.filter((row) => row.metric === OUTCOME_METRIC);
  const testcases = rows.map((row) => {
    const name = `${row.suiteId} [${row.modelKey}] against ${runId}`;
    const open = `    <testcase name="${xml(name)}" classname="${xml(run.name)}.baseline">`;
    if (row.verdict !== 'worse') return `${open}\n      <system-out>${xml(row.sentence)}</system-out>\n    </testcase>`;
    const broken = comparison.brokenCases.filter((c) => c.suiteId === row.suiteId && c.modelKey === row.modelKey).map((c) => c.caseId);
    const message = `${row.sentence}: ${row.broken} case(s) went from pass to fail: ${broken.join(', ')}`;
    return `${open}\n      <failure message="${xml(message)}" type="regression">${xml(message)}</failure>\n    </testcase>`;
  });
  const failures = rows.filter((row) => row.verdict === 'worse').length;
  return `\n  <testsuite name="baseline" tests="${rows.length}" failures="${failures}" errors="0">\n${testcases.join('\n')}\n  </testsuite>`;
}

function testcase(run: RunData, suiteId: string, evalCase: RunEntry['evalCase'], result: RunEntry['result']): string {
  const attributes = `name="${xml(`${result.caseId} [${result.modelKey}]`)}" classname="${xml(`${run.name}.${suiteId}`)}" time="${((result.response?.latencyMs ?? 0) / 1000).toFixed(3)}"${evalCase ? ` file="${xml(evalCase.row.file)}" line="${evalCase.row.line}"` : ''}`;
  const output = `<system-out>${xml(`Question: ${evalCase?.question ?? ''}\nResponse: ${result.response?.text ?? ''}`)}</system-out>`;
  if (result.status === 'error') {
    return `    <testcase ${attributes}>\n      <error message="${xml(failureMessage(result))}" type="${xml(result.error?.kind ?? 'error')}"/>\n      ${output}\n    </testcase>`;
  }
  if (result.pass === false) {
    return `    <testcase ${attributes}>\n      <failure message="${xml(failureMessage(result))}" type="assertion">${xml(failureMessage(result))}</failure>\n      ${output}\n    </testcase>`;
  }
  return `    <testcase ${attributes}>\n      ${output}\n    </testcase>`;
}

/** Escapes for attributes and text, and drops characters XML 1.0 cannot carry at all (model output may hold them). */
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');
}
