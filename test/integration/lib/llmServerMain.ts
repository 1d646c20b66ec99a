// Child-process entry (run with `node --import tsx`) serving the fixture LLM server to an e2e driver, which asks over IPC what it was sent.
//
// Every chat request about "landmark number <i>?" (the rows crashResume.mjs writes) is answered "It is in Answer<i>.",
// the row's correct answer, after `latencyMs`. The driver gets each request's row, arrival order and whether the
// client hung up before the answer, so it can tell which cases were in flight when the extension host died.
// As a capture server (restrictedMode.mjs) it answers anything else with a canned reply and gives each request's
// whole text ("texts"), so a driver can tell whether a file's contents reached it.
// With `batchProcessingMs` (batchReload.mjs) its OpenAI batches stay in progress that long, and "batchTraffic" says
// which batch calls it received (file uploads, batches created, cancelled), the interactive chat completions, and the
// batches it holds.
import { caseRequests } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
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

/** What a request carried: its path and all its text (every message's content). */
export interface RequestText {
  seq: number;
  path: string;
  text: string;
}

/** The batch API calls received (POST /v1/files, POST /v1/batches, POST /v1/batches/<id>/cancel, retrieves) and the batches held. */
export interface BatchTraffic {
  /** Interactive chat completions a run made for its cases (its preflight left out), with the rows they asked about. */
  chatCompletions: { seq: number; row: number | null }[];
  fileUploads: number;
  batchCreates: number;
  batchCancels: number;
  batchRetrieves: number;
  batches: { id: string; status: string; total: number; completed: number; failed: number }[];
}

export type ServerMessage =
  | ReadyMessage
  | { type: 'requests'; requests: RequestRecord[] }
  | { type: 'texts'; requests: RequestText[] }
  | { type: 'batchTraffic'; traffic: BatchTraffic };

const rowOf = (request: Pick<RecordedRequest, 'text'>): number | undefined => {
  const found = /landmark number (\d+)\?/.exec(request.text);
  return found ? Number(found[1]) : undefined;
};

const { latencyMs = 0, batchProcessingMs = 0 } = JSON.parse(process.argv[2] ?? '{}') as { latencyMs?: number; batchProcessingMs?: number };

const posts = (server: FixtureServer, path: RegExp) => server.requests.filter((r) => r.method === 'POST' && path.test(r.path)).length;

serveToParent('fixture server child', {
  latencyMs,
  batchProcessingMs,
  rules: [{ match: (req) => rowOf(req) !== undefined, reply: (req) => `It is in Answer${rowOf(req)}.` }],
}, {
  requests: (server) => ({
    type: 'requests',
    // The cases' traffic: the run's preflight (model listing, a one-word probe) asks about no row.
    requests: caseRequests(server.requests).map((r) => ({
      seq: r.seq, row: rowOf(r) ?? null, receivedAt: r.receivedAt, answeredAt: r.answeredAt ?? null, status: r.reply?.status ?? null, clientClosed: r.clientClosed === true,
    })),
  }) satisfies ServerMessage,
  texts: (server) => ({ type: 'texts', requests: server.requests.map((r) => ({ seq: r.seq, path: r.path, text: r.text })) }) satisfies ServerMessage,
  batchTraffic: (server) => ({
    type: 'batchTraffic',
    traffic: {
      chatCompletions: caseRequests(server.requests).filter((r) => r.api === 'openai-chat').map((r) => ({ seq: r.seq, row: rowOf(r) ?? null })),
      fileUploads: posts(server, /^\/v1\/files$/),
      batchCreates: posts(server, /^\/v1\/batches$/),
      batchCancels: posts(server, /^\/v1\/batches\/[^/]+\/cancel$/),
      batchRetrieves: server.requests.filter((r) => r.method === 'GET' && /^\/v1\/batches\/[^/]+$/.test(r.path)).length,
      batches: [...server.batches.batches.values()].map((b) => ({ id: b.id, status: b.status, ...b.counts })),
    },
  }) satisfies ServerMessage,
});
