// The commands the CLI's follow-up lines offer are written the way the process was started.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invocation, quoted, resumeHint, retryErrorsHint } from '../../../src/cli/hints.js';

describe('invocation', () => {
  it('is rag-inspector when started through the bin link, node <script> when the script was run with node', () => {
    assert.equal(invocation('/usr/local/bin/rag-inspector', '/home/me/project'), 'rag-inspector');
    assert.equal(invocation('/home/me/project/dist/cli.js', '/home/me/project'), 'node dist/cli.js');
    assert.equal(invocation('/opt/tools/rag inspector/dist/cli.js', '/home/me/project'), `node '/opt/tools/rag inspector/dist/cli.js'`);
  });

  it('puts it in the resume and retry lines, with the eval file as given', () => {
    const context = { specFile: 'evals/my eval.yaml', runId: 'r1', command: 'node dist/cli.js' };
    assert.equal(resumeHint(context), `cancelled: finish it with  node dist/cli.js run 'evals/my eval.yaml' --resume r1`);
    assert.equal(retryErrorsHint(context, 3), `3 case(s) of this run ended in an error: run them again with  node dist/cli.js run 'evals/my eval.yaml' --resume r1 --retry-errors`);
    assert.equal(quoted("it's"), `'it'\\''s'`);
  });
});
