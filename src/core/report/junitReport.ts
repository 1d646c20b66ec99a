// The JUnit XML report, so CI systems show each case as a test: failures carry what failed and the response.
import { failureMessage } from './runData.js';
import type { RunData } from './runData.js';

export function renderJunitReport(run: RunData): string {
  const bySuite = new Map<string, RunData['results'][number][]>();
  for (const result of run.results) {
    const suiteId = run.cases.get(result.caseId)?.suiteId ?? 'unknown';
    bySuite.set(suiteId, [...(bySuite.get(suiteId) ?? []), result]);
  }
  const suites = [...bySuite].map(([suiteId, results]) => {
    const failures = results.filter((r) => r.status === 'success' && r.pass === false).length;
    const errors = results.filter((r) => r.status === 'error').length;
    const seconds = results.reduce((s, r) => s + (r.response?.latencyMs ?? 0), 0) / 1000;
    const cases = results.map((result) => {
      const evalCase = run.cases.get(result.caseId);
      const attributes = `name="${xml(`${result.caseId} [${result.modelKey}]`)}" classname="${xml(`${run.name}.${suiteId}`)}" time="${((result.response?.latencyMs ?? 0) / 1000).toFixed(3)}"${evalCase ? ` file="${xml(evalCase.row.file)}" line="${evalCase.row.line}"` : ''}`;
      const output = `<system-out>${xml(`Question: ${evalCase?.question ?? ''}\nResponse: ${result.response?.text ?? ''}`)}</system-out>`;
      if (result.status === 'error') {
        return `    <testcase ${attributes}>\n      <error message="${xml(failureMessage(result))}" type="${xml(result.error?.kind ?? 'error')}"/>\n      ${output}\n    </testcase>`;
      }
      if (result.pass === false) {
        return `    <testcase ${attributes}>\n      <failure message="${xml(failureMessage(result))}" type="assertion">${xml(failureMessage(result))}</failure>\n      ${output}\n    </testcase>`;
      }
      return `    <testcase ${attributes}>\n      ${output}\n    </testcase>`;
    });
    return `  <testsuite name="${xml(suiteId)}" tests="${results.length}" failures="${failures}" errors="${errors}" time="${seconds.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const thresholdSuite = run.thresholds.length === 0 ? '' : `\n  <testsuite name="thresholds" tests="${run.thresholds.length}" failures="${run.thresholds.filter((t) => !t.passed).length}" errors="0">\n${run.thresholds.map((t) => {
    const name = `${t.suiteId}.${t.metric} [${t.modelKey}]`;
    const bounds = [t.min !== undefined ? `>= ${t.min}` : '', t.max !== undefined ? `<= ${t.max}` : ''].filter(Boolean).join(' and ');
    return t.passed
      ? `    <testcase name="${xml(name)}" classname="${xml(run.name)}.thresholds"/>`
      : `    <testcase name="${xml(name)}" classname="${xml(run.name)}.thresholds">\n      <failure message="${xml(`${t.metric} = ${t.value ?? 'undetermined'}, required ${bounds}`)}"/>\n    </testcase>`;
  }).join('\n')}\n  </testsuite>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(run.name)}" tests="${run.results.length}">\n${suites.join('\n')}${thresholdSuite}\n</testsuites>\n`;
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
