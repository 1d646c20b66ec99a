// The end of a run in bounded memory: tablesFromLog hands each line's report view to the suite's aggregator and lets
// it go. Checked by counting, not timing: every view handed over is watched (WeakRef), and when the tables are
// finished, after a forced GC, the views still alive must not grow with the number of cases (N against 10 N).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SuitePlan } from '../../../src/core/engine/plan.js';
import { tablesFromLog } from '../../../src/core/engine/tablesFromLog.js';
import { RunLogWriter } from '../../../src/core/run/runLog.js';
import type { SuiteAggregator, Suite } from '../../../src/core/suites/contract.js';
import { parseRgbParams } from '../../../src/core/suites/rgb/params.js';
import type { RgbParams } from '../../../src/core/suites/rgb/params.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { rgbRows } from './workspace.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const dir = mkdtempSync(path.join(tmpdir(), 'bounded-end-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const PARAMS = parseRgbParams({ testbed: 'noise_robustness', noiseRates: [0, 0.5], passageNum: 2 }, { file: 'test.eval.yaml' });

const logs = new Map<number, Promise<string>>();

/** A finished RGB log of `rows` rows × 2 ratios × 2 models, every result scored (written once per size). */
function logOf(rows: number): Promise<string> {
  if (!logs.has(rows)) logs.set(rows, writeLog(rows));
  return logs.get(rows)!;
}

async function writeLog(rows: number): Promise<string> {
  const writer = await RunLogWriter.create(dir, { runId: `bounded-${rows}`, createdAt: new Date(0).toISOString(), tool: { name: 'rag-inspector', version: 'test' }, spec: { file: 'test.eval.yaml', hash: 'h', name: 'bounded' }, inputs: [], models: ['a:one', 'b:two'], seed: 1 });
  for (const [index, data] of rgbRows(rows).entries()) {
    const row = { ref: { file: 'data.jsonl', line: index + 1, index }, data: data as unknown as Record<string, unknown> };
    for (const evalCase of rgbSuite.expandRow(row, PARAMS, { suiteId: 'noise', seed: 1, models: [] })) {
      for (const modelKey of ['a:one', 'b:two']) {
        const correct = (index + modelKey.length) % 3 !== 0;
        writer.appendCase({ type: 'case', case: evalCase, result: { caseId: evalCase.id, modelKey, status: 'success', scores: [{ metric: 'correct', value: correct ? 1 : 0, pass: correct, explanation: 'synthetic' }], pass: correct, attempts: 1, startedAt: '', finishedAt: '' } });
      }
    }
  }
  writer.close();
  return writer.file;
}

interface Watch {
  handed: number;
  /** Views handed to the aggregator still reachable when its tables were finished (after a forced GC). */
  aliveAtFinish: number;
}

/** RGB's suite with its aggregator watched: each view handed to it is held weakly, and counted when it finishes. */
function watchedRgb(watch: Watch, inner: (params: RgbParams, suiteId: string) => SuiteAggregator): SuitePlan {
  const refs: WeakRef<object>[] = [];
  const hold = (view: object | undefined) => {
    if (!view) return;
    watch.handed++;
    refs.push(new WeakRef(view));
  };
  const suite: Suite<RgbParams> = {
    ...rgbSuite,
    createAggregator(params, suiteId) {
      const aggregator = inner(params, suiteId);
      return {
        addCase: (evalCase) => { hold(evalCase); aggregator.addCase(evalCase); },
        add: (evalCase, result) => { hold(evalCase); hold(result); aggregator.add(evalCase, result); },
        finish() {
          gc();
          watch.aliveAtFinish = refs.filter((ref) => ref.deref() !== undefined).length;
          return aggregator.finish();
        },
      };
    },
  };
  return { spec: { id: 'noise' }, suite, params: PARAMS } as unknown as SuitePlan;
}

async function aliveAtFinish(rows: number, inner: (params: RgbParams, suiteId: string) => SuiteAggregator): Promise<Watch> {
  const watch: Watch = { handed: 0, aliveAtFinish: 0 };
  const { reports } = await tablesFromLog(await logOf(rows), [watchedRgb(watch, inner)]);
  assert.equal(reports[0]?.metrics.find((m) => m.name === 'accuracy' && m.modelKey === 'a:one')?.n, rows * 2, 'the tables counted every case');
  return watch;
}

/** An aggregator that keeps every view it is given (what the end phase did before aggregators): the count must see it. */
function leaky(params: RgbParams, suiteId: string): SuiteAggregator {
  const inner = rgbSuite.createAggregator!(params, suiteId);
  const kept: unknown[] = [];
  return {
    addCase: (evalCase) => { kept.push(evalCase); inner.addCase(evalCase); },
    add: (evalCase, result) => { kept.push(evalCase, result); inner.add(evalCase, result); },
    finish: () => inner.finish(),
  };
}

const ROWS = 500;

test('the end phase holds no per-case view: views alive when the tables finish do not grow from N to 10 N cases', async () => {
  const small = await aliveAtFinish(ROWS, rgbSuite.createAggregator!);
  const large = await aliveAtFinish(ROWS * 10, rgbSuite.createAggregator!);
  // Each (case, model) hands over a result and a case view, and each case once more on its first line.
  assert.equal(large.handed, ROWS * 10 * 2 * (2 * 2 + 1));
  // What the last read of the log still has in hand (the lines of one chunk) may be alive; nothing that grows with N.
  console.log(small, large);
  assert.ok(large.aliveAtFinish < small.handed / 2, `views alive at the end: ${large.aliveAtFinish} of ${large.handed} (at N: ${small.aliveAtFinish} of ${small.handed})`);
});

test('the count sees retention: an aggregator that keeps its views has every one of them alive', async () => {
  const watch = await aliveAtFinish(ROWS, leaky);
  assert.equal(watch.aliveAtFinish, watch.handed);
});
