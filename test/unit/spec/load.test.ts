// Loading eval files: the normalised spec, shorthand models, defaults, and every error at its exact line:column.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { InputErrors } from '../../../src/core/errors.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { tempDir } from '../data/tempFiles.js';

/** An eval file in a folder that also holds data/en.jsonl and prompts/default.prompt. */
function evalFile(name: string, lines: string[]): string {
  const folder = path.join(tempDir(), 'project');
  mkdirSync(path.join(folder, 'data'), { recursive: true });
  mkdirSync(path.join(folder, 'prompts'), { recursive: true });
  writeFileSync(path.join(folder, 'data', 'en.jsonl'), '{"query": "q"}\n');
  writeFileSync(path.join(folder, 'prompts', 'default.prompt'), 'user:\n{{ question }}\n');
  const file = path.join(folder, name);
  writeFileSync(file, lines.join('\n'));
  return file;
}

async function loadErrors(file: string): Promise<string[]> {
  try {
    await loadEvalSpec(file);
  } catch (error) {
    assert.ok(error instanceof InputErrors, `expected InputErrors, got ${String(error)}`);
    return error.errors.map((problem) => problem.format().replaceAll(path.dirname(file), '<dir>'));
  }
  assert.fail('expected loadEvalSpec to throw');
}

const MINIMAL = ['version: 1', 'models: [extractive:bm25]', 'suites:', '  - id: noise-en', '    method: ragas', '    dataset: data/en.jsonl'];

test('a full eval file loads with paths resolved, shorthand and mapping models, thresholds and hash', async () => {
  const file = evalFile('full.eval.yaml', [
    'version: 1',
    'name: RGB example',
    'description: every field',
    'models:',
    '  - extractive:bm25',
    '  - provider: openai',
    '    model: gpt-4o-mini',
    '    label: mini',
    '    baseUrl: http://localhost:8080/v1',
    '    apiKeyEnv: MY_KEY',
    '    parameters: { temperature: 0.2, maxTokens: 300, custom: yes }',
    'judge: openai:gpt-4o',
    'embeddings: openai:text-embedding-3-small',
    'concurrency: 8',
    'rateLimit: { requestsPerMinute: 500, tokensPerMinute: 200000 }',
    'timeoutMs: 30000',
    'maxRetries: 2',
    'seed: 7',
    'prices: { "openai:gpt-4o-mini": { input: 0.15, output: 0.6 } }',
    'template: prompts/default.prompt',
    'dataset: data/en.jsonl',
    'suites:',
    '  - id: noise-en',
    '    method: rgb',
    '    limit: 10',
    '    params: { testbed: noise_robustness, noiseRates: [0, 0.4] }',
    '    thresholds: { accuracy: { min: 0.5 }, rej_star: { min: 0.1, max: 0.9 } }',
    '  - id: other.suite_2',
    '    method: llm-eval',
    '    dataset: ./data/../data/en.jsonl',
  ]);
  const folder = path.dirname(file);
  const spec = await loadEvalSpec(file);
  assert.deepEqual(spec, {
    version: 1,
    file,
    hash: createHash('sha256').update(readFileSync(file)).digest('hex'),
    name: 'RGB example',
    description: 'every field',
    models: [
      { provider: 'extractive', model: 'bm25', parameters: {} },
      { provider: 'openai', model: 'gpt-4o-mini', label: 'mini', baseUrl: 'http://localhost:8080/v1', apiKeyEnv: 'MY_KEY', parameters: { temperature: 0.2, maxTokens: 300, custom: 'yes' } },
    ],
    judge: { provider: 'openai', model: 'gpt-4o', parameters: {} },
    embeddings: { provider: 'openai', model: 'text-embedding-3-small', parameters: {} },
    suites: [
      {
        id: 'noise-en',
        method: 'rgb',
        dataset: path.join(folder, 'data', 'en.jsonl'),
        datasetFromDefault: true,
        template: path.join(folder, 'prompts', 'default.prompt'),
        params: { testbed: 'noise_robustness', noiseRates: [0, 0.4] },
        thresholds: [{ metric: 'accuracy', min: 0.5 }, { metric: 'rej_star', min: 0.1, max: 0.9 }],
        limit: 10,
      },
      {
        id: 'other.suite_2',
        method: 'llm-eval',
        dataset: path.join(folder, 'data', 'en.jsonl'),
        template: path.join(folder, 'prompts', 'default.prompt'),
        params: {},
        thresholds: [],
      },
    ],
    concurrency: 8,
    rateLimit: { requestsPerMinute: 500, tokensPerMinute: 200000 },
    timeoutMs: 30000,
    maxRetries: 2,
    seed: 7,
    prices: { 'openai:gpt-4o-mini': { input: 0.15, output: 0.6 } },
  });
});

test('shorthand models split at the first colon', async () => {
  const file = evalFile('short.eval.yaml', [...MINIMAL, 'judge: openai-compatible:llama3:8b']);
  const spec = await loadEvalSpec(file);
  assert.deepEqual(spec.judge, { provider: 'openai-compatible', model: 'llama3:8b', parameters: {} });
});

test('defaults: name from the file, concurrency 8, timeout 60 s, 4 retries, seed 2333, no template', async () => {
  const spec = await loadEvalSpec(evalFile('minimal.eval.yaml', MINIMAL));
  assert.equal(spec.name, 'minimal');
  assert.deepEqual(
    [spec.concurrency, spec.timeoutMs, spec.maxRetries, spec.seed, spec.rateLimit, spec.prices, spec.judge, spec.embeddings],
    [8, 60000, 4, 2333, {}, {}, undefined, undefined],
  );
  assert.equal(spec.suites[0]?.template, undefined);
  assert.deepEqual(spec.suites[0]?.params, {});
});

test('a wrong type is reported at the value with what was expected', async () => {
  const file = evalFile('type.eval.yaml', [...MINIMAL, 'concurrency: "8"']);
  assert.deepEqual(await loadErrors(file), [
    '<dir>/type.eval.yaml:7:14: concurrency has the wrong type — expected an integer (whole number), got the string "8"',
  ]);
});

test('an unknown key is reported at the key with a suggestion', async () => {
  const file = evalFile('typo.eval.yaml', ['version: 1', 'concurency: 3', ...MINIMAL.slice(1), '    limt: 2']);
  assert.deepEqual(await loadErrors(file), [
    "<dir>/typo.eval.yaml:2:1: unknown key 'concurency' — did you mean 'concurrency'?",
    "<dir>/typo.eval.yaml:8:5: unknown key 'limt' in suites[0] — did you mean 'limit'?",
  ]);
});

test('a typo inside a model mapping gets the mapping errors only', async () => {
  const file = evalFile('model-typo.eval.yaml', [
    'version: 1',
    'models:',
    '  - provider: openai',
    '    modle: gpt-4o',
    ...MINIMAL.slice(2),
  ]);
  assert.deepEqual(await loadErrors(file), [
    "<dir>/model-typo.eval.yaml:3:5: models[0] is missing 'model' — add 'model': model name as the provider knows it, e.g. gpt-4o-mini or llama3:8b.",
    "<dir>/model-typo.eval.yaml:4:5: unknown key 'modle' in models[0] — did you mean 'model'?",
  ]);
});

test('a model that is neither text nor a mapping, and a shorthand without a provider', async () => {
  const file = evalFile('model-kind.eval.yaml', ['version: 1', 'models: [42, gpt-4o]', ...MINIMAL.slice(2)]);
  assert.deepEqual(await loadErrors(file), [
    '<dir>/model-kind.eval.yaml:2:10: models[0] is not a model — write "provider:model" (e.g. openai:gpt-4o-mini) or a mapping with provider and model; got the integer 42',
    '<dir>/model-kind.eval.yaml:2:14: models[1] "gpt-4o" is not "provider:model" — write the provider, a colon and the model, e.g. openai:gpt-4o-mini or extractive:bm25',
  ]);
});

test('an unknown method is named with the closest one', async () => {
  const file = evalFile('method.eval.yaml', [...MINIMAL.slice(0, 4), '    method: rgbb', MINIMAL[5]!]);
  assert.deepEqual(await loadErrors(file), [
    '<dir>/method.eval.yaml:5:13: unknown method "rgbb" — did you mean \'rgb\'? use one of: rgb, needle, ifrag, ragas, llm-eval, stress, rag',
  ]);
});

test('a missing dataset or template is reported at the line of the path', async () => {
  const file = evalFile('paths.eval.yaml', ['template: prompts/nope.prompt', ...MINIMAL.slice(0, 5), '    dataset: data/missing.jsonl']);
  assert.deepEqual(await loadErrors(file), [
    '<dir>/paths.eval.yaml:1:11: template file not found: <dir>/prompts/nope.prompt — paths are relative to the eval file\'s folder (<dir>)',
    '<dir>/paths.eval.yaml:7:14: dataset file not found: <dir>/data/missing.jsonl — paths are relative to the eval file\'s folder (<dir>)',
  ]);
});

test('a duplicate suite id is reported at the second one', async () => {
  const file = evalFile('dup.eval.yaml', [...MINIMAL, '  - id: noise-en', '    method: needle']);
  assert.deepEqual(await loadErrors(file), [
    "<dir>/dup.eval.yaml:7:9: duplicate suite id 'noise-en' — it is already used on line 4; suite ids must be unique",
  ]);
});

test('missing required keys, bad ids, empty lists, ranges and version are all collected in file order', async () => {
  const file = evalFile('many.eval.yaml', [
    'version: 2',
    'models: []',
    'timeoutMs: 0',
    'suites:',
    '  - method: rgb',
    '  - id: has space',
    '    method: rgb',
    '    thresholds: { accuracy: {}, f1: { min: 0.9, max: 0.1 } }',
  ]);
  assert.deepEqual(await loadErrors(file), [
    '<dir>/many.eval.yaml:1:10: version must be 1 — this version of RAG Inspector reads version 1 files',
    '<dir>/many.eval.yaml:2:9: models is empty — list at least 1 entry',
    '<dir>/many.eval.yaml:3:12: timeoutMs is out of range — >= 1 expected, got 0',
    "<dir>/many.eval.yaml:5:5: suites[0] is missing 'id' — add 'id': unique name of this suite, used in case ids and reports. Letters, digits, \"_\", \".\" and \"-\".",
    '<dir>/many.eval.yaml:5:5: rgb params.testbed: missing — set it to one of noise_robustness, negative_rejection, information_integration, counterfactual_robustness',
    '<dir>/many.eval.yaml:6:5: rgb params.testbed: missing — set it to one of noise_robustness, negative_rejection, information_integration, counterfactual_robustness',
    '<dir>/many.eval.yaml:6:9: suite id "has space" has characters that are not allowed — use letters, digits, "_", "." and "-" only, e.g. noise-en',
    '<dir>/many.eval.yaml:8:29: suites[1].thresholds.accuracy is empty — give min, max or both, e.g. { min: 0.5 }',
    "<dir>/many.eval.yaml:8:37: threshold 'f1' has min 0.9 above max 0.1 — swap them, or drop one bound",
  ]);
});

test('a missing top-level key is reported at the start of the file', async () => {
  const file = evalFile('nosuites.eval.yaml', ['version: 1', 'models: [extractive:bm25]']);
  assert.deepEqual(await loadErrors(file), ["<dir>/nosuites.eval.yaml:1:1: the eval file is missing 'suites' — add 'suites': the evaluations to run."]);
});

test('a YAML syntax error stops with its line and column', async () => {
  const file = evalFile('syntax.eval.yaml', ['version: 1', 'models: [extractive:bm25', 'suites: []']);
  assert.deepEqual(await loadErrors(file), [
    '<dir>/syntax.eval.yaml:3:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] — check the indentation and quoting on this line',
  ]);
});

test('an empty or missing eval file is one clear error', async () => {
  assert.deepEqual(await loadErrors(evalFile('empty.eval.yaml', ['# nothing yet'])), [
    '<dir>/empty.eval.yaml:1:1: the eval file is empty — start with "version: 1", models and suites',
  ]);
  const missing = path.join(tempDir(), 'nope.eval.yaml');
  assert.deepEqual(await loadErrors(missing), [
    '<dir>/nope.eval.yaml: eval file not found — check the path, or create it with "RAG Inspector: Run Evaluation" and save the choices',
  ]);
});

test('an unknown provider is reported at its name, in shorthand and mapping models, the judge and embeddings', async () => {
  const file = evalFile('providers.eval.yaml', [
    'version: 1',
    'models:',
    '  - opnai:gpt-4o-mini',
    '  - provider: antropic',
    '    model: claude',
    '  - vscode-lm:copilot/gpt-4o',
    '  - provider: gemini',
    '    model: pro',
    'judge: "openai-compat:llama3"',
    'embeddings: anthropic:voyage',
    ...MINIMAL.slice(2),
  ]);
  const names = 'openai, openai-compatible, anthropic, extractive, or vscode-lm in VS Code';
  assert.deepEqual(await loadErrors(file), [
    `<dir>/providers.eval.yaml:3:5: unknown provider "opnai" for model "gpt-4o-mini" — did you mean 'openai'? use one of: ${names}`,
    `<dir>/providers.eval.yaml:4:15: unknown provider "antropic" for model "claude" — did you mean 'anthropic'? use one of: ${names}`,
    `<dir>/providers.eval.yaml:7:15: unknown provider "gemini" for model "pro" — use one of: ${names}`,
    `<dir>/providers.eval.yaml:9:8: unknown provider "openai-compat" for model "llama3" — did you mean 'openai-compatible'? use one of: ${names}`,
    '<dir>/providers.eval.yaml:10:13: provider "anthropic" cannot make embeddings for model "voyage" — use one of: openai, openai-compatible',
  ]);
});

test("a suite's params are checked by its method at load, each problem at its key or value", async () => {
  const file = evalFile('params.eval.yaml', [
    'version: 1',
    'models: [extractive:bm25]',
    'suites:',
    '  - id: unknown-key',
    '    method: rgb',
    '    dataset: data/en.jsonl',
    '    params: { testbed: noise_robustness, noiseRate: [0] }',
    '  - id: out-of-range',
    '    method: rgb',
    '    dataset: data/en.jsonl',
    '    params:',
    '      testbed: noise_robustness',
    '      noiseRates: [0, 1.5]',
    '  - id: wrong-type',
    '    method: needle',
    '    params:',
    '      buffer: lots',
    '  - id: nested',
    '    method: ragas',
    '    dataset: data/en.jsonl',
    '    params:',
    '      answerRelevancy: { strictnes: 3 }',
    '  - id: no-params',
    '    method: ifrag',
    '    dataset: data/en.jsonl',
    '  - id: fine',
    '    method: llm-eval',
    '    dataset: data/en.jsonl',
    '    params: { scale: "0-100" }',
  ]);
  assert.deepEqual(await loadErrors(file), [
    "<dir>/params.eval.yaml:7:42: rgb params.noiseRate: unknown parameter — did you mean 'noiseRates'? RGB accepts testbed, language, noiseRates, passageNum, correctRate, strict, judge, withoutDocuments",
    '<dir>/params.eval.yaml:13:23: rgb params.noiseRates[1]: expected a number between 0 and 1, got 1.5 — ratios are shares of passageNum, e.g. 0.4',
    '<dir>/params.eval.yaml:17:15: needle params.buffer: expected a whole number of at least 0, got "lots" — token counts are whole numbers',
    "<dir>/params.eval.yaml:22:26: ragas params.answerRelevancy.strictnes: unknown parameter — did you mean 'strictness'? use strictness, noncommittal, temperature",
    '<dir>/params.eval.yaml:23:5: ifrag params.instruction: missing — set it to A, B or C (one suite entry per instruction; the 9-column table combines them)',
  ]);
});

test('an absurd concurrency is refused at its line with the limit, before anything runs', async () => {
  for (const value of ['1e9', '100000000000000000000', '1001']) {
    const file = evalFile('wide.eval.yaml', [...MINIMAL.slice(0, 2), `concurrency: ${value}`, ...MINIMAL.slice(2)]);
    const errors = await loadErrors(file);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^<dir>\/wide\.eval\.yaml:3:\d+: .*concurrency.*1000/u);
  }
  const file = evalFile('wide.eval.yaml', [...MINIMAL.slice(0, 2), 'concurrency: 1000', ...MINIMAL.slice(2)]);
  assert.equal((await loadEvalSpec(file)).concurrency, 1000);
});
