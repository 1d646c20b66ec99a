// Text from files and servers never drives the terminal: every CLI print path makes control characters visible.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { terminalText } from '../../../src/cli/terminal.js';
import { evalYaml, jsonl, rgbRows, rgbSuite } from '../robustness/builders.js';
import { runCli } from '../robustness/cliProcess.js';

const CLI_SOURCES = path.resolve(__dirname, '../../../src/cli');
/** What a raw control character would do on a terminal: move the cursor, erase, set the title, ring, or hide text. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/u;

describe('terminalText', () => {
  it('writes ESC, CR, NUL, BEL, C1 and bidi overrides as visible escapes, keeping newlines, tabs and any script', () => {
    assert.equal(terminalText('bm25\r\x1b[2K  PASS'), 'bm25\\x0d\\x1b[2K  PASS');
    assert.equal(terminalText('\x1b]0;pwned\x07\x00'), '\\x1b]0;pwned\\x07\\x00');
    assert.equal(terminalText('\x9b31m \u202egnp.exe'), '\\x9b31m \\u202egnp.exe');
    assert.equal(terminalText('line one\n\tline two — 北京 🗼 İ'), 'line one\n\tline two — 北京 🗼 İ');
  });
});

describe('the CLI prints only through terminal.ts', () => {
  it('no source file of the CLI writes to a stream itself', () => {
    for (const name of readdirSync(CLI_SOURCES).filter((file) => file.endsWith('.ts') && file !== 'terminal.ts')) {
      const source = readFileSync(path.join(CLI_SOURCES, name), 'utf8');
      const raw = source.split('\n').map((line, index) => ({ line, index })).filter(({ line }) => /\.write\(|console\.(log|error|warn|info)\(/u.test(line));
      assert.deepEqual(raw.map(({ index, line }) => `${name}:${index + 1}: ${line.trim()}`), [], 'print with print() from terminal.ts');
    }
  });
});

describe('forged values from an eval file reach the terminal as visible escapes', () => {
  it('a model name that would overwrite its FAIL line with PASS, and a name that would set the window title', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-escapes-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'data.jsonl'), jsonl(rgbRows(2)));
    const evalFile = path.join(dir, 'test.eval.yaml');
    writeFileSync(evalFile, evalYaml({
      name: 'title\x1b]0;pwned\x07\x00',
      models: [{ provider: 'extractive', model: 'bm25\r\x1b[2K  PASS  noise.accuracy' }],
      suites: [rgbSuite({ thresholds: { accuracy: { min: 1.01 } } })],
    }));

    const run = await runCli(['run', evalFile, '--format', 'json']);
    assert.equal(run.code, 1, `a failed threshold\n${run.stderr}`);
    const listed = await runCli(['runs', dir]);
    assert.equal(listed.code, 0, listed.stderr);
    for (const [stream, text] of Object.entries({ runStdout: run.stdout, runStderr: run.stderr, runsStdout: listed.stdout })) {
      assert.doesNotMatch(text, RAW_CONTROL, `${stream} holds a raw control character: ${JSON.stringify(text)}`);
    }
    const failLine = run.stdout.split('\n').find((line) => line.includes('noise.accuracy ['));
    assert.ok(failLine?.startsWith('  FAIL  noise.accuracy [extractive:bm25\\x0d\\x1b[2K  PASS  noise.accuracy]'), failLine);
    assert.match(run.stderr, /extractive:bm25\\x0d\\x1b\[2K {2}PASS/);
    assert.match(listed.stdout, /title\\x1b\]0;pwned\\x07\\x00/);
  });
});
