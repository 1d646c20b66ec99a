// The reports read the run log once: every bundled example's log, through writeReports with every format, is opened
// and read once, and the reports are the bytes the several-pass writers wrote (hashes taken before the change; the
// HTML against the inspector's own in-memory rendering, the verdicts against the array path they stream).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openRegularFile } from '../../../src/core/regularFile.js';
import { runDataFromLog } from '../../../src/core/report/runDataSources.js';
import { writeReports } from '../../../src/core/report/writeReports.js';
import { inspectorRun } from '../../../src/core/report/inspectorRun.js';
import { renderHtmlReport } from '../../../src/core/report/html.js';
import { packageRoot } from '../../../src/core/assets.js';
import type { CaseEntry } from '../../../src/core/model.js';
import { VERDICTS_FILE, VerdictStore } from '../../../src/core/verdicts/store.js';
import { buildVerdictsView, verdictLines } from '../../../src/core/verdicts/view.js';

const DATA = path.join(__dirname, '..', '..', 'data', 'runlogs');
const EXAMPLES = ['ifrag', 'needle', 'ragas', 'rgb', 'stress'];
const expected = JSON.parse(readFileSync(path.join(DATA, 'expectedReports.json'), 'utf8')) as Record<string, Record<string, string>>;

/** An opener that counts the opens of the log and the bytes read from it. */
function countingOpener(): { open: (file: string) => Promise<FileHandle>; opens: number; bytes: number } {
  const counter = {
    opens: 0,
    bytes: 0,
    async open(file: string): Promise<FileHandle> {
      counter.opens += 1;
      const handle = await openRegularFile(file);
      const read = handle.read.bind(handle) as (...args: unknown[]) => Promise<{ bytesRead: number }>;
      (handle as unknown as { read: unknown }).read = async (...args: unknown[]) => {
        const result = await read(...args);
        counter.bytes += result.bytesRead;
        return result;
      };
      return handle;
    },
  };
  return counter;
}

function logOf(example: string, dir: string, specFile?: string): string {
  let text = gunzipSync(readFileSync(path.join(DATA, `${example}.jsonl.gz`))).toString('utf8');
  if (specFile) text = text.replace(`"/nonexistent/examples/${example}/${example}-example.eval.yaml"`, JSON.stringify(specFile));
  const file = path.join(dir, 'run.jsonl');
  writeFileSync(file, text);
  return file;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

for (const example of EXAMPLES) {
  test(`${example}: every report from one read of the run log, the same bytes as before`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rag-one-pass-'));
    try {
      const log = logOf(example, dir);
      const counter = countingOpener();
      const run = await runDataFromLog(log, { openLog: counter.open });
      const out = path.join(dir, 'out');
      const written = await writeReports(run, out, ['json', 'csv', 'junit', 'html']);
      assert.equal(counter.opens, 1, 'the run log is opened once for all the reports');
      assert.equal(counter.bytes, statSync(log).size, 'and read once, each byte once');
      assert.deepEqual(written.map((f) => path.basename(f)), ['report.json', 'cases.csv', 'junit.xml', 'report.html']);
      for (const [name, hash] of Object.entries(expected[example]!)) assert.equal(sha256(path.join(out, name)), hash, `${example} ${name}`);
      // The HTML as the inspector's in-memory path renders the same run (every case fits the default budget).
      const { detail, cases } = await inspectorRun(await runDataFromLog(log));
      const bundle = readFileSync(path.join(packageRoot(), 'dist', 'webview.js'), 'utf8');
      assert.equal(readFileSync(path.join(out, 'report.html'), 'utf8'), renderHtmlReport(detail, [...cases.values()], bundle));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('the verdicts report streams the run to the same verdicts and agreement as the array path, in the same pass', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-one-pass-verdicts-'));
  try {
    const specFile = path.join(dir, 'rgb-example.eval.yaml');
    writeFileSync(specFile, '');
    const log = logOf('rgb', dir, specFile);
    const entries: CaseEntry[] = [];
    for await (const { evalCase, result } of (await runDataFromLog(log)).entries()) if (evalCase) entries.push({ evalCase, result });
    // A person's verdicts on a few cases: correct, wrong, a note, and a stale one (a response that changed since).
    mkdirSync(path.join(dir, '.rag-inspector'));
    const store = new VerdictStore(path.join(dir, VERDICTS_FILE));
    await store.append(verdictLines(entries.slice(0, 3), { keys: [], label: 'correct' }));
    await store.append(verdictLines(entries.slice(3, 7), { keys: [], label: 'wrong', note: 'not what the passage says' }));
    const stale = entries[8]!;
    await store.append(verdictLines([{ ...stale, result: { ...stale.result, response: { ...stale.result.response!, text: 'another answer' } } }], { keys: [], label: 'wrong' }));
    const counter = countingOpener();
    const run = await runDataFromLog(log, { openLog: counter.open });
    const written = await writeReports(run, path.join(dir, 'out'), ['json', 'csv'], { verdictsWithin: dir });
    assert.equal(counter.opens, 1);
    assert.equal(path.basename(written.at(-1)!), 'verdicts.json');
    const report = JSON.parse(readFileSync(written.at(-1)!, 'utf8')) as { cases: object; agreement: object[] };
    const view = buildVerdictsView(entries, await store.latest());
    assert.equal(Object.keys(view.cases).length, 8, 'eight marked cases');
    assert.equal(Object.values(view.cases).filter((c) => c.stale).length, 1, 'one of them stale');
    assert.ok(view.agreement.length > 0);
    assert.deepEqual({ cases: report.cases, agreement: report.agreement }, JSON.parse(JSON.stringify(view)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
