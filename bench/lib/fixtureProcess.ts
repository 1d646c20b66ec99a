// Starts the fixture LLM server in a separate Node process and talks to it over IPC (stats, reset, close).
import * as path from 'node:path';
import type { FixtureOptions } from '../../test/fixtures/llmServer.js';
import type { ServerLoad } from '../../test/fixtures/serverLoad.js';
import { forkServerProcess } from '../../test/fixtures/serverProcess.js';
import type { ReadyMessage } from '../../test/fixtures/serverProcess.js';

/** The server's load (statuses, first arrival and last answer, requests in flight) since the last reset, and its CPU. */
export interface ServerStats extends ServerLoad {
  /** Requests the server recorded since the last reset (429s included). */
  requests: number;
  /** CPU the server process has used since it started. */
  cpuMs: number;
}

export type ServerMessage =
  | ReadyMessage
  | { type: 'stats'; stats: ServerStats }
  | { type: 'reset-done' };

export interface FixtureProcess {
  openaiBaseUrl: string;
  pid: number;
  stats(): Promise<ServerStats>;
  /** Forgets recorded requests (after a warm-up run); the rate-limit window is not reset. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const SERVER_MAIN = path.join(__dirname, 'fixtureServerMain.ts');

export async function startFixtureProcess(options: FixtureOptions): Promise<FixtureProcess> {
  const server = await forkServerProcess<ServerMessage>(SERVER_MAIN, options);
  return {
    openaiBaseUrl: server.openaiBaseUrl,
    pid: server.pid,
    stats: async () => (await server.ask('stats', 'stats')).stats,
    reset: async () => {
      await server.ask('reset', 'reset-done');
    },
    close: () => server.close(),
  };
}
