// Child-process entry (run with `node --import tsx`) serving the fixture LLM server to an e2e driver, which asks over IPC what it was sent.
//
// Every chat request about "landmark number <i>?" (the rows crashResume.mjs writes) is answered "It is in Answer<i>.",
// the row's correct answer, after `latencyMs`. The driver gets each request's row, arrival order and whether the
// client hung up before the answer, so it can tell which cases were in flight when the extension host died.
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { RecordedRequest } from '../../fixtures/llmServer.js';

export interface RequestRecord {
  seq: number;
  row: number | null;
  receivedAt: number;
  answeredAt: number | null;
  status: number | null;
  clientClosed: boolean;
}

export type ServerMessage = { type: 'ready'; openaiBaseUrl: string } | { type: 'requests'; requests: RequestRecord[] };

const rowOf = (request: Pick<RecordedRequest, 'text'>): number | undefined => {
  const found = /landmark number (\d+)\?/.exec(request.text);
  return found ? Number(found[1]) : undefined;
};

async function main(): Promise<void> {
  const { latencyMs = 0 } = JSON.parse(process.argv[2] ?? '{}') as { latencyMs?: number };
  const server = await startFixtureServer({
    latencyMs,
    rules: [{ match: (req) => rowOf(req) !== undefined, reply: (req) => `It is in Answer${rowOf(req)}.` }],
  });
  const send = (message: ServerMessage) => process.send?.(message);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'requests') {
      send({
        type: 'requests',
        requests: server.requests.map((r) => ({
          seq: r.seq, row: rowOf(r) ?? null, receivedAt: r.receivedAt, answeredAt: r.answeredAt ?? null, status: r.reply?.status ?? null, clientClosed: r.clientClosed === true,
        })),
      });
    }
    if (message.type === 'close') void server.close().finally(() => process.exit(0));
  });
  // The driver died or was killed: nothing else would stop this server.
  process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
  send({ type: 'ready', openaiBaseUrl: server.openaiBaseUrl });
}

main().catch((error: unknown) => {
  process.stderr.write(`fixture server child: ${String(error)}\n`);
  process.exit(1);
});
