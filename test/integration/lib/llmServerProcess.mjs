// The fixture LLM server in its own process (lib/llmServerMain.ts, TypeScript: node --import tsx), for the UI drivers
// that kill or reload VS Code around it; asked over IPC what it received.
import { fork } from 'node:child_process';
import * as path from 'node:path';

/** Starts the server with `options` (latencyMs, batchProcessingMs…); resolves with the child and the OpenAI-compatible base URL. */
export function startLlmServerProcess(root, options = {}, what = 'the fixture LLM server') {
  const child = fork(path.join(root, 'test/integration/lib/llmServerMain.ts'), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'], cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => (message.type === 'ready' ? resolve({ child, openaiBaseUrl: message.openaiBaseUrl }) : reject(new Error(`unexpected ${message.type}`))));
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before it was ready`)));
  });
}

/**
 * What the server received so far: `requests` (the cases' traffic, summarised: seq, row, times, status) or `texts`
 * (every request's path and text).
 */
export async function askServer(child, type) {
  return (await askServerMessage(child, type)).requests;
}

/** The server's whole answer to `type` (a `ServerMessage` of llmServerMain.ts): `batchTraffic` gives `{ traffic }`. */
export function askServerMessage(child, type) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}
