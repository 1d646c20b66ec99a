// PDFs in the real extension host: Build Index reads a folder's PDFs through the bundled pdf.js (dist/vendor/pdf.js,
// no worker thread) and warns, naming the file, about one without text; a PDF passage opened as the inspector opens
// it (the extension's own handler) shows the text the index read (from its PDF text cache), at the passage's line,
// where its character range is the chunk's text; an encrypted PDF is refused with its name and the way out.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Chunk } from '../../../src/core/corpus/contract.js';
import type { CorpusOutcome } from '../../../src/extension/corpusCommands.js';
import { PDF_TEXT_SCHEME } from '../../../src/extension/sourceDocuments.js';
import { activatedExtension } from './extensionHost.js';
import { answerPrompts, workspaceFolder } from './inlineFixtures.js';

suite('PDF documents', () => {
  let lab: string;
  let docs: string;
  let restore: () => void = () => undefined;

  suiteSetup(async () => {
    const { extension } = await activatedExtension();
    lab = path.join(workspaceFolder().fsPath, 'pdf-lab');
    docs = path.join(lab, 'docs');
    mkdirSync(docs, { recursive: true });
    const fixtures = path.join(extension.extensionPath, 'test', 'fixtures', 'pdf');
    for (const name of ['report.pdf', 'scan.pdf', 'encrypted.pdf']) copyFileSync(path.join(fixtures, name), path.join(docs, name));
    writeFileSync(path.join(docs, 'notes.md'), '# Notes\n\nThe ferry to the lighthouse leaves at nine.\n');
    writeFileSync(path.join(lab, 'questions.jsonl'), '{"id": "q1", "question": "Who was the last head keeper?", "answer": "Marta Ellingsen"}\n');
    writeFileSync(path.join(lab, 'pdf.eval.yaml'), [
      'version: 1',
      'name: pdf',
      'models:',
      '  - { provider: extractive, model: bm25 }',
      'index:',
      '  folder: docs',
      '  exclude: ["encrypted.pdf"]',
      '  chunking: { by: tokens, size: 32, overlap: 8 }',
      '  search: bm25',
      'suites:',
      '  - { id: corpus, method: rag, dataset: questions.jsonl, params: { k: 2 } }',
      '',
    ].join('\n'));
  });
  teardown(async () => {
    restore();
    restore = () => undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(() => rmSync(lab, { recursive: true, force: true }));

  test('Build Index reads the PDF, warns about the one without text, and a passage opens as the PDF\'s text at its line', async function () {
    this.timeout(60_000);
    const warnings: string[] = [];
    restore = answerPrompts({ showWarningMessage: ((message: string) => { warnings.push(message); return Promise.resolve(undefined); }) as typeof vscode.window.showWarningMessage });
    const outcome = await vscode.commands.executeCommand<CorpusOutcome>('ragInspector.buildIndex', vscode.Uri.file(path.join(lab, 'pdf.eval.yaml')));
    assert.equal(outcome.status, 'built', JSON.stringify(outcome));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /1 file\(s\), line\(s\) or page\(s\) could not be read .*scan\.pdf: has no text layer .*OCR it first/);

    const summary = (outcome as Extract<CorpusOutcome, { status: 'built' }>).summary;
    const chunks = readFileSync(path.join(summary.indexDir, 'chunks.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Chunk);
    const chunk = chunks.find((c) => c.file === 'report.pdf' && c.text.includes('Marta Ellingsen'));
    assert.ok(chunk, 'the PDF is indexed');
    assert.equal(chunk.startPage, 2);

    const { testing } = await activatedExtension();
    const editor = await testing.openSourceAt(path.join(docs, 'report.pdf'), chunk.startLine);
    assert.equal(editor.document.uri.scheme, PDF_TEXT_SCHEME);
    assert.equal(path.basename(editor.document.uri.path), 'report.pdf.txt');
    assert.equal(editor.document.getText().slice(chunk.startChar, chunk.endChar), chunk.text, 'the chunk\'s range is into this text');
    assert.equal(editor.selection.active.line, chunk.startLine - 1);
    assert.ok(editor.document.lineAt(chunk.startLine - 1).text.includes(chunk.text.split('\n')[0]!));

    // The text comes from the index's PDF text cache (by the bytes' hash), not from pdf.js: with a text planted in
    // that cache entry, a copy of the PDF (the same bytes, a document VS Code has not opened) shows it.
    const hash = createHash('sha256').update(readFileSync(path.join(docs, 'report.pdf'))).digest('hex');
    const entry = path.join(lab, '.rag-inspector', 'cache', 'pdf-text', hash.slice(0, 2), `${hash}.json`);
    writeFileSync(entry, JSON.stringify({ ...JSON.parse(readFileSync(entry, 'utf8')) as object, text: 'Planted in the cache.', pages: [[0, 1]] }));
    mkdirSync(path.join(lab, 'copies'));
    copyFileSync(path.join(docs, 'report.pdf'), path.join(lab, 'copies', 'report.pdf'));
    const copy = await testing.openSourceAt(path.join(lab, 'copies', 'report.pdf'), 1);
    assert.equal(copy.document.getText(), 'Planted in the cache.');
  });

  test('an encrypted PDF is not opened: the reason names it and says what to do', async () => {
    const { testing } = await activatedExtension();
    await assert.rejects(testing.openSourceAt(path.join(docs, 'encrypted.pdf'), 1), /encrypted\.pdf: is encrypted .* — save a copy without the password/);
  });
});
