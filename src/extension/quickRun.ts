// Run Evaluation on a template or dataset with no eval file: ask the missing choices, run them, offer to save them as an eval file.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { describeError } from '../core/errors.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { knownMethods, suiteFor } from '../core/suites/registry.js';
import { firstRowOf, methodItems } from './methodProposal.js';
import { STATE_FOLDER } from './evalFiles.js';
import type { EvalFiles } from './evalFiles.js';
import type { LaunchOutcome, RunLauncher } from './launch.js';
import type { Logger } from './outputChannel.js';

export const TEMPLATE_EXTENSIONS = ['.prompt', '.prompty', '.liquid', '.j2', '.jinja'];
export const DATASET_EXTENSIONS = ['.jsonl', '.json', '.csv', '.yaml', '.yml'];
export const SAVE_AS_EVAL_FILE = 'Save as eval file';

/** Offered when `ragInspector.defaultModel` is empty; the first needs no key and no network. */
export const MODEL_CHOICES: readonly { label: string; detail: string }[] = [
  { label: 'extractive:bm25', detail: 'Offline baseline: picks the prompt sentence that best matches the question (no model, no key)' },
  { label: 'openai:gpt-4o-mini', detail: 'OpenAI (needs an API key: RAG Inspector: Set API Key)' },
  { label: 'anthropic:claude-3-5-haiku-latest', detail: 'Anthropic (needs an API key)' },
];
const OTHER_MODEL = 'Other model…';
const BUILTIN_TEMPLATE = 'Built-in prompt of the method';

export type InputKind = 'template' | 'dataset';

/** JSON and YAML files that are certainly not datasets. */
const NOT_DATASETS = /(^|[\\/])(package(-lock)?\.json|tsconfig[^\\/]*\.json|jsconfig\.json|[^\\/]*\.eval\.yaml|\.[^\\/]*rc\.(json|ya?ml))$/;

export function inputKindOf(file: string): InputKind | undefined {
  const lower = file.toLowerCase();
  if (lower.endsWith('.eval.yaml') || NOT_DATASETS.test(lower)) return undefined;
  if (TEMPLATE_EXTENSIONS.some((e) => lower.endsWith(e))) return 'template';
  if (DATASET_EXTENSIONS.some((e) => lower.endsWith(e))) return 'dataset';
  return undefined;
}

/** The answers that make an eval file: everything absolute until written. */
export interface QuickChoices {
  name: string;
  method: string;
  params: Record<string, unknown>;
  template?: string;
  dataset: string;
  model: string;
}

/** An eval file for the choices, paths relative to `dir` (where it is written). */
export function evalFileText(choices: QuickChoices, dir: string, origin: string): string {
  const relative = (file: string) => path.relative(dir, file).split(path.sep).join('/');
  const suiteId = `${choices.method}${typeof choices.params.testbed === 'string' ? `-${choices.params.testbed.split('_')[0]}` : ''}`;
  const suite: Record<string, unknown> = { id: suiteId, method: choices.method };
  if (choices.template) suite.template = relative(choices.template);
  suite.dataset = relative(choices.dataset);
  if (Object.keys(choices.params).length > 0) suite.params = choices.params;
  const body = stringify({ version: 1, name: choices.name, models: [choices.model], suites: [suite] });
  return `# Written by RAG Inspector (Run Evaluation on ${path.basename(origin)}). Paths are relative to this file.\n${body}`;
}

async function pick<T extends vscode.QuickPickItem>(items: T[], title: string, placeHolder: string): Promise<T | undefined> {
  return vscode.window.showQuickPick(items, { title: `RAG Inspector: Run Evaluation — ${title}`, placeHolder, ignoreFocusOut: true });
}

const EXCLUDE = `{**/node_modules/**,**/${STATE_FOLDER}/**,**/.vscode/**,**/.git/**}`;

async function workspaceFiles(kind: InputKind): Promise<vscode.Uri[]> {
  const glob = kind === 'template' ? `**/*{${TEMPLATE_EXTENSIONS.join(',')}}` : `**/*{${DATASET_EXTENSIONS.join(',')}}`;
  const found = await vscode.workspace.findFiles(glob, EXCLUDE, 500);
  return found.filter((uri) => !NOT_DATASETS.test(uri.fsPath)).sort((a, b) => a.fsPath.localeCompare(b.fsPath));
}

/** Method, then its variant (RGB's testbed), then the other input file, then the model; undefined when the user backs out. */
export async function askChoices(file: string, kind: InputKind): Promise<QuickChoices | undefined> {
  const methods = knownMethods();
  // A method that fits the dataset's first row (Suite.proposeFor) is proposed first.
  const items = methodItems(methods, kind === 'dataset' ? await firstRowOf(file) : undefined);
  const method = methods.length === 1
    ? methods[0]!
    : (await pick(items, 'method', 'Which evaluation method?'))?.label;
  if (!method) return undefined;

  let params: Record<string, unknown> = {};
  // The method's one required choice (Suite.quickRunChoice: RGB's testbed) is asked here; a method that needs more
  // says so now, before any other question.
  const choice = suiteFor(method)?.quickRunChoice;
  if (choice) {
    const picked = await pick(choice.choices.map((c) => ({ ...c })), choice.param, choice.question);
    if (!picked) return undefined;
    params = { [choice.param]: picked.label };
  } else {
    try {
      suiteFor(method)?.parseParams({}, { file });
    } catch (error) {
      void vscode.window.showErrorMessage(`RAG Inspector: ${method} needs parameters Run Evaluation does not ask for (${describeError(error)}). Write an eval file for it.`);
      return undefined;
    }
  }

  let template: string | undefined;
  let dataset: string;
  if (kind === 'template') {
    template = file;
    const files = await workspaceFiles('dataset');
    const chosen = await pick(files.map((uri) => ({ label: path.basename(uri.fsPath), description: vscode.workspace.asRelativePath(uri), uri })), 'dataset', 'Which dataset?');
    if (!chosen) return undefined;
    dataset = chosen.uri.fsPath;
  } else {
    dataset = file;
    const files = await workspaceFiles('template');
    const items = [{ label: BUILTIN_TEMPLATE, description: method, uri: undefined as vscode.Uri | undefined }, ...files.map((uri) => ({ label: path.basename(uri.fsPath), description: vscode.workspace.asRelativePath(uri), uri }))];
    const chosen = await pick(items, 'template', 'Which prompt template?');
    if (!chosen) return undefined;
    template = chosen.uri?.fsPath;
  }

  const model = await askModel();
  if (!model) return undefined;
  return { name: path.basename(file).replace(/\.[^.]+$/, ''), method, params, template, dataset, model };
}

async function askModel(): Promise<string | undefined> {
  const configured = vscode.workspace.getConfiguration('ragInspector').get<string>('defaultModel', '').trim();
  if (configured) return configured;
  const chosen = await pick([...MODEL_CHOICES, { label: OTHER_MODEL, detail: 'provider:model, e.g. openai-compatible:llama3.1' }], 'model', 'Which model? (set ragInspector.defaultModel to skip this)');
  if (!chosen) return undefined;
  if (chosen.label !== OTHER_MODEL) return chosen.label;
  return vscode.window.showInputBox({
    title: 'RAG Inspector: Run Evaluation — model',
    prompt: 'provider:model (providers: openai, openai-compatible, anthropic, extractive)',
    ignoreFocusOut: true,
    validateInput: (value) => (/^[a-z-]+:.+$/.test(value.trim()) ? undefined : 'Write it as provider:model, e.g. openai:gpt-4o-mini.'),
  }).then((value) => value?.trim() || undefined);
}

/** `<dir>/<base>.eval.yaml`, or `<base>-2.eval.yaml`… when that exists: a save never overwrites the user's file. */
export function freeEvalPath(dir: string, base: string): string {
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, `${base}${n === 1 ? '' : `-${n}`}.eval.yaml`);
    if (!existsSync(candidate)) return candidate;
  }
}

/** Writes the eval file beside the template or dataset, checks it loads, and opens it. */
export async function saveEvalFile(choices: QuickChoices, origin: string, evalFiles: EvalFiles): Promise<string> {
  const dir = path.dirname(origin);
  const target = freeEvalPath(dir, choices.name);
  await writeFile(target, evalFileText(choices, dir, origin), { flag: 'wx' });
  // At once, before anything else can run: a Run Evaluation on the template from now on must find this file, and
  // the file watcher reports it later (and opening it below takes a while).
  evalFiles.invalidate();
  await loadEvalSpec(target);
  await vscode.window.showTextDocument(vscode.Uri.file(target), { preview: false });
  return target;
}

export interface QuickRunResult {
  outcome: LaunchOutcome | 'cancelled';
  /** Settles when the "Save as eval file" offer is answered (the file written) or dismissed. */
  saved: Promise<string | undefined>;
}

/**
 * The run uses an eval file under `.rag-inspector/quick/` (the engine runs files, and its runs and diagnostics need
 * one to name); "Save as eval file" writes the same choices beside the user's file, where they belong.
 */
export async function quickRun(launcher: RunLauncher, logger: Logger, evalFiles: EvalFiles, file: string): Promise<QuickRunResult> {
  const kind = inputKindOf(file);
  const none = { outcome: 'cancelled' as const, saved: Promise.resolve(undefined) };
  if (!kind) return none;
  const choices = await askChoices(file, kind);
  if (!choices) return none;
  const method = suiteFor(choices.method);
  if (method) method.parseParams(choices.params, { file });
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))?.uri.fsPath ?? path.dirname(file);
  const quickDir = path.join(folder, STATE_FOLDER, 'quick');
  await mkdir(quickDir, { recursive: true });
  const quickFile = path.join(quickDir, `${choices.name}.eval.yaml`);
  await writeFile(quickFile, evalFileText(choices, quickDir, file));
  logger.info(`Run Evaluation on ${file}: choices written to ${quickFile}.`);
  const outcome = await launcher.launch({ specFile: quickFile, title: 'Run Evaluation', openInspector: true, announce: true });
  if (typeof outcome !== 'object') return { outcome, saved: Promise.resolve(undefined) };
  const saved = Promise.resolve(vscode.window.showInformationMessage(
    `RAG Inspector: keep these choices (${choices.method}${choices.params.testbed ? ` ${String(choices.params.testbed)}` : ''}, ${choices.model}) as an eval file beside ${path.basename(file)}?`,
    SAVE_AS_EVAL_FILE,
  )).then(async (answer) => {
    if (answer !== SAVE_AS_EVAL_FILE) return undefined;
    const target = await saveEvalFile(choices, file, evalFiles);
    logger.info(`Saved the eval file ${target}.`);
    return target;
  }).catch((error: unknown) => {
    logger.error(error instanceof Error ? error : String(error));
    void vscode.window.showErrorMessage(`RAG Inspector: could not save the eval file: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  return { outcome, saved };
}
