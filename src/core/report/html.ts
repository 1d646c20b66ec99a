// The standalone HTML report: one file holding the inspector webview bundle and the run's data, readable offline.
import { createHash } from 'node:crypto';
import type { CaseDetail, RunDetail } from './viewModel.js';

/**
 * The data element the webview's staticApi reads. Same shape as webview/api/staticData.ts, kept as a copy
 * because core may not import the webview; test/webview/report.test.ts opens a real report in Chromium.
 */
export const REPORT_DATA_ELEMENT_ID = 'rag-inspector-data';
const REPORT_DATA_FORMAT = 'rag-inspector/static';
const REPORT_DATA_VERSION = 1;

/**
 * Builds the report. `webviewBundleJs` is dist/webview.js; `css` is optional extra styling (the bundle
 * styles itself and falls back to VS Code's default colours, light or dark after the reader's system).
 */
export function renderHtmlReport(detail: RunDetail, cases: CaseDetail[], webviewBundleJs: string, css?: string): string {
  const data = { format: REPORT_DATA_FORMAT, version: REPORT_DATA_VERSION, runs: [{ detail, cases }] };
  const { before, after } = htmlReportFrame(detail.listing.name, webviewBundleJs, css);
  return `${before}${escapeJsonForHtml(JSON.stringify(data))}${after}`;
}

/** The JSON of the data element up to where the run's list items go, for a writer that streams them (htmlReportFile.ts). */
export function reportDataOpening(detail: Omit<RunDetail, 'cases'>): string {
  const opening = JSON.stringify({ format: REPORT_DATA_FORMAT, version: REPORT_DATA_VERSION, runs: [{ detail: { ...detail, cases: [] } }] });
  const tail = '[]}}]}';
  if (!opening.endsWith(tail)) throw new Error('report data: cases must be the last field of the run detail');
  // Then: list items, "]}", ',"cases":[', case details, "]}]}".
  return opening.slice(0, opening.length - tail.length);
}

/** The page around the data element's JSON: everything before it and everything after. */
export function htmlReportFrame(name: string, webviewBundleJs: string, css?: string): { before: string; after: string } {
  const script = escapeScriptText(stripSourceMapComment(webviewBundleJs));
  const style = css ? escapeStyleText(css) : undefined;
  // Hashes rather than 'unsafe-inline': the only code the page may run is the bundle written here.
  const csp = [
    "default-src 'none'",
    `script-src '${sha256(script)}'`,
    style ? `style-src '${sha256(style)}'` : "style-src 'none'",
    'img-src data:',
  ].join('; ');
  const before = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="generator" content="RAG Inspector">
<title>RAG Inspector — ${escapeText(name)}</title>
${style === undefined ? '' : `<style>${style}</style>\n`}<script type="application/json" id="${REPORT_DATA_ELEMENT_ID}">`;
  const after = `</script>
</head>
<body>
<noscript>This report is an interactive page: open it in a browser with JavaScript enabled.</noscript>
<script type="module">${script}</script>
</body>
</html>
`;
  return { before, after };
}

/**
 * JSON inside <script> ends at the first "</script" whatever the JSON means, and "<!--" changes how the
 * parser looks for it; escaping every "<", ">" and "&" as \u003c etc. keeps the text valid JSON that no
 * document or model output can break out of. U+2028/2029 are escaped for older JavaScript parsers.
 */
export function escapeJsonForHtml(json: string): string {
  // One pass, and none over a text with nothing to escape (most of a report's case details).
  return HTML_UNSAFE.test(json) ? json.replace(HTML_UNSAFE_ALL, (char) => HTML_ESCAPES[char] ?? char) : json;
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/;
const HTML_UNSAFE_ALL = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * The bundle is code we built, but a library may hold a string such as "</script>" or "<!--". "\x3C" is "<" in
 * JavaScript strings, template literals and regular expressions (with or without the u flag), so replacing
 * that one character keeps the code's meaning while the HTML parser no longer sees a tag or a comment.
 */
export function escapeScriptText(js: string): string {
  return js.replace(/<(\/script|!--)/gi, '\\x3C$1');
}

/** "<" has no meaning in CSS outside strings, where the escape "\3c " means the same; the element then holds no "<". */
function escapeStyleText(css: string): string {
  return css.replace(/</g, '\\3c ');
}

function stripSourceMapComment(js: string): string {
  // The map file is not shipped with the report, and a dangling URL only produces console noise.
  return js.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
