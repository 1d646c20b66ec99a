// The workspace's eval files and the template and dataset each of their suites reads (built-in templates included), cached by mtime.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadEvalSpec } from '../core/spec/load.js';
import type { EvalSpec, SuiteSpec } from '../core/spec/types.js';
import { suiteFor } from '../core/suites/registry.js';

export interface SuiteInputs {
  suiteId: string;
  method: string;
  /** Absolute; the method's built-in prompt when the suite names none. */
  template?: string;
  dataset?: string;
}

export interface EvalFileInfo {
  file: string;
  name: string;
  suites: SuiteInputs[];
}

/** Where RAG Inspector keeps its own state; eval files written there by a quick run are not the user's. */
export const STATE_FOLDER = '.rag-inspector';

export async function findEvalFiles(): Promise<string[]> {
  const found = await vscode.workspace.findFiles('**/*.eval.yaml', `{**/node_modules/**,**/${STATE_FOLDER}/**}`);
  return found.map((uri) => uri.fsPath).sort();
}

/** The template a suite renders with: its own, or the one its method ships; undefined when the suite cannot be set up. */
export function templateOf(suite: SuiteSpec, specFile: string): string | undefined {
  if (suite.template) return suite.template;
  const method = suiteFor(suite.method);
  if (!method) return undefined;
  try {
    return method.defaultTemplate(method.parseParams(suite.params, { file: specFile }));
  } catch {
    // Bad params are the eval file's diagnostics to report when it runs, not a reason to fail here.
    return undefined;
  }
}

export function suiteInputs(spec: EvalSpec): SuiteInputs[] {
  return spec.suites.map((suite) => ({ suiteId: suite.id, method: suite.method, template: templateOf(suite, spec.file), dataset: suite.dataset }));
}

export class EvalFiles {
  private readonly cache = new Map<string, { mtimeMs: number; info: EvalFileInfo | undefined }>();
  private list: Promise<string[]> | undefined;

  constructor(private readonly find: () => Promise<string[]> = findEvalFiles) {}

  /** The workspace's eval files, searched once until one is created or deleted (see activateEvalFiles). */
  files(): Promise<string[]> {
    this.list ??= this.find().catch(() => []);
    return this.list;
  }

  invalidate(): void {
    this.list = undefined;
  }

  /** The eval file's suites and inputs; undefined when it does not load (its errors show when it is run). */
  async info(file: string): Promise<EvalFileInfo | undefined> {
    const mtimeMs = await stat(file).then((s) => s.mtimeMs, () => undefined);
    if (mtimeMs === undefined) return undefined;
    const cached = this.cache.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached.info;
    const info = await loadEvalSpec(file).then((spec) => ({ file: spec.file, name: spec.name, suites: suiteInputs(spec) }), () => undefined);
    this.cache.set(file, { mtimeMs, info });
    return info;
  }

  /** Eval files (of the workspace, plus `extra`) with the suites that read `file` as their template or dataset. */
  async using(file: string, extra: readonly string[] = []): Promise<{ info: EvalFileInfo; suites: SuiteInputs[] }[]> {
    const target = path.normalize(file);
    const files = [...new Set([...(await this.files()), ...extra].map((f) => path.normalize(f)))];
    const users: { info: EvalFileInfo; suites: SuiteInputs[] }[] = [];
    for (const evalFile of files) {
      const info = await this.info(evalFile);
      const suites = info?.suites.filter((s) => (s.template && path.normalize(s.template) === target) || (s.dataset && path.normalize(s.dataset) === target)) ?? [];
      if (info && suites.length > 0) users.push({ info, suites });
    }
    return users;
  }
}

export function activateEvalFiles(context: vscode.ExtensionContext): EvalFiles {
  const evalFiles = new EvalFiles();
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.eval.yaml', false, true, false);
  context.subscriptions.push(watcher, watcher.onDidCreate(() => evalFiles.invalidate()), watcher.onDidDelete(() => evalFiles.invalidate()));
  return evalFiles;
}
