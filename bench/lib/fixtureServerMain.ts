// Child-process entry that runs the fixture LLM server for a benchmark, so the server's CPU is never charged to the engine being measured.
import { startFixtureServer } from '../../test/fixtures/llmServer.js';
import type { FixtureOptions, RecordedRequest } from '../../test/fixtures/llmServer.js';
import type { ServerMessage, ServerStats } from './fixtureProcess.js';

function send(message: ServerMessage): void {
  process.send?.(message);
}

/** What the server saw, from its own records: how many calls, which statuses, and how many overlapped at once. */
function statsOf(requests: readonly RecordedRequest[]): ServerStats {
  const byStatus: Record<string, number> = {};
  const edges: [number, number][] = [];
  let busyMs = 0;
  let firstReceivedAt = Infinity;
  let lastAnsweredAt = -Infinity;
  for (const r of requests) {
    const status = String(r.reply?.status ?? 'none');
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    firstReceivedAt = Math.min(firstReceivedAt, r.receivedAt);
    if (r.answeredAt !== undefined) {
      lastAnsweredAt = Math.max(lastAnsweredAt, r.answeredAt);
      edges.push([r.receivedAt, 1], [r.answeredAt, -1]);
      busyMs += r.answeredAt - r.receivedAt;
    }
  }
  // Ends before starts at the same millisecond, so back-to-back calls on one connection do not count as overlapping.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peakInFlight = 0;
  for (const [, delta] of edges) {
    open += delta;
    peakInFlight = Math.max(peakInFlight, open);
  }
  const cpu = process.cpuUsage();
  const meanInFlight = lastAnsweredAt > firstReceivedAt ? busyMs / (lastAnsweredAt - firstReceivedAt) : 0;
  return { requests: requests.length, byStatus, firstReceivedAt, lastAnsweredAt, peakInFlight, meanInFlight, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as FixtureOptions;
  const server = await startFixtureServer(options);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stats') send({ type: 'stats', stats: statsOf(server.requests) });
    if (message.type === 'reset') {
      server.requests.length = 0;
      send({ type: 'reset-done' });
    }
    if (message.type === 'close') void server.close().finally(() => process.exit(0));
  });
  process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
  send({ type: 'ready', openaiBaseUrl: server.openaiBaseUrl });
}

main().catch((error: unknown) => {
  process.stderr.write(`fixture server child: ${String(error)}\n`);
  process.exit(1);
});
