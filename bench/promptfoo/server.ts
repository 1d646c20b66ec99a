// Child-process entry: the fixture LLM server for one tool run, scripted to answer each workload question with its expected answer; reports what it saw over IPC.
import { createHash } from 'node:crypto';
import type { RecordedRequest } from '../../test/fixtures/llmServer.js';
import { serverLoad } from '../../test/fixtures/serverLoad.js';
import { serveToParent } from '../../test/fixtures/serverProcess.js';
import type { ReadyMessage } from '../../test/fixtures/serverProcess.js';
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

export type ServerMessage = ReadyMessage | { type: 'report'; report: ServerReport };

const QUESTION = /\n\nQuestion:\n([^\n]+)$/;

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
const answers = new Map(workloadRows(options.cases).map((r) => [r.query, r.answer[0]!]));
let unknownQuestions = 0;

serveToParent('promptfoo bench server', {
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
}, {
  report: (server) => ({ type: 'report', report: reportOf(server.requests, unknownQuestions) }) satisfies ServerMessage,
});

function reportOf(requests: readonly RecordedRequest[], unknownQuestions: number): ServerReport {
  const hashes: string[] = [];
  let sampleBody: Record<string, unknown> = {};
  for (const r of requests) {
    if (r.reply?.status !== 200) continue;
    const { messages, ...rest } = r.body as { messages?: unknown };
    if (hashes.length === 0) sampleBody = rest;
    hashes.push(createHash('sha256').update(JSON.stringify(messages)).digest('hex'));
  }
  const { byStatus, peakInFlight, meanInFlight, spanMs } = serverLoad(requests);
  const distinct = [...new Set(hashes)].sort();
  return {
    requests: requests.length,
    byStatus,
    peakInFlight,
    meanInFlight,
    spanMs,
    promptsDigest: createHash('sha256').update(distinct.join('\n')).digest('hex').slice(0, 16),
    distinctPrompts: distinct.length,
    sampleBody,
    unknownQuestions,
  };
}
