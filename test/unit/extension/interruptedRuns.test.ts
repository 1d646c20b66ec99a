// The parts of Resume Interrupted Run that need no VS Code: which logs count as interrupted, the texts, the case count, the live markers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import * as path from 'node:path';
import type { RunHeader, RunListEntry } from '../../../src/core/run/runLog.js';
import {
  NOTIFY_WITHIN_MS, QUIET_MS, announcement, chooseInterrupted, countCaseLines, pickItem, runToAnnounce, specChangedMessage,
} from '../../../src/extension/interruptedRuns.js';
import type { InterruptedRun, LiveFacts } from '../../../src/extension/interruptedRuns.js';
import { LiveRunMarkers } from '../../../src/extension/liveRuns.js';
import type { LiveRunMarker } from '../../../src/extension/liveRuns.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const DEAD_PID = 999_999_1;
const LIVE_PID = 4242;

function header(runId: string, name = 'smoke'): RunHeader {
  return {
    type: 'header', format: 1, runId, createdAt: `2026-11-22T${runId}:00.000Z`, status: 'started',
    tool: { name: 'rag-inspector', version: '0.1.0' }, spec: { file: `/ws/${name}.eval.yaml`, hash: 'h', name },
    inputs: [], models: ['openai-compatible:m'], seed: 1,
  };
}

function entry(runId: string, status: RunListEntry['status'] = 'started'): RunListEntry {
  return { file: `/ws/.rag-inspector/runs/${runId}.jsonl`, runId, status, ...(status === 'unreadable' ? {} : { header: header(runId) }) };
}

function facts(overrides: Partial<LiveFacts> & { markers?: Record<string, Partial<LiveRunMarker>> } = {}): LiveFacts {
  const markers = overrides.markers ?? {};
  return {
    liveHere: new Set(),
    markerOf: (file) => {
      const m = markers[file];
      return m ? { logFile: file, runId: 'x', pid: DEAD_PID, hostname: hostname(), ...m } : undefined;
    },
    isAlive: (pid) => pid === LIVE_PID,
    hostname: hostname(),
    now: NOW,
    ...overrides,
  };
}

const ago = (ms: number) => new Date(NOW - ms);

test('only started logs with a header are candidates; finished, unreadable and this window\'s live run are not', () => {
  const entries = [entry('10-00', 'success'), entry('10-01', 'cancelled'), entry('10-02', 'unreadable'), entry('10-03'), entry('10-04')];
  const modified = new Map(entries.map((e) => [e.file, ago(QUIET_MS * 10)]));
  const found = chooseInterrupted(entries, modified, facts({ liveHere: new Set(['10-04']) }));
  assert.deepEqual(found.map((r) => r.runId), ['10-03']);
  assert.equal(found[0]!.certainty, 'interrupted');
  assert.equal(found[0]!.name, 'smoke');
  assert.equal(found[0]!.specFile, '/ws/smoke.eval.yaml');
});

test('a marker decides over the log\'s age: dead process → interrupted at once, live process (another window) → not listed', () => {
  const dead = entry('10-05');
  const live = entry('10-06');
  const mine = entry('10-07');
  const modified = new Map([[dead.file, ago(1000)], [live.file, ago(QUIET_MS * 100)], [mine.file, ago(1000)]]);
  const found = chooseInterrupted([dead, live, mine], modified, facts({
    markers: { [dead.file]: { pid: DEAD_PID }, [live.file]: { pid: LIVE_PID }, [mine.file]: { pid: process.pid } },
  }));
  assert.deepEqual(found.map((r) => [r.runId, r.certainty]), [['10-07', 'interrupted'], ['10-05', 'interrupted']]);
});

test('without a marker (a CLI run, another machine) a recently written log may still be running; a quiet one is interrupted', () => {
  const recent = entry('10-08');
  const quiet = entry('10-09');
  const elsewhere = entry('10-10');
  const modified = new Map([[recent.file, ago(QUIET_MS - 1)], [quiet.file, ago(QUIET_MS)], [elsewhere.file, ago(5)]]);
  const found = chooseInterrupted([recent, quiet, elsewhere], modified, facts({ markers: { [elsewhere.file]: { pid: LIVE_PID, hostname: 'other-machine' } } }));
  assert.deepEqual(found.map((r) => [r.runId, r.certainty]), [['10-10', 'maybe-running'], ['10-09', 'interrupted'], ['10-08', 'maybe-running']]);
});

test('a log deleted since it was listed (no mtime) is left out', () => {
  assert.deepEqual(chooseInterrupted([entry('10-11')], new Map(), facts()), []);
});

function run(runId: string, overrides: Partial<InterruptedRun> = {}): InterruptedRun {
  return { runId, file: `/ws/${runId}.jsonl`, name: 'smoke', specFile: '/ws/smoke.eval.yaml', createdAt: runId, modifiedAt: ago(1000), casesDone: 3, certainty: 'interrupted', ...overrides };
}

test('the notice is about the newest interrupted run of the last day that was not dismissed', () => {
  const runs = [run('c', { certainty: 'maybe-running' }), run('b'), run('a')];
  assert.equal(runToAnnounce(runs, new Set(), NOW)?.runId, 'b');
  assert.equal(runToAnnounce(runs, new Set(['b']), NOW)?.runId, 'a');
  assert.equal(runToAnnounce(runs, new Set(['a', 'b']), NOW), undefined);
  assert.equal(runToAnnounce([run('old', { modifiedAt: ago(NOTIFY_WITHIN_MS + 1) })], new Set(), NOW), undefined);
});

test('texts name the eval, the cases done and the way forward', () => {
  assert.equal(announcement(run('r', { name: 'rgb-en', casesDone: 23 })), 'RAG Inspector: a run of rgb-en was interrupted after 23 cases.');
  assert.equal(announcement(run('r', { casesDone: 1 })), 'RAG Inspector: a run of smoke was interrupted after 1 case.');
  const item = pickItem(run('2026-11-22T10-00-00Z-abc', { createdAt: '2026-11-22T10:00:00.000Z', casesDone: 7 }), (f) => path.basename(f), NOW);
  assert.equal(item.label, 'smoke');
  assert.match(item.description, /^started 2026-11-2\d \d\d:\d\d · 7 cases done$/);
  assert.equal(item.detail, 'smoke.eval.yaml · run 2026-11-22T10-00-00Z-abc');
  assert.match(pickItem(run('r', { certainty: 'maybe-running', modifiedAt: ago(30_000) }), (f) => f, NOW).description, /written 30 s ago — may still be running/);
  assert.match(specChangedMessage(run('r1')), /smoke\.eval\.yaml changed since run r1 started, so that run cannot be resumed.*Start a new run/);
});

test('countCaseLines counts complete case lines only, also when a line starts across a read-chunk boundary', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-interrupted-'));
  try {
    const file = path.join(dir, 'run.jsonl');
    const caseLine = (i: number) => JSON.stringify({ type: 'case', case: { id: `c${i}` }, result: { caseId: `c${i}`, modelKey: 'm' } });
    // The header is padded so that the second case line starts 5 bytes before the 64 KiB chunk boundary.
    const first = JSON.stringify({ type: 'header', format: 1, runId: 'r' });
    const firstCase = caseLine(0);
    const pad = 65_536 - 5 - (first.length + 1) - (firstCase.length + 1);
    const headerLine = first.slice(0, -1) + `,"pad":"${'x'.repeat(pad - 9)}"}`;
    const lines = [headerLine, firstCase, caseLine(1), JSON.stringify({ type: 'resume', at: 'now' }), caseLine(2), JSON.stringify({ type: 'summary' })];
    const text = lines.join('\n') + '\n';
    assert.equal(text.indexOf(caseLine(1)), 65_536 - 5, 'the test puts a line start across the boundary');
    writeFileSync(file, text + caseLine(3).slice(0, 20));
    assert.equal(await countCaseLines(file), 3, 'three complete case lines; the one cut short is not counted');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('live markers: written, read, cleared; prune drops dead processes\' markers of logs no longer started', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-markers-'));
  try {
    const markers = new LiveRunMarkers(dir);
    markers.mark('/ws/a.jsonl', 'a');
    assert.deepEqual(markers.get('/ws/a.jsonl'), { logFile: '/ws/a.jsonl', runId: 'a', pid: process.pid, hostname: hostname() });
    markers.clear('/ws/a.jsonl');
    assert.equal(markers.get('/ws/a.jsonl'), undefined);

    markers.mark('/ws/still-started.jsonl', 's');
    markers.mark('/ws/finished.jsonl', 'f');
    const allDead = () => false;
    markers.prune(new Set(['/ws/still-started.jsonl']), allDead);
    assert.ok(markers.get('/ws/still-started.jsonl'), 'a dead marker of a still-started log stays: it proves the run was interrupted');
    assert.equal(markers.get('/ws/finished.jsonl'), undefined, 'a dead marker of a finished log goes');
    assert.equal(readdirSync(dir).length, 1);
    markers.mark('/ws/finished-too.jsonl', 'g');
    markers.prune(new Set(), () => true);
    assert.equal(readdirSync(dir).length, 2, 'a live process keeps its markers, started or not');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
