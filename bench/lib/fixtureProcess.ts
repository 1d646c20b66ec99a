// Starts the fixture LLM server in a separate Node process and talks to it over IPC (stats, reset, close).
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { FixtureOptions } from '../../test/fixtures/llmServer.js';

export interface ServerStats {
  /** Requests the server recorded since the last reset (429s included). */
  requests: number;
  /** Count per HTTP status ("200", "429"…). */
  byStatus: Record<string, number>;
  firstReceivedAt: number;
  lastAnsweredAt: number;
  /** Most requests open at the server at one moment: the concurrency the engine really achieved. */
  peakInFlight: number;
  /** Requests open at the server on average between the first arrival and the last answer. */
  meanInFlight: number;
  /** CPU the server process has used since it started. */
  cpuMs: number;
}

export type ServerMessage =
  | { type: 'ready'; openaiBaseUrl: string }
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
  const child = fork(SERVER_MAIN, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await nextMessage(child, 'ready');
  return {
    openaiBaseUrl: ready.openaiBaseUrl,
    pid: child.pid ?? -1,
    stats: async () => {
      const reply = nextMessage(child, 'stats');
      child.send({ type: 'stats' });
      return (await reply).stats;
    },
    reset: async () => {
      const reply = nextMessage(child, 'reset-done');
      child.send({ type: 'reset' });
      await reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'close' });
      }),
  };
}

function nextMessage<K extends ServerMessage['type']>(child: ChildProcess, type: K): Promise<Extract<ServerMessage, { type: K }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ServerMessage) => {
      if (message.type !== type) return;
      cleanup();
      resolve(message as Extract<ServerMessage, { type: K }>);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the fixture server process exited (code ${code}) before answering "${type}"`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
