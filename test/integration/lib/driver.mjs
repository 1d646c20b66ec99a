// What every UI driver shares: one clean-up of what it started (the browser, code-server, the fixture server's
// process) and a hard stop that runs it, so a driver that hangs still leaves nothing behind.

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

/** RGB rows for the drivers' workspaces: row i asks where landmark i is; its answer "Answer<i>" is in the positives only. */
export function landmarkRows(count) {
  return Array.from({ length: count }, (_, i) => JSON.stringify({
    id: i,
    query: `Where is landmark number ${i}?`,
    answer: [`Answer${i}`],
    positive: [`Landmark number ${i} is in Answer${i}.`, `Visitors reach landmark ${i} via Answer${i} station.`],
    negative: [`Landmark number ${i + 1000} is famous.`, 'Many landmarks exist.', 'Landmarks are numbered.'],
  }));
}
