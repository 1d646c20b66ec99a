// A small corpus and the fixture server's scripted replies for question generation: the generator's JSON, the
// judges' verdicts and the closed-book answers, keyed by what each prompt carries.
import type { FixtureServer, RecordedRequest } from '../../../fixtures/llmServer.js';
import { chunkDocument } from '../../../../src/core/corpus/chunker.js';
import type { Chunk, CorpusDocument } from '../../../../src/core/corpus/contract.js';
import { tokenizerFor } from '../../../../src/core/prompt/tokens.js';

export const DOCS: Record<string, string> = {
  'lighthouse.md': '# Brightwater lighthouse\n\nThe Brightwater lighthouse was built in 1887 by the engineer Mara Quill.\nIts lamp can be seen from 22 nautical miles away on a clear night.\n',
  'ferry.md': '# Ferry\n\nThe harbour ferry leaves the north pier every 40 minutes.\nAn adult ticket costs 6 euros and children travel free.\n',
  'keeper.md': '# Keepers\n\nMara Quill also trained the first keeper, Tobias Wren, who lit the lamp for thirty years.\nThe keepers lived in a cottage beside the tower.\n',
};

export function corpusDocuments(): CorpusDocument[] {
  return Object.entries(DOCS).map(([file, text]) => ({ file, text, contentHash: file }));
}

/** One chunk per document (they are short). */
export function corpusChunks(): Chunk[] {
  return corpusDocuments().flatMap((doc) => chunkDocument(doc, { by: 'tokens', size: 256, overlap: 0 }, tokenizerFor('openai:gpt-4o')));
}

export const PROMPT_MARKS = {
  singleHop: 'Write one question that this passage answers',
  multiHop: 'can only be answered by combining a fact from passage 1',
  unanswerable: 'Write one question on the same topic that these documents cannot answer',
  answerable: 'You decide whether a question can be answered from the passages below alone',
  closedBook: 'Answer the question in one short sentence',
  correctness: 'You decide whether a response answers a question correctly',
  counterfactual: 'You write counterfactual evidence',
} as const;

export type PromptKind = keyof typeof PROMPT_MARKS;

export function promptKind(req: RecordedRequest): PromptKind | undefined {
  if (req.api !== 'openai-chat') return undefined;
  return (Object.keys(PROMPT_MARKS) as PromptKind[]).find((kind) => req.text.includes(PROMPT_MARKS[kind]));
}

/** The question a judge or closed-book request is about (the JSON input's "question", or the closed-book line). */
export function askedQuestion(req: RecordedRequest): string {
  const json = /"question": ("(?:[^"\\]|\\.)*")/.exec(req.text);
  if (json) return JSON.parse(json[1] as string) as string;
  return /Question: (.*)/.exec(req.text)?.[1] ?? '';
}

export const verdict = (value: string, reason = 'scripted') => JSON.stringify({ reason, verdict: value });

/**
 * Rules for one prompt kind: `reply` from the request. Added in order; the first matching rule answers, so a test adds
 * its specific rules before the defaults.
 */
export function onPrompt(server: FixtureServer, kind: PromptKind, reply: (req: RecordedRequest) => string, when: (req: RecordedRequest) => boolean = () => true): void {
  server.addRule({ match: (req) => promptKind(req) === kind && when(req), reply });
}

/** Judges that accept a good question: answerable from its chunks, the closed-book answer wrong. */
export function acceptingDefaults(server: FixtureServer): void {
  onPrompt(server, 'answerable', () => verdict('answerable', 'the passage states it'));
  onPrompt(server, 'closedBook', () => 'I don\'t know.');
  onPrompt(server, 'correctness', () => verdict('incorrect', 'the response does not give the reference answer'));
}

/** Each chunk of DOCS's single-hop question: the evidence is the chunk's second line, word for word. */
export const SINGLE_HOP_QUESTIONS: Record<string, [string, string, string]> = {
  'lighthouse.md': ['Who was the engineer who built the Brightwater lighthouse?', 'Mara Quill', 'The Brightwater lighthouse was built in 1887 by the engineer Mara Quill.'],
  'ferry.md': ['How often does the harbour ferry leave?', 'every 40 minutes', 'The harbour ferry leaves the north pier every 40 minutes.'],
  'keeper.md': ['Who lit the lighthouse lamp for thirty years?', 'Tobias Wren', 'Mara Quill also trained the first keeper, Tobias Wren, who lit the lamp for thirty years.'],
};

export function scriptSingleHop(server: FixtureServer): void {
  onPrompt(server, 'singleHop', (req) => {
    const [question, answer, evidence] = Object.values(SINGLE_HOP_QUESTIONS).find(([, , quote]) => req.text.includes(quote))!;
    return JSON.stringify({ question, answer, evidence });
  });
}
