// Hostile text (markup, script end tags, RTL overrides, zero-width characters, a 200 KB line) in documents and model output: through the engine into every report, unmangled and inert.
// Parsers: csv-parse (a dependency); sax and parse5 (dev dependencies) as strict XML and browser-grade HTML readers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseHtml } from 'parse5';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunOutcome } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { renderCsvReport } from '../../../src/core/report/csvReport.js';
import { REPORT_DATA_ELEMENT_ID, renderHtmlReport } from '../../../src/core/report/html.js';
import { inspectorRun } from '../../../src/core/report/inspectorRun.js';
import { renderJsonReport } from '../../../src/core/report/jsonReport.js';
import { renderJunitReport } from '../../../src/core/report/junitReport.js';
import { failureMessage } from '../../../src/core/report/runData.js';
import type { RunData } from '../../../src/core/report/runData.js';
import { loggedRun } from '../engine/loggedRun.js';
import type { LoggedRun } from '../engine/loggedRun.js';
import { runDataFromLog, runDataFromOutcome } from '../../../src/core/report/runDataSources.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { createWorkspace, evalYaml, fixtureModel, rgbRows, rowOf } from './builders.js';
import type { RgbRow, Workspace } from './builders.js';

const HOSTILE = {
  script: '</script><script>alert("x")</script><!--',
  img: '<img src=x onerror="alert(2)">',
  markup: '<b>bold</b> & &amp; "double" \'single\' <![CDATA[ ]]> ]]>',
  rtl: 'invoice\u202Egpj.exe\u202C and \u2066isolate\u2069',
  zeroWidth: 'zero\u200Bwidth\u200Cnon\u200Djoiner\uFEFFbom \u2028line\u2029para',
  csv: 'a,b;"c""d"\nsecond line\r\nthird,',
};
const HUGE_LINE = `${'All work and no play. '.repeat(9_000)}${HOSTILE.script}`;
const ALL = Object.values(HOSTILE).join(' ');

/** Row i: a question and passages full of hostile text around the answer "Answer<i>". */
function hostileRows(count: number): RgbRow[] {
  return rgbRows(count).map((row) => ({
    ...row,
    query: `${row.query} ${HOSTILE.img} ${HOSTILE.rtl}`,
    positive: [`Landmark number ${row.id} is in Answer${row.id}. ${HOSTILE.script} ${HOSTILE.zeroWidth}`, `${HOSTILE.markup} ${HOSTILE.csv}`, row.id === 0 ? HUGE_LINE : ALL],
  }));
}

/** Even rows answer correctly (passed), odd rows do not (failures in JUnit); row 0's answer is one 200 KB line. */
function reply(row: number): string {
  const answer = row % 2 === 0 ? `It is in Answer${row}.` : 'It is somewhere else.';
  return `${HOSTILE.img} ${answer} ${ALL}${row === 0 ? ` ${HUGE_LINE}` : ''}`;
}

let server: FixtureServer;
let ws: Workspace;
let outcome: RunOutcome;
let fromLog: RunData;
let logged: LoggedRun;
const ROWS = hostileRows(4);

before(async () => {
  server = await startFixtureServer({ rules: [{ match: (req) => rowOf(req) !== undefined, reply: (req) => reply(rowOf(req)!) }] });
  ws = createWorkspace({ rows: ROWS, evalYaml: () => evalYaml({ models: [fixtureModel(server.openaiBaseUrl, 'streamed', { stream: true }), fixtureModel(server.openaiBaseUrl, 'plain')] }) });
  outcome = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });
  logged = await loggedRun(outcome);
  fromLog = await runDataFromLog(outcome.logFile);
});
after(async () => {
  ws.cleanup();
  await server.close();
});

const rowNumber = (caseId: string) => Number(/^noise\/(\d+)\//.exec(caseId)?.[1]);

test('documents reach the model and the run log, and replies come back, character for character', async () => {
  assert.equal(logged.results.length, ROWS.length * 2);
  for (const row of ROWS) {
    const request = server.requests.find((r) => rowOf(r) === row.id);
    for (const passage of row.positive) assert.ok(request?.text.includes(passage as string), `row ${row.id}: a passage was altered on its way to the model`);
  }
  const log = await readRunLog(outcome.logFile);
  assert.equal(log.cases.length, ROWS.length * 2);
  for (const { case: evalCase, result } of log.cases) {
    const row = ROWS[rowNumber(evalCase.id)]!;
    assert.equal(evalCase.question, row.query);
    assert.deepEqual(evalCase.documents.map((d) => d.text).sort(), [...(row.positive as string[])].sort());
    assert.equal(result.status, 'success');
    assert.equal(result.response?.text, reply(row.id), `${evalCase.id} on ${result.modelKey}`);
    assert.equal(result.pass, row.id % 2 === 0);
  }
});

test('JSON report: every question and response parses back unchanged, from the live run and from the log', async () => {
  for (const run of [await runDataFromOutcome(outcome), fromLog]) {
    const report = JSON.parse(await renderJsonReport(run)) as { cases: { caseId: string; question: string; response: string }[] };
    assert.equal(report.cases.length, ROWS.length * 2);
    for (const entry of report.cases) {
      assert.equal(entry.question, ROWS[rowNumber(entry.caseId)]!.query);
      assert.equal(entry.response, reply(rowNumber(entry.caseId)));
    }
  }
});

test('CSV report: round-trips through csv-parse, quotes, commas, CR/LF and all', async () => {
  const rows = parseCsv(await renderCsvReport(fromLog), { columns: true, relax_column_count: false }) as Record<string, string>[];
  assert.equal(rows.length, ROWS.length * 2);
  for (const row of rows) {
    const i = rowNumber(row.case_id!);
    assert.equal(row.question, ROWS[i]!.query);
    assert.equal(row.response, reply(i));
    assert.equal(row.pass, String(i % 2 === 0));
  }
});

interface SaxParser {
  onerror: (error: Error) => void;
  onopentag: (node: { name: string; attributes: Record<string, string> }) => void;
  onclosetag: (name: string) => void;
  ontext: (text: string) => void;
  oncdata: (text: string) => void;
  write(xml: string): SaxParser;
  close(): void;
}

/** Parses with sax in strict mode (any well-formedness error throws) and collects each testcase's parts. */
function junitCases(xml: string): Map<string, { out: string; failure?: string }> {
  const sax = createRequire(__filename)('sax') as { parser(strict: boolean, options: object): SaxParser };
  const parser = sax.parser(true, {});
  const cases = new Map<string, { out: string; failure?: string }>();
  let current: { out: string; failure?: string } | undefined;
  let inOut = false;
  parser.onerror = (error) => { throw error; };
  parser.onopentag = (node) => {
    if (node.name === 'testcase') cases.set(node.attributes.name!, (current = { out: '' }));
    if (node.name === 'failure' && current) current.failure = node.attributes.message;
    inOut = node.name === 'system-out';
  };
  parser.onclosetag = () => { inOut = false; };
  parser.ontext = (text) => { if (inOut && current) current.out += text; };
  parser.oncdata = () => assert.fail('no CDATA section: text is escaped');
  parser.write(xml).close();
  return cases;
}

test('JUnit report: well-formed XML whose text and failure messages read back exactly', async () => {
  const cases = junitCases(await renderJunitReport(fromLog));
  assert.equal(cases.size, ROWS.length * 2);
  for (const result of (await loggedRun(outcome)).results) {
    const i = rowNumber(result.caseId);
    const parsed = cases.get(`${result.caseId} [${result.modelKey}]`);
    assert.equal(parsed?.out, `Question: ${ROWS[i]!.query}\nResponse: ${reply(i)}`);
    assert.equal(parsed?.failure, i % 2 === 0 ? undefined : failureMessage(result));
  }
});

interface HtmlNode {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: HtmlNode[];
  content?: HtmlNode;
  value?: string;
}

function elements(node: HtmlNode): HtmlNode[] {
  const children = [...(node.childNodes ?? []), ...(node.content ? [node.content] : [])];
  return [node, ...children.flatMap(elements)];
}

test('HTML report: the data block parses back to the same run, nothing in it ends the script element or adds markup', async () => {
  const { detail, cases } = await inspectorRun(fromLog);
  const html = renderHtmlReport(detail, [...cases.values()], 'document.title;');
  const all = elements(parseHtml(html) as unknown as HtmlNode);
  const scripts = all.filter((n) => n.nodeName === 'script');
  assert.equal(scripts.length, 2, 'the data block and the bundle; no script injected');
  assert.equal(html.match(/<\/script/gi)?.length, 2, 'no raw "</script" but the two closing tags');
  assert.deepEqual(all.filter((n) => n.nodeName === 'img' || n.attrs?.some((a) => /^on/i.test(a.name))), [], 'no element or handler from the data');
  const data = scripts.find((n) => n.attrs?.some((a) => a.name === 'id' && a.value === REPORT_DATA_ELEMENT_ID));
  const text = (data?.childNodes ?? []).map((n) => n.value ?? '').join('');
  const parsed = JSON.parse(text) as { runs: { detail: unknown; cases: unknown[] }[] };
  assert.deepEqual(parsed.runs[0], JSON.parse(JSON.stringify({ detail, cases: [...cases.values()] })));
  const responses = (parsed.runs[0]!.cases as { evalCase: { id: string }; result: { response: { text: string } } }[]).map((c) => [c.result.response.text, reply(rowNumber(c.evalCase.id))]);
  for (const [got, want] of responses) assert.equal(got, want);
});
