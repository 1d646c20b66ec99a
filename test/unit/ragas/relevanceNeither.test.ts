// RAGAS context relevance when the judge extracts nothing and does not say "Insufficient Information": 0 as the
// reference counts it, but labelled and shown beside the mean, never a silent 0. Real HTTP to the fixture server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvalCase } from '../../../src/core/model.js';
import { scoreRagasCase } from '../../../src/core/suites/ragas/score.js';
import { ragasSuite } from '../../../src/core/suites/ragas/suite.js';
import { reportCasesOf } from '../../../src/core/suites/reportView.js';
import { formatCell } from '../../../src/core/report/summaryText.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { SUITE_ID, build, find, fixtureClients, params, result, scriptedReplies } from './builders.js';
import { scoreContext } from '../suites/builders.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

const row = (id: number) => ({ id, user_input: 'Where is the Eiffel Tower?', retrieved_contexts: ['The Eiffel Tower is in Paris. It is tall.'], response: 'Paris.', reference: 'Paris.' });

describe('context relevance, nothing extracted', () => {
  it('scores 0 labelled neither-verdict, and the mean cell counts it', async () => {
    const cases = [0, 1].map((i) => build(row(i), { metrics: ['context_relevance'] }));
    const raw = { metrics: ['context_relevance'] };
    const replies = [{ sentences: [] }, { sentences: ['The Eiffel Tower is in Paris.'] }];
    const results = [];
    for (const [i, evalCase] of cases.entries()) {
      server.clearRules();
      server.addRule({ reply: scriptedReplies({ relevance: () => replies[i]! }) });
      const context = scoreContext(fixtureClients(server.openaiBaseUrl).judge);
      results.push(result(evalCase.id, 'm', await scoreRagasCase(evalCase, evalCase.givenResponse ?? '', params(raw), context)));
    }
    const nothing = find(results[0]!.scores, 'context_relevance');
    assert.equal(nothing.value, 0);
    assert.equal(nothing.label, 'neither-verdict');
    assert.match(nothing.explanation ?? '', /did not say "Insufficient Information"/);
    const report = ragasSuite.report(reportCasesOf(new Map<string, EvalCase>(cases.map((c) => [c.id, c])), ragasSuite), results, params(raw), SUITE_ID);
    const cell = report.tables[0]!.rows.find((r) => r.label === 'context_relevance')!.cells[0]!;
    assert.equal(cell.value, 0.25, 'the reference mean: (0 + 0.5) / 2');
    assert.equal(cell.unmatched, 1);
    assert.match(formatCell(cell), /^0\.250 .*n=2 \(1 matched neither verdict\)$/);
  });
});
