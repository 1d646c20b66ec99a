// RAGAS metrics end to end against the fixture server: real HTTP judge and embeddings, scripted per prompt, faults included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvalCase, Score } from '../../../src/core/model.js';
import { scoreRagasCase } from '../../../src/core/suites/ragas/score.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { build, find, fixtureClients, nliFrom, params, promptKind, schemaName, scriptedReplies } from './builders.js';
import type { JudgeScript } from './builders.js';
import { scoreContext } from '../suites/builders.js';

const D0 = "The Eiffel Tower is a wrought-iron tower in Paris. It was completed in 1889 for the World's Fair.";
const D1 = "The tower is 330 metres tall. Gustave Eiffel's company designed and built it.";
const QUESTION = 'Where is the Eiffel Tower and what is it known for?';
const REFERENCE = 'The Eiffel Tower is in Paris. It was completed in 1889.';
const RESPONSE = "The Eiffel Tower is in Paris and is made of gold. It was built for the World's Fair and is 330 metres tall.";

const PARIS = 'The Eiffel Tower is in Paris.';
const GOLD = 'The Eiffel Tower is made of gold.';
const FAIR = "The Eiffel Tower was built for the World's Fair.";
const TALL = 'The Eiffel Tower is 330 metres tall.';
const COMPLETED = 'The Eiffel Tower was completed in 1889.';

const EMBEDDED_QUESTIONS = ['Where is the Eiffel Tower?', 'What is the Eiffel Tower made of?', 'How tall is the Eiffel Tower?'];

/** The judge's answers for the scenario above: each NLI verdict keyed by the context it was asked against. */
function scenario(): JudgeScript {
  return {
    statements: (input) => ({ statements: input.answer === RESPONSE ? [PARIS, GOLD, FAIR, TALL] : [PARIS, COMPLETED] }),
    nli: nliFrom({
      // Faithfulness asks once over the joined contexts; the World's Fair quote is a paraphrase, so it is not located.
      [`${D0}\n${D1}`]: { [PARIS]: 'a wrought-iron tower in Paris', [FAIR]: "built for the World Fair", [TALL]: 'The tower is 330 metres tall.' },
      [D0]: { [PARIS]: 'a wrought-iron tower in Paris', [FAIR]: "completed in 1889 for the World's Fair", [COMPLETED]: 'It was completed in 1889' },
      [D1]: { [TALL]: 'The tower is 330 metres tall.' },
      [REFERENCE]: { [PARIS]: 'The Eiffel Tower is in Paris.' },
    }),
    usefulness: (input) => ({ reason: input.context === D0 ? 'It places the tower in Paris.' : 'About height only.', verdict: input.context === D0 || input.answer === RESPONSE ? 1 : 0 }),
    recall: () => ({ classifications: [{ statement: 'The Eiffel Tower is in Paris.', reason: 'd0 says so', attributed: 1 }, { statement: 'It was completed in 1889.', reason: 'd0 says so', attributed: 1 }] }),
    relevance: () => ({ sentences: ['The Eiffel Tower is a wrought-iron tower in Paris.', "It was completed in 1889 for the World's Fair."] }),
    question: (_input, req) => {
      const sample = Number(schemaName(req).split('_').pop());
      return { question: EMBEDDED_QUESTIONS[sample - 1], noncommittal: sample === 2 ? 1 : 0 };
    },
  };
}

const unit = (i: number) => Array.from({ length: 8 }, (_, k) => (k === i ? 1 : 0));

let server: FixtureServer;

useFixtureServer((started) => { server = started; }, {
  embeddings: {
    [QUESTION]: unit(0),
    [EMBEDDED_QUESTIONS[0]!]: unit(0),
    [EMBEDDED_QUESTIONS[1]!]: [0.6, 0.8, 0, 0, 0, 0, 0, 0],
    [EMBEDDED_QUESTIONS[2]!]: unit(1),
  },
});

function row(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'eiffel', user_input: QUESTION, retrieved_contexts: [D0, D1], reference: REFERENCE, response: RESPONSE, ...extra };
}

async function score(evalCase: EvalCase, raw: Record<string, unknown> = {}, options: { embeddings?: boolean; judge?: boolean } = {}): Promise<Score[]> {
  const clients = fixtureClients(server.openaiBaseUrl);
  const context = scoreContext(options.judge === false ? undefined : clients.judge);
  if (options.embeddings !== false) context.embeddings = clients.embeddings;
  return scoreRagasCase(evalCase, evalCase.givenResponse ?? '', params(raw), context);
}

const chatRequests = () => server.requests.filter((r) => r.api === 'openai-chat');

describe('a full case, every metric', () => {
  it('scores each metric as the reference would, with verdicts, reasons, evidence spans and document roles kept', async () => {
    server.addRule({ reply: scriptedReplies(scenario()) });
    const evalCase = build(row(), { metrics: ['faithfulness', 'answer_relevancy', 'context_precision', 'context_utilization', 'context_recall', 'context_relevance', 'noise_sensitivity_relevant', 'noise_sensitivity_irrelevant'] });
    const scores = await score(evalCase);
    assert.deepEqual(scores.map((s) => s.metric), ['faithfulness', 'answer_relevancy', 'context_precision', 'context_utilization', 'context_recall', 'context_relevance', 'noise_sensitivity_relevant', 'noise_sensitivity_irrelevant']);
    assert.ok(scores.every((s) => s.judgeError === undefined), JSON.stringify(scores.map((s) => s.judgeError)));

    const faithfulness = find(scores, 'faithfulness');
    assert.equal(faithfulness.value, 0.75, 'verdicts [1,0,1,1]');
    const statements = (faithfulness.details as { statements: { statement: string; verdict: number; reason: string; evidence?: unknown }[] }).statements;
    assert.deepEqual(statements.map((s) => s.verdict), [1, 0, 1, 1]);
    assert.equal(statements[1]!.reason, 'not in the context');
    assert.equal(statements[2]!.evidence, undefined, 'a paraphrased quote is not located');
    assert.deepEqual(faithfulness.evidence, [
      { documentId: 'd0', start: D0.indexOf('a wrought-iron tower in Paris'), end: D0.indexOf('a wrought-iron tower in Paris') + 'a wrought-iron tower in Paris'.length, text: 'a wrought-iron tower in Paris' },
      { documentId: 'd1', start: 0, end: 'The tower is 330 metres tall.'.length, text: 'The tower is 330 metres tall.' },
    ]);
    assert.match(faithfulness.explanation ?? '', /NOT supported: The Eiffel Tower is made of gold\./);

    assert.equal(find(scores, 'answer_relevancy').value, 0.5333333333333333, 'cos 1, 0.6, 0; one noncommittal of three: the "all" rule keeps the mean');
    assert.equal(find(scores, 'context_precision').value, 0.9999999999, 'verdicts [1,0] with the reference 1e-10');
    assert.equal(find(scores, 'context_utilization').value, 2 / (2 + 1e-10), 'verdicts [1,1]');
    assert.equal(find(scores, 'context_recall').value, 1);

    const relevance = find(scores, 'context_relevance');
    assert.equal(relevance.value, 0.5, '2 of the 4 context sentences');
    assert.deepEqual(relevance.evidence?.map((e) => [e.documentId, D0.slice(e.start, e.end)]), [
      ['d0', 'The Eiffel Tower is a wrought-iron tower in Paris.'],
      ['d0', "It was completed in 1889 for the World's Fair."],
    ]);

    const relevant = find(scores, 'noise_sensitivity_relevant');
    const irrelevant = find(scores, 'noise_sensitivity_irrelevant');
    assert.equal(relevant.value, 0.25, 'the World\'s Fair claim: wrong against the reference, drawn from relevant d0');
    assert.equal(irrelevant.value, 0.25, 'the height claim: wrong against the reference, drawn from noise d1');
    const details = irrelevant.details as { claims: { claim: string; correct: boolean; counts: string | null; sources: { documentId: string; relevant: boolean }[] }[]; documentRoles: { documentId: string; role: string; supports: string[] }[] };
    const tall = details.claims.find((c) => c.claim === TALL)!;
    assert.deepEqual({ correct: tall.correct, counts: tall.counts, sources: tall.sources.map((s) => [s.documentId, s.relevant]) }, { correct: false, counts: 'irrelevant', sources: [['d1', false]] });
    assert.equal(details.claims.find((c) => c.claim === GOLD)!.counts, null, 'wrong, but from no context: counted by neither mode');
    assert.deepEqual(details.documentRoles.map((r) => [r.documentId, r.role, r.supports.length]), [['d0', 'positive', 2], ['d1', 'negative', 0]]);
    assert.deepEqual(irrelevant.evidence?.map((e) => [e.documentId, e.text]), [['d1', 'The tower is 330 metres tall.']]);
  });

  it('asks for answer-relevancy samples under distinct schema names, so the cache cannot replay one as three', async () => {
    server.addRule({ reply: scriptedReplies(scenario()) });
    await score(build(row(), { metrics: ['answer_relevancy'] }));
    const names = chatRequests().filter((r) => promptKind(r) === 'question').map(schemaName).sort();
    assert.deepEqual(names, ['ragas_answer_relevancy_1', 'ragas_answer_relevancy_2', 'ragas_answer_relevancy_3']);
    const temperatures = chatRequests().map((r) => (r.body as { temperature?: number }).temperature);
    assert.deepEqual(temperatures, [0.3, 0.3, 0.3]);
  });

  it('the response statements are generated once when faithfulness and noise sensitivity both need them', async () => {
    server.addRule({ reply: scriptedReplies(scenario()) });
    await score(build(row(), { metrics: ['faithfulness', 'noise_sensitivity'] }));
    const responseDecompositions = chatRequests().filter((r) => promptKind(r) === 'statements' && r.text.includes('made of gold'));
    assert.equal(responseDecompositions.length, 1);
  });
});

describe('what a metric needs', () => {
  it('no judge: every metric says it needs one, and nothing is called', async () => {
    const scores = await score(build(row()), {}, { judge: false });
    assert.ok(scores.length > 0);
    for (const s of scores) {
      assert.equal(s.value, null);
      assert.equal(s.label, 'needs-judge-model');
      assert.match(s.explanation ?? '', /need a judge model/);
    }
    assert.equal(server.requests.length, 0);
  });

  it('no embeddings model: answer relevancy is undetermined ("needs an embeddings model"), never 0, and no question is generated', async () => {
    server.addRule({ reply: scriptedReplies(scenario()) });
    const s = find(await score(build(row(), { metrics: ['answer_relevancy'] }), {}, { embeddings: false }), 'answer_relevancy');
    assert.equal(s.value, null);
    assert.equal(s.label, 'needs-embeddings-model');
    assert.match(s.explanation ?? '', /needs an embeddings model/);
    assert.equal(chatRequests().length, 0);
  });

  it('a row without a reference skips the metrics that read one, saying why', async () => {
    server.addRule({ reply: scriptedReplies(scenario()) });
    const evalCase = build(row({ reference: undefined }), { metrics: ['faithfulness', 'context_recall'] });
    const scores = await score(evalCase);
    assert.equal(find(scores, 'faithfulness').value, 0.75);
    const recall = find(scores, 'context_recall');
    assert.equal(recall.value, null);
    assert.match(recall.explanation ?? '', /no reference/);
  });

  it('no statements in the response: faithfulness is NaN (undetermined), not 0 or 1', async () => {
    server.addRule({ reply: scriptedReplies({ ...scenario(), statements: () => ({ statements: [] }) }) });
    const s = find(await score(build(row(), { metrics: ['faithfulness'] })), 'faithfulness');
    assert.equal(s.value, null);
    assert.equal(s.judgeError, undefined);
    assert.equal(s.label, 'no-statements');
  });

  it('all three generations noncommittal → answer relevancy 0', async () => {
    const script = scenario();
    server.addRule({ reply: scriptedReplies({ ...script, question: (input, req) => ({ ...(script.question!(input, req) as object), noncommittal: 1 }) }) });
    const s = find(await score(build(row(), { metrics: ['answer_relevancy'] })), 'answer_relevancy');
    assert.equal(s.value, 0);
    assert.equal(s.label, 'noncommittal');
  });

  it('context relevance counts sentences as pysbd does: "Dr." does not end one, so one extracted of two scores 1/2 (not 1/3)', async () => {
    const doctor = 'Dr. Smith discovered penicillin in 1928. It changed medicine.';
    server.addRule({ reply: scriptedReplies({ relevance: () => ({ sentences: ['Dr. Smith discovered penicillin in 1928.'] }) }) });
    const s = find(await score(build(row({ retrieved_contexts: [doctor] }), { metrics: ['context_relevance'] })), 'context_relevance');
    assert.equal(s.value, 0.5);
    assert.match(s.explanation ?? '', /1 of 2 context sentences/);
  });

  it('"Insufficient Information" → context relevance 0', async () => {
    server.addRule({ reply: scriptedReplies({ relevance: () => ({ sentences: ['Insufficient Information'] }) }) });
    const s = find(await score(build(row(), { metrics: ['context_relevance'] })), 'context_relevance');
    assert.equal(s.value, 0);
    assert.equal(s.label, 'insufficient-information');
  });
});

describe('judge answers out of format', () => {
  it('invalid JSON once: repaired by the one retry, and the metric is scored', async () => {
    server.addRule({ match: (req) => promptKind(req) === 'recall', reply: 'Sure! Both sentences are attributable.', times: 1 });
    server.addRule({ reply: scriptedReplies(scenario()) });
    const s = find(await score(build(row(), { metrics: ['context_recall'] })), 'context_recall');
    assert.equal(s.value, 1);
    assert.equal(chatRequests().length, 2);
    assert.match(chatRequests()[1]!.lastUserMessage, /could not be used: not JSON/);
  });

  it('a missing field twice: a judge error naming it, value null', async () => {
    server.addRule({ match: (req) => promptKind(req) === 'nli', reply: JSON.stringify({ statements: [{ statement: PARIS, reason: 'ok' }] }) });
    server.addRule({ reply: scriptedReplies(scenario()) });
    const s = find(await score(build(row(), { metrics: ['faithfulness'] })), 'faithfulness');
    assert.equal(s.value, null);
    assert.equal(s.label, 'judge-error');
    assert.match(s.judgeError ?? '', /NLI: .*must have required property 'verdict'.*after one repair attempt/);
  });

  it('a refusal: retried once, then a judge error — never a 0', async () => {
    server.addRule({ match: (req) => promptKind(req) === 'usefulness', reply: "I'm sorry, but I can't help with that request." });
    server.addRule({ reply: scriptedReplies(scenario()) });
    const s = find(await score(build(row(), { metrics: ['context_precision'] })), 'context_precision');
    assert.equal(s.value, null);
    assert.match(s.judgeError ?? '', /verdict for d0: judge output is not valid \(not JSON/);
    assert.equal(chatRequests().filter((r) => promptKind(r) === 'usefulness').length, 4, 'both contexts, each asked twice');
  });

  it('noise sensitivity: a judge that returns fewer verdicts than statements fails both modes instead of misaligning the matrix', async () => {
    const script = scenario();
    server.addRule({
      reply: scriptedReplies({
        ...script,
        nli: (input, req) => {
          const full = script.nli!(input, req) as { statements: unknown[] };
          return input.context === D1 ? { statements: full.statements.slice(1) } : full;
        },
      }),
    });
    const scores = await score(build(row(), { metrics: ['noise_sensitivity_relevant', 'noise_sensitivity_irrelevant'] }));
    for (const metric of ['noise_sensitivity_relevant', 'noise_sensitivity_irrelevant']) {
      const s = find(scores, metric);
      assert.equal(s.value, null);
      assert.match(s.judgeError ?? '', /vs d1: the judge returned \d verdicts for \d statements/);
    }
  });

  it('an embeddings endpoint that fails: answer relevancy is a recorded error, not a score', async () => {
    server.addRule({ match: { path: '/v1/embeddings' }, fault: { kind: 'status', status: 400 } });
    server.addRule({ reply: scriptedReplies(scenario()) });
    const s = find(await score(build(row(), { metrics: ['answer_relevancy'] })), 'answer_relevancy');
    assert.equal(s.value, null);
    assert.match(s.judgeError ?? '', /embeddings call failed/);
  });
});
