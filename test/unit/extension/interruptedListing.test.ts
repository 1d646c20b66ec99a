// Which listed runs the inspector flags as interrupted: real log files (their mtime decides), markers and liveness faked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import * as path from 'node:path';
import type { RunHeader, RunListEntry } from '../../../src/core/run/runLog.js';
import { QUIET_MS } from '../../../src/extension/interruptedRuns.js';
import { interruptedCheck } from '../../../src/extension/interruptedListing.js';
import type { LiveRunMarker } from '../../../src/extension/liveRuns.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const DEAD_PID = 999_999_1;
const LIVE_PID = 4242;

function header(runId: string): RunHeader {
  return {
    type: 'header', format: 1, runId, createdAt: '2026-11-22T10:00:00.000Z', status: 'started',
    tool: { name: 'rag-inspector', version: '0.1.0' }, spec: { file: '/ws/smoke.eval.yaml', hash: 'h', name: 'smoke' },
    inputs: [], models: ['openai-compatible:m'], seed: 1,
  };
}

/** A log file written `ageMs` before NOW, and its listing entry. */
function log(dir: string, runId: string, ageMs: number, status: RunListEntry['status'] = 'started'): RunListEntry {
  const file = path.join(dir, `${runId}.jsonl`);
  writeFileSync(file, `${JSON.stringify(header(runId))}\n`);
  const at = new Date(NOW - ageMs);
  utimesSync(file, at, at);
  return { file, runId, status, header: header(runId) };
}

test('flags dead-marker and quiet unmarked logs; not a live marker, a recent unmarked log, a finished log or a run of this window', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ri-interrupted-listing-'));
  try {
    const old = QUIET_MS * 5;
    const entries = [
      log(dir, 'dead-marker', 1_000),
      log(dir, 'live-marker', old),
      log(dir, 'quiet', old),
      log(dir, 'recent', QUIET_MS / 2),
      log(dir, 'finished', old, 'success'),
      log(dir, 'here', old),
      { file: path.join(dir, 'deleted.jsonl'), runId: 'deleted', status: 'started' as const, header: header('deleted') },
    ];
    const markers: Record<string, number> = { [entries[0]!.file]: DEAD_PID, [entries[1]!.file]: LIVE_PID };
    const asked: string[] = [];
    const check = interruptedCheck({
      markerOf: (file): LiveRunMarker | undefined => {
        asked.push(path.basename(file));
        const pid = markers[file];
        return pid === undefined ? undefined : { logFile: file, runId: 'x', pid, hostname: hostname() };
      },
      isHere: (runId) => runId === 'here',
      isAlive: (pid) => pid === LIVE_PID,
      hostname: hostname(),
      now: () => NOW,
    });
    assert.deepEqual([...await check(entries)].sort(), ['dead-marker', 'quiet']);
    // Finished logs, this window's runs and logs gone since the listing cost no marker read.
    assert.deepEqual(asked.sort(), ['dead-marker.jsonl', 'live-marker.jsonl', 'quiet.jsonl', 'recent.jsonl']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a listing with no started log reads no marker', async () => {
  let reads = 0;
  const check = interruptedCheck({
    markerOf: () => { reads += 1; return undefined; },
    isHere: () => false, isAlive: () => false, hostname: hostname(), now: () => NOW,
  });
  const finished: RunListEntry = { file: '/nowhere/a.jsonl', runId: 'a', status: 'success', header: header('a') };
  assert.equal((await check([finished])).size, 0);
  assert.equal(reads, 0);
});
