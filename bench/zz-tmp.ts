import { rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import { rgbNoiseEval } from './lib/rgbNoiseEval.js';
async function main() {
  const server = await startFixtureProcess({ latencyMs: 100 });
  const ws = createWorkspace({ rows: rgbRows(300), evalYaml: () => rgbNoiseEval({ name: 'x', model: `{ provider: openai-compatible, model: fixture-model, baseUrl: ${server.openaiBaseUrl} }`, concurrency: 16, maxRetries: 0 }) });
  for (let i = 0; i < 3; i++) { rmSync(ws.dir + '/.rag-inspector/cache', { recursive: true, force: true }); spawnSync(process.execPath, ['--require', process.argv[3] ?? '/tmp/tl/wave.cjs', process.argv[2] ?? '/work/main/dist/cli.js', 'run', ws.evalFile, '--quiet'], { cwd: ws.dir, env: { ...process.env, OPENAI_API_KEY: 'sk-x' } }); }
  ws.cleanup(); await server.close();
}
main();
