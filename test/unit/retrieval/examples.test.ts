// The README's example retrievers (examples/retrievers), Python and Node, run through the persistent command retriever.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { createCommandRetriever } from '../../../src/core/retrieval/command.js';
import { never } from './retrievalAsserts.js';

const EXAMPLES = path.resolve(__dirname, '../../../examples/retrievers');

describe('example retrievers', () => {
  for (const command of [['python3', 'retriever.py'], [process.execPath, 'retriever.mjs']]) {
    it(`${path.basename(command[1]!)} answers by word overlap, several questions at once`, async () => {
      const retriever = createCommandRetriever({ type: 'command', command, cwd: EXAMPLES, mode: 'persistent', timeoutMs: 30_000 }, { env: process.env });
      try {
        const [france, river] = await Promise.all([
          retriever.retrieve({ question: 'What is the capital of France?', k: 2 }, never),
          retriever.retrieve({ question: 'Which river is the longest?', k: 1 }, never),
        ]);
        assert.deepEqual(france.items.map((item) => item.id), ['paris', 'berlin']);
        assert.equal(france.items[0]!.text, 'Paris is the capital of France.');
        assert.ok(france.items[0]!.score! > france.items[1]!.score!);
        assert.deepEqual(river.items.map((item) => item.id), ['nile']);
      } finally {
        await retriever.close!();
      }
    });
  }
});
