// Child-process entry (run with `node --import tsx`) serving the fixture LLM server to an e2e driver, which asks over IPC what it was sent.
//
// Every chat request about "landmark number <i>?" (the rows crashResume.mjs writes) is answered "It is in Answer<i>.",
// the row's correct answer, after `latencyMs`. The driver gets each request's row, arrival order and whether the
// client hung up before the answer, so it can tell which cases were in flight when the extension host died.
import type { RecordedRequest } from '../../fixtures/llmServer.js';
import { serveToParent } from '../../fixtures/serverProcess.js';
import type { ReadyMessage } from '../../fixtures/serverProcess.js';

export interface RequestRecord {
  seq: number;
  row: number | null;
  receivedAt: number;
  answeredAt: number | null;
  status: number | null;
  clientClosed: boolean;
}

export type ServerMessage = ReadyMessage | { type: 'requests'; requests: RequestRecord[] };

const rowOf = (request: Pick<RecordedRequest, 'text'>): number | undefined => {
  const found = /landmark number (\d+)\?/.exec(request.text);
  return found ? Number(found[1]) : undefined;
};

const { latencyMs = 0 } = JSON.parse(process.argv[2] ?? '{}') as { latencyMs?: number };

serveToParent('fixture server child', {
  latencyMs,
  rules: [{ match: (req) => rowOf(req) !== undefined, reply: (req) => `It is in Answer${rowOf(req)}.` }],
}, {
  requests: (server) => ({
    type: 'requests',
    requests: server.requests.map((r) => ({
      seq: r.seq, row: rowOf(r) ?? null, receivedAt: r.receivedAt, answeredAt: r.answeredAt ?? null, status: r.reply?.status ?? null, clientClosed: r.clientClosed === true,
    })),
  }) satisfies ServerMessage,
});
