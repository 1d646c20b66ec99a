// Templates that would take gigabytes (a huge range, a loop writing 50 MB, a capture doubling itself) are stopped at
// the template's line by the render memory limit; the other cases still run. Each run is the CLI in a child process
// with a 512 MB heap, so a regression fails instead of swapping.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { evalYaml, jsonl, rgbRows, rgbSuite } from './builders.js';
import { runCli } from './cliProcess.js';

const HEAP_LIMIT = { NODE_OPTIONS: '--max-old-space-size=512' };
const LIMIT_HINT = /at most 16,000,000 characters per case: shorten the loop or range on this line/;

interface Hostile {
  name: string;
  template: string;
  /** Where the limit is reported, in the template. */
  at: string;
  /** Cases that still run: rows the template stays small for. */
  goodCases: number;
}

/** Row 1's first passage is 40,000 characters: the loop below writes it 500 times (20 MB); the other rows stay small. */
const rows = rgbRows(3);
rows[1]!.positive[0] = `Landmark number 1 is in Answer1. ${'Far away. '.repeat(4_000)}`;

const HOSTILE: Hostile[] = [
  { name: 'a range of a hundred million', template: 'user:\n{% for i in (1..100000000) %}{{ i }}{% endfor %}\n{{ question }}\n', at: 't.prompt:2:1', goodCases: 0 },
  { name: 'an empty loop over a hundred million', template: 'user:\n{% for i in (1..100000000) %}{% endfor %}{{ question }}\n', at: 't.prompt:2:1', goodCases: 0 },
  { name: 'a loop writing a long passage 500 times', template: 'user:\n{% for d in documents %}{% for i in (1..500) %}{{ d.text }}\n{% endfor %}{% endfor %}\n{{ question }}\n', at: 't.prompt:2:48', goodCases: 2 },
  {
    name: 'a capture doubling itself',
    template: 'user:\n{% assign x = question %}{% for i in (1..60) %}{% capture x %}{{ x }}{{ x }}{% endcapture %}{% endfor %}{{ x | size }}\n{{ question }}\n',
    at: 't.prompt:2:63',
    goodCases: 0,
  },
];

describe('templates that would take gigabytes stop at their line; the other cases run', { concurrency: 2 }, () => {
  for (const hostile of HOSTILE) {
    test(hostile.name, async (t) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-template-limits-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      writeFileSync(path.join(dir, 'data.jsonl'), jsonl(rows));
      writeFileSync(path.join(dir, 't.prompt'), hostile.template);
      writeFileSync(path.join(dir, 'test.eval.yaml'), evalYaml({ models: ['extractive:bm25'], suites: [rgbSuite({ template: 't.prompt' })] }));
      const exit = await runCli(['run', path.join(dir, 'test.eval.yaml'), '--format', 'json'], HEAP_LIMIT, 180_000);

      assert.equal(exit.signal, null, `not killed: ${exit.stderr.slice(-2000)}`);
      assert.equal(exit.code, 2, `exit code\n${exit.stderr.slice(-2000)}\n${exit.stdout}`);
      assert.doesNotMatch(exit.stderr, /^\s+at |Unhandled|uncaught|heap out of memory/im, exit.stderr.slice(-2000));
      const prefix = `${path.join(dir, hostile.at)}: `;
      const line = exit.stderr.split('\n').map((l) => l.replace(/^(warning|rag-inspector): /, '')).find((l) => l.startsWith(prefix));
      assert.ok(line, `no stderr line starts with ${prefix}\n${exit.stderr.slice(-2000)}`);
      assert.match(line, /: memory alloc limit exceeded — /);
      assert.match(line, LIMIT_HINT);
      assert.equal(Number(/^Cases: (\d+) /m.exec(exit.stdout)?.[1]), hostile.goodCases, `cases run\n${exit.stdout}`);
    });
  }
});
