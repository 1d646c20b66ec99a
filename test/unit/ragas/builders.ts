// Builders for RAGAS tests: rows and cases, and a judge on the fixture server that answers each prompt kind from a script.
import type { CaseResult, DatasetRow, EvalCase, Score } from '../../../src/core/model.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { OpenAIEmbeddingProvider } from '../../../src/core/providers/embeddings.js';
import { createEmbeddingClient } from '../../../src/core/run/embeddingClient.js';
import type { CountingEmbeddingClient } from '../../../src/core/run/embeddingClient.js';
import { createModelClient } from '../../../src/core/run/modelClient.js';
import type { CountingModelClient } from '../../../src/core/run/modelClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import type { RagasParams } from '../../../src/core/suites/ragas/params.js';
import { ragasSuite } from '../../../src/core/suites/ragas/suite.js';
import type { RecordedRequest } from '../../fixtures/llmServer.js';

export { find } from '../suites/builders.js';

export const SUITE_ID = 'ragas-test';

let nextIndex = 0;

export function datasetRow(data: Record<string, unknown>, file = 'ragas.jsonl'): DatasetRow {
  const index = nextIndex++;
  return { ref: { file, line: index + 1, index }, data };
}

export function params(raw: Record<string, unknown> = {}): RagasParams {
  return ragasSuite.parseParams(raw, { file: 'test.eval.yaml' });
}

export function build(data: Record<string, unknown>, raw: Record<string, unknown> = {}): EvalCase {
  return ragasSuite.expandRow(datasetRow(data), params(raw), { suiteId: SUITE_ID, seed: 1, models: [] })[0] as EvalCase;
}

export function result(caseId: string, modelKey: string, scores: Score[], status: 'success' | 'error' = 'success'): CaseResult {
  return { caseId, modelKey, status, scores, attempts: 1, startedAt: '', finishedAt: '' };
}

/** A judge and an embeddings client that talk real HTTP (the openai SDK) to the fixture server, through the scheduler. */
export function fixtureClients(baseUrl: string): { judge: CountingModelClient; embeddings: CountingEmbeddingClient } {
  const scheduler = () => new Scheduler({ concurrency: 4, maxRetries: 1, timeoutMs: 10_000, random: () => 0, baseDelayMs: 1 });
  const judge = createModelClient({
    key: 'openai-compatible:judge',
    provider: new OpenAIProvider({ id: 'openai-compatible', baseURL: baseUrl }),
    model: 'judge',
    parameters: {},
    scheduler: scheduler(),
  });
  const embeddings = createEmbeddingClient({
    key: 'openai-compatible:embed',
    provider: new OpenAIEmbeddingProvider({ id: 'openai-compatible', baseURL: baseUrl }),
    model: 'embed',
    scheduler: scheduler(),
  });
  return { judge, embeddings };
}

export type PromptKind = 'statements' | 'nli' | 'question' | 'usefulness' | 'recall' | 'relevance';

/** Which RAGAS step a request is, from the reference instruction it carries. */
export function promptKind(req: RecordedRequest): PromptKind | undefined {
  const text = req.text;
  if (text.includes('Break down each sentence')) return 'statements';
  if (text.includes('judge the faithfulness of a series of statements')) return 'nli';
  if (text.includes('Generate a question for the given answer')) return 'question';
  if (text.includes('verify if the context was useful')) return 'usefulness';
  if (text.includes('classify if the sentence can be attributed')) return 'recall';
  if (text.includes('Please extract relevant sentences')) return 'relevance';
  return undefined;
}

/** The step's input as the prompt shows it: the JSON after "input: " in the first user message. */
/** The structured-output name a request carried (answer relevancy numbers its samples). */
export function schemaName(req: RecordedRequest): string {
  return ((req.body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name) ?? '';
}

export function promptInput(req: RecordedRequest): Record<string, unknown> {
  const messages = (req.body as { messages: { role: string; content: string }[] }).messages;
  const prompt = messages.find((m) => m.role === 'user')?.content ?? '';
  const start = prompt.lastIndexOf('\ninput: ') + '\ninput: '.length;
  const end = prompt.indexOf('\nOutput:', start);
  return JSON.parse(prompt.slice(start, end)) as Record<string, unknown>;
}

export type JudgeScript = Partial<Record<PromptKind, (input: Record<string, unknown>, req: RecordedRequest) => unknown>>;

/** A reply function for the fixture server: the scripted output for the step's kind, as JSON text. */
export function scriptedReplies(script: JudgeScript): (req: RecordedRequest) => string {
  return (req) => {
    const kind = promptKind(req);
    const handler = kind ? script[kind] : undefined;
    if (!handler) return `no script for ${kind ?? 'this prompt'}`;
    return JSON.stringify(handler(promptInput(req), req));
  };
}

/** NLI verdicts from a table: statement → [verdict, quote] per context text (a context not listed: 0). */
export function nliFrom(table: Record<string, Record<string, string | null>>): (input: Record<string, unknown>) => unknown {
  return (input) => ({
    statements: (input.statements as string[]).map((statement) => {
      const quote = table[input.context as string]?.[statement];
      const supported = quote !== undefined;
      return { statement, reason: supported ? 'stated in the context' : 'not in the context', verdict: supported ? 1 : 0, quote: supported ? quote : null };
    }),
  });
}
