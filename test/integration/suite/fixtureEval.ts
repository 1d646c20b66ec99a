// An eval file in the test workspace whose model is the fixture LLM server running in this (extension host) process.
import * as vscode from 'vscode';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer, Rule } from '../../fixtures/llmServer.js';

/** Ends with a script tag pair, so reports that embed it must keep it inert. */
export const HOSTILE_ANSWER = 'Saturn is the largest planet.</script><script>window.__ragInspectorPwned = 1</script><!--';

/**
 * The three rows of the workspace's questions.jsonl at noise ratio 0 (one case each): Canberra is answered right,
 * the planet question wrong (with markup in the answer), and the sodium question gets an HTTP 400 (a model error).
 */
export const DEFAULT_RULES: Rule[] = [
  { match: { contains: 'capital of Australia' }, reply: 'Canberra is the capital of Australia.' },
  { match: { contains: 'largest in the Solar System' }, reply: HOSTILE_ANSWER },
  { match: { contains: 'chemical symbol Na' }, fault: { kind: 'status', status: 400, body: { error: { message: 'fixture: bad request', type: 'invalid_request_error' } } } },
];

export interface FixtureEval {
  server: FixtureServer;
  uri: vscode.Uri;
  dispose(): Promise<void>;
}

/** Writes `<name>.eval.yaml` beside the workspace's questions.jsonl and qa.prompt, pointed at a fresh fixture server. */
export async function fixtureEval(name: string, options: {
  model?: string; rules?: Rule[]; latencyMs?: number; noiseRates?: number[]; concurrency?: number;
  /** USD per million tokens by provider or model, as the eval file's `prices` (the cost question needs a price). */
  prices?: Record<string, { input: number; output: number }>;
  /** The eval file's `export.otlp`: where Export Report sends traces, with one header read from an environment variable. */
  otlp?: { endpoint: string; headerEnv?: string };
} = {}): Promise<FixtureEval> {
  const server = await startFixtureServer({ rules: options.rules ?? DEFAULT_RULES, latencyMs: options.latencyMs ?? 0 });
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('the test workspace is not open');
  const uri = vscode.Uri.joinPath(folder, `${name}.eval.yaml`);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode([
    'version: 1',
    `name: ${name}`,
    'models:',
    `  - { provider: openai-compatible, model: ${options.model ?? 'fixture-model'}, baseUrl: "${server.openaiBaseUrl}" }`,
    'maxRetries: 0',
    `concurrency: ${options.concurrency ?? 2}`,
    ...(options.prices ? [`prices: ${JSON.stringify(options.prices)}`] : []),
    ...(options.otlp ? [`export: { otlp: { endpoint: "${options.otlp.endpoint}"${options.otlp.headerEnv ? `, headers: { x-collector-key: { env: ${options.otlp.headerEnv} } }` : ''} } }`] : []),
    'suites:',
    '  - id: noise-en',
    '    method: rgb',
    '    template: qa.prompt',
    '    dataset: questions.jsonl',
    `    params: { testbed: noise_robustness, language: en, noiseRates: [${(options.noiseRates ?? [0]).join(', ')}] }`,
    '',
  ].join('\n')));
  return {
    server,
    uri,
    async dispose() {
      await server.close();
      await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    },
  };
}

