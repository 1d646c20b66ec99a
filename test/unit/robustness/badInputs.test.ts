// Bad inputs, one table: each runs through the CLI in a child process and must end with exit 2 and a stderr line "file:line[:column]: what — how to fix"; good rows beside bad ones still run; nothing crashes and no template runs code.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { InputError } from '../../../src/core/errors.js';
import { parseTemplate, renderTemplate } from '../../../src/core/prompt/template.js';
import { evalYaml, jsonl, rgbRows, rgbSuite } from './builders.js';
import { runCli } from './cliProcess.js';

const FIXTURES = path.resolve(__dirname, '../../fixtures/bad-inputs');

type Source = string | Buffer | { fixture: string } | { symlinkTo: string } | { folder: true };

interface BadInput {
  name: string;
  /** The workspace's files: text, bytes, a file of test/fixtures/bad-inputs, a symlink or a folder. Big and odd ones are made here. */
  files: Record<string, Source>;
  /** The suite's dataset and template, for the eval file the test writes unless `files` holds test.eval.yaml. */
  dataset?: string;
  template?: string;
  /** Where the problem is reported: "file:line" or "file:line:column", relative to the workspace. */
  at: string;
  message: RegExp;
  /** The part after " — ": how to fix it. */
  hint: RegExp;
  /** Cases from the good rows of a file that mixes good and bad ones; they must still run. */
  goodCases?: number;
  /** Text that must not show up in any output (a file a template tried to read). */
  mustNotLeak?: string;
}

const fixture = (name: string): Source => ({ fixture: name });
const row = (i: number, fields: Record<string, unknown> = {}) => JSON.stringify({ ...rgbRows(i + 1)[i], ...fields });
const GOOD_ROWS = jsonl(rgbRows(2));
const FIFTY_MB = 50 * 1024 * 1024;
const BIG_LINE = `{"id": 0, "query": "${'x'.repeat(FIFTY_MB)}`;
const SECRET = 'TOP-SECRET-OUTSIDE-THE-TEMPLATE-FOLDER';
const ONE_OBJECT = /each line must hold one JSON object/;
const NOT_UTF8 = { message: /^file is not UTF-8$/, hint: /re-save it as UTF-8/ };
const LIQUID_HINT = /check the \{\{ … \}\} and \{% … %\} tags on this line/;
const INCLUDE_HINT = /read only files inside the template's folder/;
const RGB_ROW_HINT = /a plain RGB row has id, query, answer/;

const CORPUS: BadInput[] = [
  // ---- datasets ----
  { name: 'JSONL with malformed lines among good ones', files: { 'data.jsonl': fixture('malformed-lines.jsonl') }, at: 'data.jsonl:2:37', message: /^invalid JSON: Expected double-quoted property name$/, hint: ONE_OBJECT, goodCases: 2 },
  { name: 'JSONL line holding an array', files: { 'data.jsonl': fixture('malformed-lines.jsonl') }, at: 'data.jsonl:3:1', message: /^line holds an array, not a JSON object$/, hint: ONE_OBJECT, goodCases: 2 },
  { name: 'JSONL line with an unterminated string', files: { 'data.jsonl': fixture('malformed-lines.jsonl') }, at: 'data.jsonl:4:33', message: /^invalid JSON: Unterminated string$/, hint: ONE_OBJECT, goodCases: 2 },
  { name: 'JSON array cut off mid-element', files: { 'data.json': fixture('truncated-array.json') }, dataset: 'data.json', at: 'data.json:3:35', message: /^invalid JSON: Unterminated string$/, hint: /a \.json dataset is an array of objects/, goodCases: 0 },
  { name: 'JSON array with a string where a row belongs', files: { 'data.json': fixture('array-with-non-object.json') }, dataset: 'data.json', at: 'data.json:3', message: /^element 1 is a string, not an object$/, hint: /a \.json dataset is an array of objects/, goodCases: 2 },
  { name: 'UTF-16 with a byte-order mark', files: { 'data.jsonl': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(GOOD_ROWS, 'utf16le')]) }, at: 'data.jsonl:1', ...NOT_UTF8, goodCases: 0 },
  { name: 'Latin-1 in the second line', files: { 'data.jsonl': Buffer.concat([Buffer.from(`${row(0)}\n`), Buffer.from(`${row(1, { query: 'Où est le café ?' })}\n`, 'latin1')]) }, at: 'data.jsonl:2', ...NOT_UTF8, goodCases: 1 },
  { name: 'a 50 MB line that never closes, then a good row', files: { 'data.jsonl': `${BIG_LINE}\n${row(1)}\n` }, at: `data.jsonl:1:${BIG_LINE.length + 1}`, message: /^invalid JSON: Unterminated string$/, hint: ONE_OBJECT, goodCases: 1 },
  { name: 'NUL bytes inside a string and on a line of their own', files: { 'data.jsonl': `${row(0)}\n${row(1, { query: 'landmark\u0000one' }).replace('\\u0000', '\u0000')}\n${row(2)}\n\u0000\u0000\n` }, at: 'data.jsonl:2:26', message: /^invalid JSON: Bad control character in string literal$/, hint: ONE_OBJECT, goodCases: 2 },
  { name: 'RGB fields of the wrong type', files: { 'data.jsonl': fixture('wrong-field-types.jsonl') }, at: 'data.jsonl:2', message: /^RGB row field "query": expected a string, got number$/, hint: RGB_ROW_HINT, goodCases: 1 },
  { name: 'RGB row without its answer', files: { 'data.jsonl': fixture('wrong-field-types.jsonl') }, at: 'data.jsonl:3', message: /^RGB row field "answer": missing$/, hint: RGB_ROW_HINT, goodCases: 1 },
  { name: 'CSV with ragged rows', files: { 'data.csv': fixture('ragged-rows.csv') }, dataset: 'data.csv', at: 'data.csv:3', message: /^row has 6 fields, the header has 5$/, hint: /one field per header column/, goodCases: 1 },
  { name: 'CSV with an unclosed quote', files: { 'data.csv': fixture('unclosed-quote.csv') }, dataset: 'data.csv', at: 'data.csv:4', message: /a quoted field is never closed/, hint: /a quote inside it is written ""/, goodCases: 2 },
  { name: 'CSV header naming a column twice', files: { 'data.csv': fixture('duplicate-header.csv') }, dataset: 'data.csv', at: 'data.csv:1', message: /^the header row names column 'query' twice$/, hint: /the first row must name every column once/, goodCases: 0 },
  { name: 'YAML dataset that is a mapping, not a list', files: { 'data.yaml': fixture('not-a-list.yaml') }, dataset: 'data.yaml', at: 'data.yaml:1:1', message: /^the file is not a list of rows$/, hint: /a YAML dataset is a list of rows/, goodCases: 0 },
  { name: 'YAML list holding scalars beside a row', files: { 'data.yaml': fixture('scalars-in-list.yaml') }, dataset: 'data.yaml', at: 'data.yaml:6:3', message: /^list item 2 is a string, not a mapping$/, hint: /a YAML dataset is a list of rows/, goodCases: 1 },
  { name: 'YAML dataset with a syntax error', files: { 'data.yaml': fixture('syntax-error.yaml') }, dataset: 'data.yaml', at: 'data.yaml:4:3', message: /^invalid YAML: /, hint: /a YAML dataset is a list of rows/, goodCases: 0 },
  { name: 'an empty dataset', files: { 'data.jsonl': fixture('empty.jsonl') }, at: 'data.jsonl:1', message: /^the dataset has no rows$/, hint: /add rows/, goodCases: 0 },

  // ---- templates ----
  { name: 'a template reading a variable no row has', files: { 't.prompt': fixture('unknown-variable.prompt') }, template: 't.prompt', at: 'data.jsonl:1', message: /^row 1 does not provide template variable 'customer_name' \(read at .*t\.prompt:2:29\)$/, hint: /rename the variable in the template or add the field to the dataset/, goodCases: 0 },
  { name: 'an output tag never closed', files: { 't.prompt': fixture('broken-output-tag.prompt') }, template: 't.prompt', at: 't.prompt:2:1', message: /^output "\{\{ question \}\\n" not closed$/, hint: LIQUID_HINT },
  { name: 'an unknown Liquid tag', files: { 't.prompt': fixture('unknown-tag.prompt') }, template: 't.prompt', at: 't.prompt:2:1', message: /^tag "frobnicate" not found$/, hint: LIQUID_HINT },
  { name: 'a for-loop never closed', files: { 't.prompt': fixture('unclosed-for.prompt') }, template: 't.prompt', at: 't.prompt:4:1', message: /^tag \{% for d in documents %\} not closed$/, hint: LIQUID_HINT },
  { name: 'text before the first role line', files: { 't.prompt': fixture('text-before-role.prompt') }, template: 't.prompt', at: 't.prompt:1:1', message: /^text before the first role line belongs to no message$/, hint: /start the body with a line "system:" or "user:"/ },
  { name: 'a role line inside a for-loop', files: { 't.prompt': fixture('role-inside-for.prompt') }, template: 't.prompt', at: 't.prompt:2:1', message: /^tag \{% for d in documents %\} not closed$/, hint: /role line/ },
  { name: 'an include that climbs out of the template folder', files: { 'prompts/t.prompt': fixture('include-outside.prompt'), 'secret.txt': SECRET }, template: 'prompts/t.prompt', at: 'prompts/t.prompt:3:1', message: /^cannot read '\.\.\/secret\.txt': it is not a file inside the template's folder$/, hint: INCLUDE_HINT, mustNotLeak: SECRET },
  { name: "{% render '/etc/passwd' %}", files: { 't.prompt': fixture('render-etc-passwd.prompt') }, template: 't.prompt', at: 't.prompt:3:3', message: /^cannot read '\/etc\/passwd': it is not a file inside the template's folder$/, hint: INCLUDE_HINT, mustNotLeak: 'root:' },
  { name: 'an include through a symlink that points outside', files: { 'prompts/t.prompt': 'user:\n{{ question }}\n{% include "partials/link.liquid" %}\n', 'prompts/partials/link.liquid': { symlinkTo: '../../secret.txt' }, 'secret.txt': SECRET }, template: 'prompts/t.prompt', at: 'prompts/t.prompt:3:1', message: /^cannot read 'partials\/link\.liquid': it is not a file inside the template's folder$/, hint: INCLUDE_HINT, mustNotLeak: SECRET },
  { name: 'circular includes', files: { 't.prompt': fixture('circular-include.prompt'), 'circular-a.liquid': fixture('circular-a.liquid'), 'circular-b.liquid': fixture('circular-b.liquid') }, template: 't.prompt', at: 'circular-b.liquid:2:1', message: /^'circular-a\.liquid' includes itself: t\.prompt → circular-a\.liquid → circular-b\.liquid → circular-a\.liquid$/, hint: /remove the include that closes the loop/ },
  { name: 'JavaScript through constructor.constructor', files: { 't.prompt': fixture('js-constructor.prompt') }, template: 't.prompt', at: 't.prompt:2:44', message: /^invalid range syntax$/, hint: LIQUID_HINT },
  { name: 'a walk up the prototype chain', files: { 't.prompt': fixture('js-prototype-walk.prompt') }, template: 't.prompt', at: 't.prompt:2:4', message: /^undefined variable: question\.constructor$/, hint: /the case provides: question, documents/, goodCases: 0 },
  { name: 'front matter never closed', files: { 't.prompt': fixture('unclosed-front-matter.prompt') }, template: 't.prompt', at: 't.prompt:1:1', message: /^the front matter is not closed$/, hint: /end it with a line holding only "---"/ },
  { name: 'front matter that is not YAML', files: { 't.prompt': fixture('bad-front-matter.prompt') }, template: 't.prompt', at: 't.prompt:3:25', message: /^invalid front matter YAML: /, hint: /front matter is YAML between two "---" lines/ },
  { name: 'an empty template', files: { 't.prompt': fixture('empty.prompt') }, template: 't.prompt', at: 't.prompt:1', message: /^the template renders no message for row 1$/, hint: /write the prompt/, goodCases: 0 },
  { name: 'a template in Latin-1', files: { 't.prompt': Buffer.from('user:\nRéponds: {{ question }}\n', 'latin1') }, template: 't.prompt', at: 't.prompt:2', ...NOT_UTF8 },

  // ---- eval files ----
  { name: 'an eval value of the wrong type', files: { 'test.eval.yaml': fixture('wrong-types.eval.yaml') }, at: 'test.eval.yaml:4:14', message: /^concurrency has the wrong type$/, hint: /expected an integer \(whole number\), got the string "eight"/ },
  { name: 'an unknown eval key', files: { 'test.eval.yaml': fixture('unknown-key.eval.yaml') }, at: 'test.eval.yaml:4:1', message: /^unknown key 'concurency'$/, hint: /did you mean 'concurrency'\?/ },
  { name: 'a dataset file that does not exist', files: { 'test.eval.yaml': fixture('missing-dataset.eval.yaml') }, at: 'test.eval.yaml:7:14', message: /^dataset file not found: .*nowhere\.jsonl$/, hint: /paths are relative to the eval file's folder/ },
  { name: 'a dataset path that is a folder', files: { 'test.eval.yaml': fixture('dataset-is-folder.eval.yaml'), rows: { folder: true } }, at: 'test.eval.yaml:7:14', message: /^dataset path is a folder, not a file: .*rows$/, hint: /paths are relative to the eval file's folder/ },
  { name: 'two suites with one id', files: { 'test.eval.yaml': fixture('duplicate-suite-ids.eval.yaml') }, at: 'test.eval.yaml:9:9', message: /^duplicate suite id 'noise'$/, hint: /already used on line 5; suite ids must be unique/ },
  { name: 'a suite with an unknown method', files: { 'test.eval.yaml': fixture('unknown-method.eval.yaml') }, at: 'test.eval.yaml:6:13', message: /^unknown method "rbg"$/, hint: /did you mean 'rgb'\?/ },
  { name: 'an unknown provider in a model mapping', files: { 'test.eval.yaml': fixture('unknown-provider.eval.yaml') }, at: 'test.eval.yaml:5:15', message: /^unknown provider "opnai" for model "gpt-4o-mini"$/, hint: /did you mean 'openai'\? use one of: openai, openai-compatible, anthropic, extractive/ },
  { name: 'an unknown provider in a "provider:model" model', files: { 'test.eval.yaml': fixture('unknown-provider-shorthand.eval.yaml') }, at: 'test.eval.yaml:3:30', message: /^unknown provider "antropic" for model "claude-3-5-haiku-latest"$/, hint: /did you mean 'anthropic'\?/ },
  { name: 'a VS Code-only provider run from the command line', files: { 'test.eval.yaml': fixture('vscode-lm-in-cli.eval.yaml') }, at: 'test.eval.yaml:3:30', message: /^provider "vscode-lm" for model "copilot\/gpt-4o" runs only in the RAG Inspector extension/, hint: /run this eval file from VS Code, or name a model of openai, openai-compatible, anthropic, extractive/ },
  { name: 'an unknown RGB parameter', files: { 'test.eval.yaml': fixture('rgb-unknown-param.eval.yaml') }, at: 'test.eval.yaml:10:7', message: /^rgb params\.noiseRate: unknown parameter$/, hint: /did you mean 'noiseRates'\? RGB accepts testbed, / },
  { name: 'an RGB parameter of the wrong type', files: { 'test.eval.yaml': fixture('rgb-param-wrong-type.eval.yaml') }, at: 'test.eval.yaml:10:19', message: /^rgb params\.passageNum: expected a whole number of at least 1, got "five"$/, hint: /5 passages per question/ },
  { name: 'an RGB parameter out of range', files: { 'test.eval.yaml': fixture('rgb-param-out-of-range.eval.yaml') }, at: 'test.eval.yaml:10:28', message: /^rgb params\.noiseRates\[2\]: expected a number between 0 and 1, got 1\.2$/, hint: /ratios are shares of passageNum/ },
  { name: 'an unknown needle parameter', files: { 'test.eval.yaml': fixture('needle-unknown-param.eval.yaml') }, at: 'test.eval.yaml:8:7', message: /^needle params\.contextLenghts: unknown parameter$/, hint: /did you mean 'contextLengths'\?/ },
  { name: 'a needle parameter of the wrong type', files: { 'test.eval.yaml': fixture('needle-param-wrong-type.eval.yaml') }, at: 'test.eval.yaml:9:15', message: /^needle params\.depths: expected a list or \{intervals, distribution\}, got "middle"$/, hint: /e\.g\. depths: \{ intervals: 35, distribution: linear \}/ },
  { name: 'a needle parameter out of range', files: { 'test.eval.yaml': fixture('needle-param-out-of-range.eval.yaml') }, at: 'test.eval.yaml:9:23', message: /^needle params\.depths\[2\]: expected a percent between 0 and 100, got 150$/, hint: /0 is the top of the context, 100 the end/ },
  { name: 'an unknown RAGAS parameter, one level down', files: { 'test.eval.yaml': fixture('ragas-unknown-param.eval.yaml') }, at: 'test.eval.yaml:10:26', message: /^ragas params\.answerRelevancy\.strictnes: unknown parameter$/, hint: /did you mean 'strictness'\?/ },
  { name: 'a RAGAS parameter of the wrong type', files: { 'test.eval.yaml': fixture('ragas-param-wrong-type.eval.yaml') }, at: 'test.eval.yaml:10:16', message: /^ragas params\.contextPrecision\.exact: expected true or false, got "yes please"$/, hint: /write exact: true or false/ },
  { name: 'a RAGAS parameter out of range', files: { 'test.eval.yaml': fixture('ragas-param-out-of-range.eval.yaml') }, at: 'test.eval.yaml:10:21', message: /^ragas params\.answerRelevancy\.strictness: expected a whole number from 1 to 10, got 25$/, hint: /ragas uses 3 questions per answer/ },
  { name: 'an eval file that is not YAML', files: { 'test.eval.yaml': fixture('invalid-yaml.eval.yaml') }, at: 'test.eval.yaml:4:1', message: /^invalid YAML: /, hint: /check the indentation and quoting on this line/ },
  { name: 'a threshold whose min is above its max', files: { 'test.eval.yaml': fixture('threshold-min-above-max.eval.yaml') }, at: 'test.eval.yaml:9:29', message: /^threshold 'accuracy' has min 0\.9 above max 0\.1$/, hint: /swap them, or drop one bound/ },
  { name: 'an empty eval file', files: { 'test.eval.yaml': fixture('empty.eval.yaml') }, at: 'test.eval.yaml:1:1', message: /^the eval file is empty$/, hint: /start with "version: 1", models and suites/ },
  { name: 'an eval file in UTF-16', files: { 'test.eval.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(readFileSync(path.join(FIXTURES, 'unknown-key.eval.yaml'), 'utf8'), 'utf16le')]) }, at: 'test.eval.yaml:1', ...NOT_UTF8 },
];

function writeWorkspace(input: BadInput): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-bad-input-'));
  const files: Record<string, Source> = { 'data.jsonl': GOOD_ROWS, ...input.files };
  if (!('test.eval.yaml' in files)) {
    const suite = rgbSuite({ dataset: input.dataset ?? 'data.jsonl', params: { testbed: 'noise_robustness', noiseRates: [0], passageNum: 2 } });
    files['test.eval.yaml'] = evalYaml({ models: ['extractive:bm25'], suites: [input.template ? { ...suite, template: input.template } : suite] });
  }
  for (const [name, source] of Object.entries(files)) {
    const target = path.join(dir, name);
    mkdirSync(path.dirname(target), { recursive: true });
    if (typeof source === 'string' || Buffer.isBuffer(source)) writeFileSync(target, source);
    else if ('fixture' in source) copyFileSync(path.join(FIXTURES, source.fixture), target);
    else if ('symlinkTo' in source) symlinkSync(source.symlinkTo, target);
    else mkdirSync(target, { recursive: true });
  }
  return dir;
}

/** stderr lines with the CLI's "warning: " / "rag-inspector: " prefixes taken off. */
function problemLines(stderr: string): string[] {
  return stderr.split('\n').map((line) => line.replace(/^(warning|rag-inspector): /, ''));
}

function runLogText(dir: string): string {
  const runs = path.join(dir, '.rag-inspector', 'runs');
  return existsSync(runs) ? readdirSync(runs).map((f) => readFileSync(path.join(runs, f), 'utf8')).join('\n') : '';
}

test('the corpus has at least 30 bad inputs, each named once', () => {
  assert.ok(CORPUS.length >= 30, `${CORPUS.length} bad inputs`);
  assert.equal(new Set(CORPUS.map((c) => c.name)).size, CORPUS.length);
});

describe('each bad input: exit 2, a stderr line at file:line[:column] saying what is wrong and how to fix it', { concurrency: 2 }, () => {
  for (const input of CORPUS) {
    test(input.name, async (t) => {
      const dir = writeWorkspace(input);
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const exit = await runCli(['run', path.join(dir, 'test.eval.yaml'), '--format', 'json'], {}, 120_000);

      assert.equal(exit.signal, null, `not killed: ${exit.stderr}`);
      assert.equal(exit.code, 2, `exit code\n${exit.stderr}\n${exit.stdout}`);
      // A crash (an unhandled rejection, an uncaught exception) prints a stack; a handled problem never does.
      assert.doesNotMatch(exit.stderr, /^\s+at |Unhandled|uncaught/im, exit.stderr);

      const prefix = `${path.join(dir, input.at)}: `;
      const line = problemLines(exit.stderr).find((l) => l.startsWith(prefix));
      assert.ok(line, `no stderr line starts with ${prefix}\n${exit.stderr}`);
      const text = line.slice(prefix.length);
      const dash = text.indexOf(' — ');
      assert.ok(dash > 0, `the line says how to fix it after " — ": ${text}`);
      assert.match(text.slice(0, dash), input.message);
      assert.match(text.slice(dash + ' — '.length), input.hint);

      const ran = /^Cases: (\d+) /m.exec(exit.stdout)?.[1];
      if (input.goodCases !== undefined) assert.equal(Number(ran), input.goodCases, `cases run\n${exit.stdout}`);
      if (input.mustNotLeak) {
        for (const text of [exit.stdout, exit.stderr, runLogText(dir)]) assert.ok(!text.includes(input.mustNotLeak), 'the file outside the template folder was not read');
      }
    });
  }
});

describe('template code injection is inert', () => {
  const canary = '__ragInspectorPwned';
  const folder = mkdtempSync(path.join(tmpdir(), 'rag-inspector-inject-'));
  const marker = path.join(folder, 'pwned');
  after(() => rmSync(folder, { recursive: true, force: true }));
  const js = `globalThis.${canary} = 1; require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`;
  const payloads = [
    `{{ constructor.constructor(${JSON.stringify(js)})() }}`,
    `{{ question.constructor.constructor(${JSON.stringify(js)})() }}`,
    '{{ question.constructor.constructor }}',
    '{{ question["constructor"]["constructor"] }}',
    '{% assign c = "constructor" %}{{ question[c][c] }}',
    '{{ documents | map: "constructor" | first }}',
    '{{ documents.first.__proto__ }}',
    '{{ documents.first.text.constructor.name }}',
    '{{ question | constructor }}',
    '{{ process.mainModule }}',
    '{{ global.process }}',
    '{{ this }}',
    `{% render "data:text/javascript,${js}" %}`,
    '{% liquid assign p = question.__proto__\necho p %}',
  ];
  const variables = { question: 'Where is it?', documents: [{ id: 'd0', text: 'Passage.' }] };

  for (const payload of payloads) {
    test(payload, async () => {
      const file = path.join(folder, 't.prompt');
      let rendered: string | undefined;
      try {
        rendered = (await renderTemplate(parseTemplate(file, `user:\n${payload}\n`), variables)).map((m) => m.content).join('\n');
      } catch (error) {
        assert.ok(error instanceof InputError, `a template problem, not ${String(error)}`);
        assert.equal(error.position.file, file);
      }
      // Whatever rendered is plain data: no function source, no host object.
      if (rendered !== undefined) assert.doesNotMatch(rendered, /function|native code|\[object|process|require/i);
      assert.equal((globalThis as Record<string, unknown>)[canary], undefined, 'no code ran');
      assert.equal(existsSync(marker), false, 'no file was written');
    });
  }
});
