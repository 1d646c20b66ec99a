// A run whose cases ended in errors, in real Chromium: the header says "completed with errors", shows the first
// cause with its fix, the Cases tab counts failed and errors apart, and a Rej* cell shows the answers that matched
// neither verdict; a rate over no case is "—".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODELS, rgbRun } from './builders.js';
import { collectPageErrors, useBrowser } from './harness.js';
import type { FixtureRun } from './builders.js';

const session = useBrowser();

function runWithErrors(): FixtureRun {
  const run = rgbRun({ runId: 'run-errors', name: 'RGB on a local server', createdAt: '2025-06-01T10:00:00.000Z' });
  const errored = run.detail.cases.filter((c) => c.status === 'error').length;
  return {
    ...run,
    detail: {
      ...run.detail,
      listing: { ...run.detail.listing, status: 'completed-with-errors' },
      reports: [{
        ...run.detail.reports[0]!,
        tables: [{
          id: 'rgb-rejection', title: 'Negative rejection', columns: [MODELS[0]],
          rows: [
            { label: 'Rej*', cells: [{ value: 0.25, low: 0.046, high: 0.699, n: 4, unmatched: 3 }] },
            { label: 'CR*', cells: [{ value: 0, low: 0, high: 1, n: 0 }] },
          ],
        }],
      }],
      errorCauses: [{
        key: 'k', cause: 'OpenAI-compatible (http://127.0.0.1:8080/v1): connection failed (Connection error.: ECONNREFUSED)',
        fix: 'is the server running? Start it, or correct baseUrl in the eval file', count: errored, firstCaseId: 'rgb-noise/4/noise=0.8', firstModelKey: MODELS[1],
      }],
    },
  };
}

test('completed with errors: badge, the cause and its fix in the header, failed and errors counted apart, unmatched verdicts and "—"', async () => {
  const run = runWithErrors();
  const errored = run.detail.cases.filter((c) => c.status === 'error').length;
  const failed = run.detail.cases.filter((c) => c.status === 'success' && c.pass === false).length;
  assert.ok(errored > 0 && failed > 0, 'the fixture has both');
  const page = await session.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = collectPageErrors(page);
  await page.goto(session.server.setPage({ runs: [run], csp: true }));
  await page.locator('rag-inspector-app').waitFor();

  const header = page.locator('rag-inspector-app header.bar');
  await header.locator('.badge').filter({ hasText: 'completed with errors' }).waitFor();
  assert.doesNotMatch(await header.innerText(), /\bsuccess\b/);
  const causes = header.locator('.causes');
  assert.match(await causes.innerText(), new RegExp(`${errored} errors?: .*ECONNREFUSED.* — is the server running\\? Start it, or correct baseUrl`));
  assert.ok(await causes.isVisible());
  assert.match(await header.locator('[role="tab"]#tab-cases').innerText(), new RegExp(`\\(${run.detail.cases.length}, ${failed} failed, ${errored} errors?\\)`));

  const table = page.locator('ri-report-table table[data-table="rgb-rejection"]');
  await table.waitFor();
  const [rej, cr] = [table.locator('tbody tr').nth(0).locator('td'), table.locator('tbody tr').nth(1).locator('td')];
  assert.match(await rej.innerText(), /0\.250\s*\[0\.046, 0\.699\]\s*n = 4\s*3 matched neither verdict/);
  assert.equal((await cr.locator('.value').innerText()).trim(), '—');
  assert.equal(await cr.locator('.interval').count(), 0, 'no interval over no case');
  assert.deepEqual(errors, []);
  await page.close();
});
