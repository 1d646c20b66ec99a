// Planning the generations: the same inputs plan the same jobs (what resume relies on), a larger count extends the
// plan, kinds take turns, multi-hop pairs a chunk with a related one, and a shortfall is said, not hidden.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planJobs } from '../../../../src/core/corpus/questions/jobs.js';
import { locateQuote } from '../../../../src/core/corpus/questions/evidence.js';
import { corpusChunks } from './fixtureCorpus.js';

const chunks = corpusChunks();

describe('planJobs', () => {
  it('plans the same jobs for the same seed, and a larger count keeps the smaller plan as its start', () => {
    const a = planJobs(chunks, ['single-hop', 'unanswerable'], 4, 5);
    const b = planJobs(chunks, ['single-hop', 'unanswerable'], 4, 5);
    assert.deepEqual(a.jobs.map((j) => j.key), b.jobs.map((j) => j.key));
    assert.deepEqual(a.jobs.map((j) => j.kind), ['single-hop', 'unanswerable', 'single-hop', 'unanswerable']);
    const more = planJobs(chunks, ['single-hop', 'unanswerable'], 6, 5);
    assert.deepEqual(more.jobs.slice(0, 4).map((j) => j.key), a.jobs.map((j) => j.key));
    assert.notDeepEqual(planJobs(chunks, ['single-hop'], 3, 6).jobs.map((j) => j.key), planJobs(chunks, ['single-hop'], 3, 5).jobs.map((j) => j.key));
  });

  it('pairs a multi-hop chunk with one sharing its terms, and says when a kind runs out of chunks', () => {
    const plan = planJobs(chunks, ['multi-hop', 'single-hop'], 10, 1);
    const multi = plan.jobs.filter((j) => j.kind === 'multi-hop');
    assert.ok(multi.length > 0);
    for (const job of multi) {
      assert.equal(job.chunks.length, 2);
      assert.notEqual(job.chunks[0]!.file, job.chunks[1]!.file);
    }
    // The lighthouse and keeper chunks share "Mara Quill", "lamp": each is the other's partner.
    const lighthouse = multi.find((j) => j.chunks[0]!.file === 'lighthouse.md');
    assert.equal(lighthouse?.chunks[1]?.file, 'keeper.md');
    assert.equal(plan.jobs.filter((j) => j.kind === 'single-hop').length, 3);
    assert.ok(plan.shortfalls.some((s) => s.startsWith('single-hop: 3 question(s) planned, fewer than asked')), plan.shortfalls.join('\n'));
  });
});

describe('locateQuote', () => {
  it('finds a quote reflowed across lines or wrapped in quote marks, and nothing for a paraphrase', () => {
    const chunk = chunks.find((c) => c.file === 'ferry.md')!;
    const found = locateQuote(chunk, '“The harbour ferry leaves the north pier every 40 minutes. An adult ticket”');
    assert.ok(found);
    assert.equal(chunk.text.slice(found.start, found.end), 'The harbour ferry leaves the north pier every 40 minutes.\nAn adult ticket');
    assert.equal(locateQuote(chunk, 'The ferry departs every forty minutes.'), undefined);
    assert.equal(locateQuote(chunk, '  '), undefined);
  });
});
