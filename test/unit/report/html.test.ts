// The standalone HTML report: data that contains "</script>" or "<!--" cannot break out of its JSON element,
// the bundle cannot either, and the CSP hash matches the script the page holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { escapeJsonForHtml, escapeScriptText, renderHtmlReport } from '../../../src/core/report/html.js';
import type { CaseDetail, RunDetail } from '../../../src/protocol.js';

const HOSTILE = '</script><script>alert(1)</script><!-- <script> \u2028 & </SCRIPT >';

function run(): { detail: RunDetail; cases: CaseDetail[] } {
  const detail: RunDetail = {
    listing: { runId: 'r1', name: 'Run <b>&</b> "quoted"', createdAt: '2025-05-01T10:00:00.000Z', status: 'success', models: ['m'] },
    reports: [], thresholds: [], problems: [{ file: '/x</script>.jsonl', line: 2, message: HOSTILE }],
    cases: [{ key: 'c1\u0000m', caseId: 'c1', suiteId: 's', modelKey: 'm', status: 'success', pass: false, summary: HOSTILE, question: HOSTILE, roles: ['negative'] }],
  };
  const cases: CaseDetail[] = [{
    runId: 'r1',
    evalCase: {
      id: 'c1', suiteId: 's', method: 'rgb', row: { file: '/d.jsonl', line: 1, index: 0 }, question: HOSTILE,
      documents: [{ id: 'd0', role: 'negative', text: HOSTILE, spans: [] }], expected: HOSTILE, params: {}, variables: {}, messages: [{ role: 'user', content: HOSTILE }],
    },
    result: { caseId: 'c1', modelKey: 'm', status: 'success', response: { text: HOSTILE, usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, cached: false }, scores: [], attempts: 1, startedAt: '', finishedAt: '' },
  }];
  return { detail, cases };
}

/** The text of every <script ...> element, split the way an HTML parser ends a script: at the first "</script". */
function scripts(html: string): { open: string; body: string }[] {
  const found: { open: string; body: string }[] = [];
  const re = /<script\b([^>]*)>/gi;
  let match: RegExpExecArray | null;
  while ((match = re.exec(html))) {
    const start = match.index + match[0].length;
    const end = html.toLowerCase().indexOf('</script', start);
    found.push({ open: match[1]!, body: html.slice(start, end) });
    re.lastIndex = end;
  }
  return found;
}

test('the data element holds exactly the run, as JSON, whatever the run contains', () => {
  const { detail, cases } = run();
  const html = renderHtmlReport(detail, cases, 'console.log("bundle")');
  const elements = scripts(html);
  assert.equal(elements.length, 2, 'the data element and the bundle: no script was injected');
  assert.match(elements[0]!.open, /type="application\/json" id="rag-inspector-data"/);
  const data = JSON.parse(elements[0]!.body) as { runs: { cases: CaseDetail[] }[] };
  assert.deepEqual(data, { format: 'rag-inspector/static', version: 1, runs: [{ detail, cases }] });
  assert.equal(data.runs[0]?.cases[0]?.evalCase.documents[0]?.text, HOSTILE);
  assert.doesNotMatch(elements[0]!.body, /<|>|<!--/);
  assert.match(elements[1]!.open, /type="module"/);
});

test('the bundle cannot end its own element early, and still means the same code', () => {
  const bundle = 'const a = "</script><!--"; const b = /<\\/script>/u; const c = `<!-- ${a} </SCRIPT>`;\n//# sourceMappingURL=webview.js.map\n';
  const escaped = escapeScriptText(bundle);
  assert.doesNotMatch(escaped, /<\/script|<!--/i);
  // The escaped code evaluates to the same strings and pattern.
  const values = (code: string) => new Function(`${code.replace(/\/\/# sourceMappingURL=.*/, '')}; return [a, b.source, c];`)();
  assert.deepEqual(values(escaped), ['</script><!--', '<\\/script>', '<!-- </script><!-- </SCRIPT>']);
  const html = renderHtmlReport(run().detail, run().cases, bundle);
  assert.equal(scripts(html).length, 2);
  assert.doesNotMatch(html, /sourceMappingURL/);
});

test('the CSP allows only the embedded bundle, by hash, and no inline style unless given', () => {
  const { detail, cases } = run();
  const html = renderHtmlReport(detail, cases, 'console.log(1)');
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
  const body = scripts(html)[1]!.body;
  const hash = createHash('sha256').update(body, 'utf8').digest('base64');
  assert.ok(csp.includes(`script-src 'sha256-${hash}'`), csp);
  assert.ok(csp.includes("default-src 'none'"));
  assert.ok(csp.includes("style-src 'none'"));
  const styled = renderHtmlReport(detail, cases, 'console.log(1)', 'body { color: red } </style><script>alert(1)</script>');
  assert.equal(scripts(styled).length, 2, 'css cannot inject a script');
  assert.match(styled, /style-src 'sha256-/);
});

test('the title is escaped text', () => {
  const html = renderHtmlReport(run().detail, run().cases, '');
  assert.match(html, /<title>RAG Inspector — Run &lt;b&gt;&amp;&lt;\/b&gt; "quoted"<\/title>/);
});

test('escapeJsonForHtml keeps JSON valid and free of markup characters', () => {
  const value = { s: '<>&\u2028\u2029\\u003c' };
  const escaped = escapeJsonForHtml(JSON.stringify(value));
  assert.doesNotMatch(escaped, /[<>&\u2028\u2029]/);
  assert.deepEqual(JSON.parse(escaped), value);
});
