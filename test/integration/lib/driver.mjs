// What every UI driver shares: one clean-up of what it started (the browser, code-server, the fixture server's
// process) and a hard stop that runs it, so a driver that hangs still leaves nothing behind.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Arms the hard stop after E2E_TIMEOUT_MS (else `defaultMs`) and returns the clean-up. `parts()` is asked at clean-up
 * time, so the driver's own variables, set as it goes, are what get stopped.
 */
export function driverCleanUp(what, defaultMs, parts) {
  const cleanUp = async () => {
    const { browser, server, llm } = parts();
    await browser?.close();
    server?.stop({ keepFiles: process.env.E2E_KEEP === '1' });
    if (llm?.connected) llm.disconnect();
  };
  const timeoutMs = Number(process.env.E2E_TIMEOUT_MS ?? defaultMs);
  const hardStop = setTimeout(async () => {
    console.error(`${what}: timeout of ${timeoutMs / 1000}s reached`);
    await cleanUp();
    process.exit(124);
  }, timeoutMs);
  hardStop.unref();
  return cleanUp;
}

/**
 * Empties `dir` and writes `landmarks.jsonl` (`cases` rows) and `<name>.eval.yaml`: one RGB noise suite at ratio 0 on
 * the fixture server at `baseUrl` (a local endpoint without a key, so none is configured). `modelLines` and
 * `topLines` add to the model entry and the top level (batch: true, concurrency…).
 */
export function writeLandmarkWorkspace(dir, { name, cases, baseUrl, modelLines = [], topLines = [] }) {
  for (const entry of readdirSync(dir)) rmSync(path.join(dir, entry), { recursive: true, force: true });
  writeFileSync(path.join(dir, 'landmarks.jsonl'), `${landmarkRows(cases).join('\n')}\n`);
  writeFileSync(path.join(dir, `${name}.eval.yaml`), [
    `# ${cases} cases on the fixture LLM server; a local endpoint without a key, so none is configured.`,
    'version: 1',
    `name: ${name}`,
    'models:',
    '  - provider: openai-compatible',
    '    model: fixture-model',
    ...modelLines.map((line) => `    ${line}`),
    `    baseUrl: ${baseUrl}`,
    ...topLines,
    'timeoutMs: 30000',
    'suites:',
    '  - id: noise',
    '    method: rgb',
    '    dataset: landmarks.jsonl',
    '    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }',
    '',
  ].join('\n'));
}

/** The case id of landmark row `row` in that workspace. */
export const landmarkCaseId = (row) => `noise/${row}/noise=0`;

/** RGB rows for the drivers' workspaces: row i asks where landmark i is; its answer "Answer<i>" is in the positives only. */
function landmarkRows(count) {
  return Array.from({ length: count }, (_, i) => JSON.stringify({
    id: i,
    query: `Where is landmark number ${i}?`,
    answer: [`Answer${i}`],
    positive: [`Landmark number ${i} is in Answer${i}.`, `Visitors reach landmark ${i} via Answer${i} station.`],
    negative: [`Landmark number ${i + 1000} is famous.`, 'Many landmarks exist.', 'Landmarks are numbered.'],
  }));
}
