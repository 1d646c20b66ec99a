// Child-process entry that runs the fixture LLM server for a benchmark, so the server's CPU is never charged to the engine being measured.
import type { FixtureOptions } from '../../test/fixtures/llmServer.js';
import { serverLoad } from '../../test/fixtures/serverLoad.js';
import { serveToParent } from '../../test/fixtures/serverProcess.js';
import type { ServerMessage } from './fixtureProcess.js';

serveToParent('fixture server child', JSON.parse(process.argv[2] ?? '{}') as FixtureOptions, {
  // What the server saw, from its own records: how many calls, which statuses, how many overlapped at once, its CPU.
  stats: (server) => {
    const cpu = process.cpuUsage();
    return { type: 'stats', stats: { requests: server.requests.length, ...serverLoad(server.requests), cpuMs: (cpu.user + cpu.system) / 1000 } } satisfies ServerMessage;
  },
  reset: (server) => {
    server.requests.length = 0;
    return { type: 'reset-done' } satisfies ServerMessage;
  },
});
