// The vendor SDKs (OpenAI, Anthropic) and the OpenTelemetry exporter are loaded only by a run that uses them: the
// built CLI (dist/cli.js, `npm run test:unit` builds it) runs with a tracer preloaded that lists every file Node
// loaded, and the main bundles are checked not to contain the vendors' packages (else nothing would be loaded lazily).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { startOtlpReceiver } from '../../fixtures/otlpReceiver.js';
import type { OtlpReceiver } from '../../fixtures/otlpReceiver.js';
import { createWorkspace, rgbRows } from '../engine/workspace.js';

const REPO = path.resolve(__dirname, '../../..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const VENDOR_FILES = ['openai', 'anthropic', 'otel', 'lancedb'].map((name) => path.join(REPO, 'dist', 'vendor', `${name}.js`));

let server: FixtureServer;
let receiver: OtlpReceiver;
let tracerDir: string;

before(async () => {
  server = await startFixtureServer();
  receiver = await startOtlpReceiver();
  tracerDir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-loaded-'));
  // require.cache is every CommonJS file this process loaded; written when it exits, however it exits.
  writeFileSync(path.join(tracerDir, 'tracer.cjs'), "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_FILES, Object.keys(require.cache).join('\\n')));\n");
});
after(async () => {
  await server.close();
  await receiver.close();
  rmSync(tracerDir, { recursive: true, force: true });
});

/** Runs the built CLI on an eval file with these models (YAML list items) and returns which vendor files it loaded. */
async function vendorFilesLoaded(t: { after(fn: () => void): void }, models: string[], top = ''): Promise<string[]> {
  const ws = createWorkspace({
    rows: rgbRows(1),
    evalYaml: () => `version: 1\nname: lazy vendors\nmodels:\n${models.map((model) => `  - ${model}\n`).join('')}maxRetries: 0\n${top}suites:\n  - id: noise\n    method: rgb\n    dataset: data.jsonl\n    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }\n`,
  });
  t.after(() => ws.cleanup());
  const listFile = path.join(ws.dir, 'loaded.txt');
  const env = { PATH: process.env.PATH ?? '', HOME: tmpdir(), CI: 'true', LOADED_FILES: listFile, ANTHROPIC_API_KEY: 'sk-ant-fixture-0000' };
  // Asynchronously: the fixture server answering the CLI runs in this process. Rejects unless the run exits 0.
  await promisify(execFile)(process.execPath, ['--require', path.join(tracerDir, 'tracer.cjs'), CLI, 'run', ws.evalFile, '--no-cache', '--quiet'], { cwd: ws.dir, env, timeout: 60_000 });
  const loaded = readFileSync(listFile, 'utf8').split('\n');
  assert.ok(loaded.includes(CLI), `the tracer saw the CLI load: ${loaded.join(', ')}`);
  return VENDOR_FILES.filter((file) => loaded.includes(file)).map((file) => path.basename(file));
}

test('a one-case extractive run loads neither vendor SDK nor the OpenTelemetry exporter nor LanceDB', async (t) => {
  assert.deepEqual(await vendorFilesLoaded(t, ['extractive:bm25']), []);
});

test('each vendor bundle is loaded by the run that uses it, and only that one', async (t) => {
  const openai = `{ provider: openai-compatible, model: fixture-model, baseUrl: ${server.openaiBaseUrl} }`;
  const anthropic = `{ provider: anthropic, model: fixture-model, baseUrl: ${server.anthropicBaseUrl} }`;
  assert.deepEqual(await vendorFilesLoaded(t, [openai]), ['openai.js']);
  assert.deepEqual(await vendorFilesLoaded(t, [anthropic]), ['anthropic.js']);
  assert.deepEqual(await vendorFilesLoaded(t, ['extractive:bm25'], `export: { otlp: { endpoint: ${receiver.url} } }\n`), ['otel.js']);
  assert.equal(receiver.spans().length > 0, true, 'the export went out through the lazily loaded exporter');
});

test('the CLI and extension bundles contain none of the vendor packages', async () => {
  // The vector stores' clients too, and LanceDB with its apache-arrow (dist/vendor/lancedb.js).
  const vendorPackage = /node_modules\/(openai|@anthropic-ai\/sdk|@opentelemetry\/(?!semantic-conventions)[^/]+|@arizeai\/openinference-core|pg|@qdrant\/js-client-rest|@elastic\/elasticsearch|@opensearch-project\/opensearch|@lancedb\/lancedb|apache-arrow)\//;
  for (const [entry, external] of [['src/cli/main.ts', []], ['src/extension/extension.ts', ['vscode']]] as const) {
    const { metafile } = await build({ entryPoints: [path.join(REPO, entry)], bundle: true, write: false, metafile: true, outdir: tracerDir, platform: 'node', format: 'cjs', target: 'node20', external: [...external], logLevel: 'error' });
    const bundled = Object.keys(metafile.inputs).filter((input) => vendorPackage.test(input));
    assert.deepEqual(bundled, [], `${entry} bundles vendor code that should load on first use`);
  }
});
