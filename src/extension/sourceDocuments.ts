// Opening a file the inspector names (a dataset row, a retrieved passage, a question's source chunk) at its line. A PDF is no text the editor can
// show, so it opens as the text the index read from it (its pages in order, corpus/pdf.ts; from the index's PDF text
// cache when there is one): a read-only document of a scheme of its own, whose lines are the ones the chunks name.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readCorpusDocument } from '../core/corpus/documents.js';
import { PdfTextCache, pdfTextCacheDir } from '../core/corpus/pdfTextCache.js';

export const PDF_TEXT_SCHEME = 'rag-inspector-pdf-text';

/** Texts of the PDFs open as text, by document URI: read once when opened, dropped when the document closes. */
const texts = new Map<string, string>();

const isPdf = (file: string) => path.extname(file).toLowerCase() === '.pdf';

/** `report.pdf` → `rag-inspector-pdf-text:/…/report.pdf.txt`: the tab says it is the PDF's text. */
export function pdfTextUri(file: string): vscode.Uri {
  const uri = vscode.Uri.file(file);
  return uri.with({ scheme: PDF_TEXT_SCHEME, path: `${uri.path}.txt` });
}

function pdfOf(uri: vscode.Uri): string {
  return uri.with({ scheme: 'file', path: uri.path.replace(/\.txt$/, '') }).fsPath;
}

/**
 * The PDF text cache of the nearest `.rag-inspector` above the PDF, where the index that read it keeps it (by the
 * bytes' hash, so whatever it holds for these bytes is the text the index read); undefined when there is none.
 */
function nearestPdfCache(file: string): PdfTextCache | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const cache = pdfTextCacheDir(path.join(dir, '.rag-inspector'));
    if (existsSync(cache)) return new PdfTextCache(cache);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The PDF's text as the index reads it; an Error naming the file and what to do when it has none. */
async function readPdfText(file: string): Promise<string> {
  const pdfCache = nearestPdfCache(file);
  const { document, problems } = await readCorpusDocument(path.dirname(file), path.basename(file), pdfCache ? { pdfCache } : {});
  if (!document) throw new Error(problems.map((problem) => problem.format()).join('; ') || `${file} could not be read`);
  return document.text;
}

/** The provider of the PDFs' texts, and the cache's clean-up: registered once at activation. */
export function registerPdfTextDocuments(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(PDF_TEXT_SCHEME, {
      // A document restored after a reload is read again.
      provideTextDocumentContent: (uri) => texts.get(uri.toString()) ?? readPdfText(pdfOf(uri)),
    }),
    vscode.workspace.onDidCloseTextDocument((document) => texts.delete(document.uri.toString())),
  );
}

/** Opens `file` at 1-based `line` (a PDF: its text); a PDF that cannot be read rejects with the reason. */
export async function openSourceAt(file: string, line: number): Promise<vscode.TextEditor> {
  const position = new vscode.Position(Math.max(0, line - 1), 0);
  const options = { selection: new vscode.Range(position, position), preview: true };
  if (!isPdf(file)) return vscode.window.showTextDocument(vscode.Uri.file(file), options);
  const uri = pdfTextUri(file);
  if (!texts.has(uri.toString())) texts.set(uri.toString(), await readPdfText(file));
  return vscode.window.showTextDocument(uri, options);
}
