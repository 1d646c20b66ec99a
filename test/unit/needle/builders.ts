// Builders for needle tests: a character tokenizer (the reference's worked examples), params, results, a scripted judge.
import * as path from 'node:path';
import type { NeedleParams } from '../../../src/core/suites/needle/params.js';
import { needleSuite } from '../../../src/core/suites/needle/suite.js';
import { indexText } from '../../../src/core/suites/needle/tokenIndex.js';
import type { BoundaryRule, IndexedText } from '../../../src/core/suites/needle/tokenIndex.js';
import type { HaystackTokenizer } from '../../../src/core/suites/needle/tokenizer.js';
import { scriptedJudge as sharedScriptedJudge } from '../suites/builders.js';
import type { ScriptedJudge } from '../suites/builders.js';

export { result, scoreContext } from '../suites/builders.js';

/** Test-only data, read in place (never copied): the reference's Paul Graham essays. */
export { PG_HAYSTACK } from '../testData.js';

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

/** A scripted judge (see suites/builders.ts) whose script sees each message as "role: content". */
export const scriptedJudge = (answer: (prompt: string) => string): ScriptedJudge => sharedScriptedJudge(answer, { withRoles: true });
