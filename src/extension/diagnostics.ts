// Failures where the user edits: a diagnostic on the dataset row of each failed case, a summary on the template, rebuilt from the current results.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ResultsIndex } from './resultsIndex.js';
import type { LatestEntry, LatestResults } from './currentResults.js';
import type { InputProblem } from '../core/model.js';
import { isFailure } from '../core/model.js';

export const DIAGNOSTIC_SOURCE = 'RAG Inspector';
/** Past any real line length; the editor clamps a range to its line. */
const LINE_END = 100_000;
const ROLE_USER_LINE = /^user:[ \t]*\r?$/i;
/** "'question' (read at /ws/qa.prompt:14:3)" in core's missing-variable message (prompt/template.ts). */
const VARIABLE_USE = /'([^']+)' \(read at (.+?):(\d+)(?::\d+)?\)/g;

function lineRange(line: number): vscode.Range {
  const zeroBased = Math.max(0, line - 1);
  return new vscode.Range(zeroBased, 0, zeroBased, LINE_END);
}

/**
 * Error when the case was not evaluated (the model, the prompt or the scorer failed: nothing was measured), Warning
 * for a wrong answer: the evaluation worked and measured a weakness, which is a finding to read, not a broken file.
 */
export function caseDiagnostic(entry: LatestEntry, withModel: boolean): vscode.Diagnostic {
  const model = withModel ? ` on ${entry.result.modelKey}` : '';
  const diagnostic = new vscode.Diagnostic(
    lineRange(entry.evalCase.row.line),
    `${entry.evalCase.id}${model}: ${entry.failure}`,
    entry.result.status === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = entry.evalCase.id;
  return diagnostic;
}

function problemDiagnostic(problem: InputProblem): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(lineRange(problem.line ?? 1), `${problem.message}${problem.hint ? ` — ${problem.hint}` : ''}`, vscode.DiagnosticSeverity.Error);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = 'input';
  return diagnostic;
}

/** "2 wrong answers, 1 model error" */
function tally(entries: readonly LatestEntry[]): string {
  const counts = new Map<string, number>();
  for (const { result } of entries) {
    const kind = result.status === 'error' ? `${result.error?.stage ?? 'run'} error` : 'failed verdict';
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`).join(', ');
}

/**
 * The template's summary goes where the failures came from when that is known — the line reading a variable rows
 * lack — else on the last `user:` line (the message the model answered), else line 1.
 */
async function templateDiagnostics(results: LatestResults, text: (file: string) => Promise<string | undefined>): Promise<Map<string, vscode.Diagnostic[]>> {
  const byTemplate = new Map<string, { failed: LatestEntry[]; total: number }>();
  for (const entry of results.entries.values()) {
    if (!entry.evalCase.template) continue;
    const template = path.normalize(entry.evalCase.template);
    const group = byTemplate.get(template) ?? { failed: [], total: 0 };
    group.total += 1;
    if (isFailure(entry.result)) group.failed.push(entry);
    byTemplate.set(template, group);
  }
  const out = new Map<string, vscode.Diagnostic[]>();
  const add = (file: string, diagnostic: vscode.Diagnostic) => out.set(file, [...(out.get(file) ?? []), diagnostic]);

  for (const [template, { failed, total }] of byTemplate) {
    if (failed.length === 0) continue;
    const lines = (await text(template))?.split('\n') ?? [];
    let userLine = 0;
    lines.forEach((line, i) => { if (ROLE_USER_LINE.test(line)) userLine = i + 1; });
    // Logs keep completion order; the example named should not change from run to run.
    const first = [...failed].sort((a, b) => a.evalCase.id.localeCompare(b.evalCase.id))[0]!;
    const diagnostic = new vscode.Diagnostic(
      lineRange(userLine || 1),
      `${failed.length} of ${total} cases of ${results.name} fail with this template (${tally(failed)}); e.g. ${first.evalCase.id}: ${first.failure}`,
      failed.some((e) => e.result.status === 'error') ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    diagnostic.source = DIAGNOSTIC_SOURCE;
    diagnostic.code = path.basename(results.specFile);
    add(template, diagnostic);
  }

  const missing = new Map<string, { file: string; line: number; rows: InputProblem[] }>();
  for (const problem of results.problems) {
    for (const match of problem.message.matchAll(VARIABLE_USE)) {
      const id = `${match[2]}:${match[3]}:${match[1]}`;
      const group = missing.get(id) ?? { file: path.normalize(match[2]!), line: Number(match[3]), rows: [] };
      group.rows.push(problem);
      missing.set(id, group);
    }
  }
  for (const [id, { file, line, rows }] of missing) {
    const variable = id.slice(id.lastIndexOf(':') + 1);
    const where = rows.slice(0, 3).map((p) => `${path.basename(p.file)}:${p.line ?? '?'}`).join(', ');
    const diagnostic = new vscode.Diagnostic(lineRange(line), `${rows.length} row${rows.length === 1 ? '' : 's'} of ${results.name} lack '${variable}', read here (${where}); those cases were not run`, vscode.DiagnosticSeverity.Error);
    diagnostic.source = DIAGNOSTIC_SOURCE;
    diagnostic.code = 'missing-variable';
    add(file, diagnostic);
  }
  return out;
}

/** Every diagnostic of the current results, by file path. */
export async function buildDiagnostics(all: readonly LatestResults[], text: (file: string) => Promise<string | undefined>): Promise<Map<string, vscode.Diagnostic[]>> {
  const out = new Map<string, vscode.Diagnostic[]>();
  const add = (file: string, diagnostics: vscode.Diagnostic[]) => out.set(file, [...(out.get(file) ?? []), ...diagnostics]);
  for (const results of all) {
    const models = new Set([...results.entries.values()].map((e) => e.result.modelKey));
    for (const entry of results.entries.values()) {
      if (isFailure(entry.result)) add(path.normalize(entry.evalCase.row.file), [caseDiagnostic(entry, models.size > 1)]);
    }
    for (const problem of results.problems) if (problem.line !== undefined) add(path.normalize(problem.file), [problemDiagnostic(problem)]);
    for (const [file, diagnostics] of await templateDiagnostics(results, text)) add(file, diagnostics);
  }
  return out;
}

export class ResultDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('ragInspector');
  private generation = 0;

  constructor(private readonly index: ResultsIndex) {}

  /** Replaces every diagnostic with those of the current results (so a run's fixes clear their diagnostics). */
  async update(): Promise<void> {
    const generation = ++this.generation;
    const built = await buildDiagnostics(this.index.all(), (file) => readFile(file, 'utf8').catch(() => undefined));
    // A newer update started while this one read templates: it wins.
    if (generation !== this.generation) return;
    this.collection.clear();
    for (const [file, diagnostics] of built) this.collection.set(vscode.Uri.file(file), diagnostics);
  }

  dispose(): void {
    this.collection.dispose();
  }
}

export function activateDiagnostics(context: vscode.ExtensionContext, index: ResultsIndex): ResultDiagnostics {
  const diagnostics = new ResultDiagnostics(index);
  context.subscriptions.push(diagnostics, index.onDidChange(() => void diagnostics.update()));
  return diagnostics;
}
