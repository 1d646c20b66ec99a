// Builders for needle tests: a character tokenizer (the reference's worked examples), params, results, a scripted judge.
import * as path from 'node:path';
import type { CaseResult, Score } from '../../../src/core/model.js';
import type { ClientResponse, ModelClient } from '../../../src/core/suites/contract.js';
import type { NeedleParams } from '../../../src/core/suites/needle/params.js';
import { needleSuite } from '../../../src/core/suites/needle/suite.js';
import { indexText } from '../../../src/core/suites/needle/tokenIndex.js';
import type { BoundaryRule, IndexedText } from '../../../src/core/suites/needle/tokenIndex.js';
import type { HaystackTokenizer } from '../../../src/core/suites/needle/tokenizer.js';

/** Test-only data, read in place (never copied): the reference's Paul Graham essays. */
export const PG_HAYSTACK = path.resolve(__dirname, '../../../../shared/data/haystack-pg');

export const SPEC_FILE = path.resolve(__dirname, 'needle-test.eval.yaml');

/** Token = one UTF-16 code unit: what METHODS.md's worked examples count in. */
export const charTokenizer: HaystackTokenizer = {
  name: 'chars',
  approximate: false,
  encode: (text) => Array.from({ length: text.length }, (_, i) => text.charCodeAt(i)),
  decodeChunks: (tokens, sink) => {
    for (const token of tokens) sink(String.fromCharCode(token), 1);
  },
};

export function charIndex(text: string, rule: BoundaryRule = 'sentence'): IndexedText {
  return indexText(text, charTokenizer, rule);
}

export function params(raw: Record<string, unknown> = {}): NeedleParams {
  return needleSuite.parseParams(raw, { file: SPEC_FILE });
}

export const noSignal = new AbortController().signal;

export function result(caseId: string, modelKey: string, scores: Score[], status: 'success' | 'error' = 'success'): CaseResult {
  return { caseId, modelKey, status, scores, attempts: 1, startedAt: '2024-01-01T00:00:00Z', finishedAt: '2024-01-01T00:00:01Z' };
}

/** A judge that answers from a script (or throws), remembering what it was asked. */
export function scriptedJudge(answer: (prompt: string) => string): ModelClient & { prompts: string[]; temperatures: (number | undefined)[] } {
  const prompts: string[] = [];
  const temperatures: (number | undefined)[] = [];
  return {
    key: 'fake:judge',
    prompts,
    temperatures,
    async complete(request): Promise<ClientResponse> {
      prompts.push(request.messages.map((m) => `${m.role}: ${m.content}`).join('\n'));
      temperatures.push(request.temperature);
      return { text: answer(prompts.at(-1) as string), usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, cached: false, attempts: 1 };
    },
  };
}
