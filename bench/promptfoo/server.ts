// Child-process entry: the fixture LLM server for one tool run, scripted to answer each workload question with its expected answer; reports what it saw over IPC.
import { createHash } from 'node:crypto';
import { startFixtureServer } from '../../test/fixtures/llmServer.js';
import type { RecordedRequest } from '../../test/fixtures/llmServer.js';
import { workloadRows } from './workload.js';

export interface ServerOptions {
  cases: number;
  latencyMs: number;
  requestsPerMinute?: number;
}

export interface ServerReport {
  requests: number;
  byStatus: Record<string, number>;
  /** Most requests open at once, from the server's own arrival and answer times. */
  peakInFlight: number;
  /** Requests open on average between the first arrival and the last answer: how well the tool kept its slots busy. */
  meanInFlight: number;
  /** ms from the first request's arrival to the last answer. */
  spanMs: number;
  /** SHA-256 over the sorted SHA-256s of the message lists of the answered (200) requests: equal for two tools iff they sent the same prompts. */
  promptsDigest: string;
  /** Distinct answered prompts. */
  distinctPrompts: number;
  /** The first answered request's body without its messages (model, temperature, max_tokens, stream…). */
  sampleBody: Record<string, unknown>;
  /** Requests whose question the server did not know (a prompt that differs from the workload). */
  unknownQuestions: number;
}

export type ServerMessage = { type: 'ready'; openaiBaseUrl: string } | { type: 'report'; report: ServerReport };

const QUESTION = /\n\nQuestion:\n([^\n]+)$/;

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
  const answers = new Map(workloadRows(options.cases).map((r) => [r.query, r.answer[0]!]));
  let unknownQuestions = 0;
  const server = await startFixtureServer({
    latencyMs: options.latencyMs,
    ...(options.requestsPerMinute ? { rateLimit: { requestsPerMinute: options.requestsPerMinute } } : {}),
    rules: [
      {
        reply: (req: RecordedRequest) => {
          const answer = answers.get(QUESTION.exec(req.lastUserMessage)?.[1] ?? '');
          if (answer === undefined) unknownQuestions++;
          return answer === undefined ? 'I can not answer the question because of the insufficient information in documents.' : `The answer is ${answer}.`;
        },
      },
    ],
  });
  process.on('message', (message: { type: string }) => {
    if (message.type === 'report') process.send?.({ type: 'report', report: reportOf(server.requests, unknownQuestions) } satisfies ServerMessage);
    if (message.type === 'close') void server.close().finally(() => process.exit(0));
  });
  process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
  process.send?.({ type: 'ready', openaiBaseUrl: server.openaiBaseUrl } satisfies ServerMessage);
}

function reportOf(requests: readonly RecordedRequest[], unknownQuestions: number): ServerReport {
  const byStatus: Record<string, number> = {};
  const edges: [number, number][] = [];
  const hashes: string[] = [];
  let sampleBody: Record<string, unknown> = {};
  let busyMs = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const r of requests) {
    const status = String(r.reply?.status ?? 'none');
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    first = Math.min(first, r.receivedAt);
    if (r.answeredAt !== undefined) {
      edges.push([r.receivedAt, 1], [r.answeredAt, -1]);
      busyMs += r.answeredAt - r.receivedAt;
      last = Math.max(last, r.answeredAt);
    }
    if (r.reply?.status !== 200) continue;
    const { messages, ...rest } = r.body as { messages?: unknown };
    if (hashes.length === 0) sampleBody = rest;
    hashes.push(createHash('sha256').update(JSON.stringify(messages)).digest('hex'));
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peakInFlight = 0;
  for (const [, delta] of edges) {
    open += delta;
    peakInFlight = Math.max(peakInFlight, open);
  }
  const distinct = [...new Set(hashes)].sort();
  return {
    requests: requests.length,
    byStatus,
    peakInFlight,
    meanInFlight: last > first ? busyMs / (last - first) : 0,
    spanMs: last > first ? last - first : 0,
    promptsDigest: createHash('sha256').update(distinct.join('\n')).digest('hex').slice(0, 16),
    distinctPrompts: distinct.length,
    sampleBody,
    unknownQuestions,
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`promptfoo bench server: ${String(error)}\n`);
  process.exit(1);
});
