// Insertion with the real o200k tokenizer on the reference's haystack (Paul Graham essays, read in place, test-only).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { encode, decode } from 'gpt-tokenizer/encoding/o200k_base';
import type { EvalCase } from '../../../src/core/model.js';
import { needleCaseParams } from '../../../src/core/suites/needle/cases.js';
import { tokenizeHaystack } from '../../../src/core/suites/needle/haystack.js';
import { buildCell } from '../../../src/core/suites/needle/insert.js';
import { DEFAULT_NEEDLE } from '../../../src/core/suites/needle/params.js';
import { needleSuite } from '../../../src/core/suites/needle/suite.js';
import { endsSentence, indexText } from '../../../src/core/suites/needle/tokenIndex.js';
import { haystackTokenizerFor } from '../../../src/core/suites/needle/tokenizer.js';
import type { HaystackTokenizer } from '../../../src/core/suites/needle/tokenizer.js';
import { PG_HAYSTACK, SPEC_FILE, params } from './builders.js';

const LENGTHS = [1000, 5000, 30000];
const DEPTHS = [0, 10, 33, 50, 77, 100];

function pgFiles(): string[] {
  return readdirSync(PG_HAYSTACK).filter((f) => f.endsWith('.txt')).sort().map((f) => path.join(PG_HAYSTACK, f));
}

async function grid(boundary: 'sentence' | 'period-token'): Promise<EvalCase[]> {
  const p = params({ haystack: PG_HAYSTACK, contextLengths: LENGTHS, depths: DEPTHS, boundary });
  return needleSuite.generateCases!(p, { suiteId: 'pg', seed: 1, models: [], specFile: SPEC_FILE });
}

describe('o200k on the Paul Graham haystack', () => {
  let cases: EvalCase[];
  let referenceRule: EvalCase[];
  before(async () => {
    cases = await grid('sentence');
    referenceRule = await grid('period-token');
  });

  it('every needle lands right after a sentence end (or at the very start; at depth 100 at the very end), whole and highlighted', () => {
    assert.equal(cases.length, LENGTHS.length * DEPTHS.length);
    for (const evalCase of cases) {
      const document = evalCase.documents[0]!;
      const [span] = document.spans;
      assert.equal(document.spans.length, 1, evalCase.id);
      assert.equal(span!.kind, 'needle');
      assert.equal(document.text.slice(span!.start, span!.end), DEFAULT_NEEDLE, evalCase.id);
      const before = document.text.slice(0, span!.start);
      if (needleCaseParams(evalCase).requestedDepth === 100) assert.equal(span!.end, document.text.length, 'appended, as the reference does');
      else assert.ok(before === '' || endsSentence(before), `${evalCase.id}: …${JSON.stringify(before.slice(-30))}`);
    }
  });

  it('the recorded token index and depth match the text: re-encoding the text before the needle gives the index', () => {
    for (const evalCase of cases) {
      const cell = needleCaseParams(evalCase);
      const span = evalCase.documents[0]!.spans[0]!;
      assert.equal(encode(evalCase.documents[0]!.text.slice(0, span.start)).length, cell.needleTokenIndex, evalCase.id);
      assert.equal(cell.actualDepthPercent, ((cell.needleTokenIndex as number) / cell.haystackTokens) * 100);
      assert.ok((cell.actualDepthPercent as number) <= (cell.requestedDepth as number), 'backing up never moves a needle deeper');
      assert.equal(cell.contextTokens, cell.contextLength - 200, 'the reference fills L - buffer');
      if (cell.contextLength >= 5000) assert.ok((cell.requestedDepth as number) - (cell.actualDepthPercent as number) < 2, `${evalCase.id} moved ${(cell.requestedDepth as number) - (cell.actualDepthPercent as number)} points`);
    }
  });

  it('the haystack around the needle is exactly decode(encode(essays)[:kept]): tokens sliced, never re-tokenised', () => {
    const full = encode(pgFiles().map((f) => readFileSync(f, 'utf8')).join(''));
    for (const evalCase of cases.filter((c) => needleCaseParams(c).requestedDepth === 50)) {
      const cell = needleCaseParams(evalCase);
      const text = evalCase.documents[0]!.text;
      const span = evalCase.documents[0]!.spans[0]!;
      assert.equal(text.slice(0, span.start) + text.slice(span.end), decode(full.slice(0, cell.haystackTokens)), evalCase.id);
    }
  });

  it('the reference rule (the "." token only) backs up further where BPE merged the period, as METHODS.md warns', () => {
    let further = 0;
    cases.forEach((evalCase, i) => {
      const sentence = needleCaseParams(evalCase);
      const reference = needleCaseParams(referenceRule[i]!);
      assert.equal(referenceRule[i]!.id, evalCase.id);
      assert.ok((reference.needleTokenIndex as number) <= (sentence.needleTokenIndex as number), evalCase.id);
      if ((reference.needleTokenIndex as number) < (sentence.needleTokenIndex as number)) further++;
    });
    assert.ok(further > 0, 'at least one cell differs: the sentence rule finds ".\\n" and similar merged tokens');
  });

  it('tokenises the haystack once for the whole grid, then only slices', async () => {
    const real = haystackTokenizerFor('openai:gpt-4o');
    let largeEncodes = 0;
    const counting: HaystackTokenizer = { ...real, encode: (text) => {
      if (text.length > 10_000) largeEncodes++;
      return real.encode(text);
    } };
    const haystack = await tokenizeHaystack(pgFiles(), counting, 30000, 'sentence');
    const needle = indexText(DEFAULT_NEEDLE, counting, 'sentence');
    for (const contextLength of LENGTHS) for (const depthPercent of DEPTHS) buildCell(haystack, { contextLength, depthPercent, buffer: 200, needles: [needle] });
    assert.equal(largeEncodes, 1);
  });
});
