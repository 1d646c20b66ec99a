// Import Traces as Dataset in the real extension host: an OTLP JSON trace file becomes `<name>.dataset.jsonl` beside it,
// and a line that is not JSON is logged at its file:line while the good trace still imports.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ImportTracesOutcome } from '../../../src/extension/importTraces.js';
import { activatedExtension, outputChannelLog } from './extensionHost.js';
import { workspaceFolder } from './inlineFixtures.js';

const COMMAND = 'ragInspector.importTraces';

function attribute(key: string, value: string) {
  return { key, value: { stringValue: value } };
}

/** One RAG trace as OTLP JSON (hex ids, nanosecond times as strings): a CHAIN root and its RETRIEVER child. */
const TRACE = JSON.stringify({
  resourceSpans: [{
    scopeSpans: [{
      spans: [
        { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'query', kind: 1, startTimeUnixNano: '1762000000000000000', endTimeUnixNano: '1762000001000000000', attributes: [attribute('openinference.span.kind', 'CHAIN'), attribute('input.value', 'Where is the Louvre?'), attribute('output.value', 'In Paris.')] },
        { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'c7ad6b7169203332', parentSpanId: 'b7ad6b7169203331', name: 'retrieve', kind: 1, startTimeUnixNano: '1762000000100000000', endTimeUnixNano: '1762000000200000000', attributes: [attribute('openinference.span.kind', 'RETRIEVER'), attribute('retrieval.documents.0.document.content', 'The Louvre is in Paris.')] },
      ],
    }],
  }],
});

suite('Import Traces as Dataset', () => {
  test('a trace file becomes a dataset beside it; a bad line is logged with its line number', async () => {
    const { testing } = await activatedExtension();
    const dir = vscode.Uri.joinPath(workspaceFolder(), 'traces');
    await vscode.workspace.fs.createDirectory(dir);
    const file = vscode.Uri.joinPath(dir, 'production.jsonl');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(`${TRACE}\nnot json\n`));
    // A dataset left by an earlier run of this suite would make the command ask before replacing it.
    await Promise.resolve(vscode.workspace.fs.delete(vscode.Uri.joinPath(dir, 'production.dataset.jsonl'))).catch(() => undefined);
    const outcome = await vscode.commands.executeCommand<ImportTracesOutcome>(COMMAND, file);
    assert.ok(typeof outcome === 'object' && outcome.status === 'written', `expected a written dataset, got ${JSON.stringify(outcome)}`);
    assert.equal(outcome.rows, 1);
    assert.equal(outcome.problems, 1);
    assert.equal(outcome.out, vscode.Uri.joinPath(dir, 'production.dataset.jsonl').fsPath);
    const row = JSON.parse(readFileSync(outcome.out, 'utf8').trim()) as Record<string, unknown>;
    assert.equal(row.question, 'Where is the Louvre?');
    assert.deepEqual(row.retrieved_contexts, ['The Louvre is in Paris.']);
    assert.equal(row.response, 'In Paris.');
    await outputChannelLog(testing.logUri, 'production.jsonl:2: not JSON');
  });
});
