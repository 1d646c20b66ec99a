// "Generate Counterfactual Data": IF-RAG counterfactual rows for a QA dataset, written by an LLM into a new file beside it for review.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readDataset } from '../core/data/readDataset.js';
import { createGeneratorClient } from '../core/engine/clients.js';
import { describeError } from '../core/errors.js';
import { ProviderConfigError } from '../core/providers/contract.js';
import type { Credentials } from '../core/providers/registry.js';
import type { CountingModelClient } from '../core/run/modelClient.js';
import { toModelSpec } from '../core/spec/load.js';
import { generateCounterfactuals, toJsonLines } from '../core/suites/ifrag/counterfactual.js';
import type { CounterfactualOutcome, GenerationSummary } from '../core/suites/ifrag/counterfactual.js';
import { STATE_FOLDER } from './evalFiles.js';
import { languageModelProviders } from './languageModelProvider.js';
import type { Logger } from './outputChannel.js';
import { DATASET_EXTENSIONS, MODEL_CHOICES, inputKindOf } from './quickRun.js';
import { slotForProvider } from './secrets.js';
import type { DatasetRow } from '../core/model.js';
import type { ModelSpec } from '../core/providers/contract.js';

export const GENERATE_COUNTERFACTUAL_COMMAND = 'ragInspector.generateCounterfactual';
export const OPEN_FILE = 'Open File';
export const SHOW_FAILURES = 'Show Failures';
export const REPLACE = 'Replace';
const TITLE = 'RAG Inspector: Generate Counterfactual Data';
const OTHER_MODEL = 'Other model…';

/** The CLI's default --seed and --concurrency, so the command and `rag-inspector generate-counterfactual` make the same requests; ragInspector.concurrency overrides the latter as it does for runs. */
const SEED = 2333;
const CONCURRENCY = 4;
/** Progress updates at most this often, as for runs. */
const PROGRESS_INTERVAL_MS = 100;

/** What a caller (a test, another extension) may pass instead of the user's answers; the Explorer passes a Uri. */
export interface GenerateCounterfactualArgs {
  file?: vscode.Uri | string;
  /** "provider:model". */
  model?: string;
}

export type GenerateCounterfactualOutcome =
  /** `failed` counts rows marked failed in the new file and rows that could not be read (left out of it). */
  | { status: 'written'; out: string; generated: number; kept: number; failed: number }
  | 'cancelled' | 'no-dataset' | 'failed';

export interface GenerateCounterfactualDeps {
  credentials: Credentials;
  logger: Logger;
}

// ——— the choices ———

function argsOf(arg: unknown): GenerateCounterfactualArgs {
  if (arg instanceof vscode.Uri || typeof arg === 'string') return { file: arg };
  return typeof arg === 'object' && arg !== null ? (arg as GenerateCounterfactualArgs) : {};
}

function datasetOf(given: GenerateCounterfactualArgs['file']): string | undefined {
  if (given instanceof vscode.Uri) return given.scheme === 'file' ? given.fsPath : undefined;
  // A relative path would be resolved against the extension host's working directory, which is no folder of the user's.
  if (typeof given === 'string') return path.isAbsolute(given) ? given : undefined;
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === 'file' && inputKindOf(active.fsPath) === 'dataset' ? active.fsPath : undefined;
}

async function pickDataset(): Promise<string | undefined> {
  const found = await vscode.workspace.findFiles(`**/*{${DATASET_EXTENSIONS.join(',')}}`, `{**/node_modules/**,**/${STATE_FOLDER}/**,**/.vscode/**,**/.git/**}`, 500);
  const datasets = found.filter((uri) => inputKindOf(uri.fsPath) === 'dataset').sort((a, b) => a.fsPath.localeCompare(b.fsPath));
  if (datasets.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    datasets.map((uri) => ({ label: path.basename(uri.fsPath), description: vscode.workspace.asRelativePath(uri), uri })),
    { title: `${TITLE} — dataset`, placeHolder: 'Which QA dataset (question, answer, passages)?', ignoreFocusOut: true },
  );
  return picked?.uri.fsPath;
}

/** Extractive models pick sentences from the prompt: they cannot write JSON, so every row would fail after two calls. */
function modelProblem(model: string): string | undefined {
  if (!/^[a-z-]+:.+$/.test(model)) return `"${model}" is not a model: write it as provider:model, e.g. openai:gpt-4o-mini.`;
  if (model.startsWith('extractive:')) return `${model} cannot write counterfactual evidence (it only picks sentences): choose an LLM.`;
  return undefined;
}

/** Always asked (generation is paid and its model matters), with ragInspector.defaultModel first and so preselected. */
async function askModel(): Promise<string | undefined> {
  const configured = vscode.workspace.getConfiguration('ragInspector').get<string>('defaultModel', '').trim();
  const usable = configured && modelProblem(configured) === undefined ? configured : undefined;
  const items: vscode.QuickPickItem[] = [
    ...(usable ? [{ label: usable, description: 'ragInspector.defaultModel' }] : []),
    ...MODEL_CHOICES.filter((c) => modelProblem(c.label) === undefined && c.label !== usable),
    { label: OTHER_MODEL, detail: 'provider:model, e.g. openai-compatible:llama3.1 or vscode-lm:copilot/gpt-4o' },
  ];
  const chosen = await vscode.window.showQuickPick(items, { title: `${TITLE} — model`, placeHolder: 'Which model writes the counterfactual answers and evidence?', ignoreFocusOut: true });
  if (!chosen) return undefined;
  if (chosen.label !== OTHER_MODEL) return chosen.label;
  const typed = await vscode.window.showInputBox({
    title: `${TITLE} — model`,
    prompt: 'provider:model (providers: openai, openai-compatible, anthropic, vscode-lm)',
    ignoreFocusOut: true,
    validateInput: (value) => modelProblem(value.trim()),
  });
  return typed?.trim() || undefined;
}

/** The model entry as a run would use it: an OpenAI-family model naming no endpoint gets ragInspector.openaiBaseUrl. */
function modelSpecOf(model: string): ModelSpec {
  const spec = toModelSpec(model);
  const baseUrl = vscode.workspace.getConfiguration('ragInspector').get<string>('openaiBaseUrl')?.trim();
  return baseUrl && (spec.provider === 'openai' || spec.provider === 'openai-compatible') ? { ...spec, baseUrl } : spec;
}

/** `<dir>/<name>.counterfactual.jsonl`: always JSON Lines, whatever the input's format, since toJsonLines writes that. */
export function counterfactualPathOf(dataset: string): string {
  const base = path.basename(dataset, path.extname(dataset));
  return path.join(path.dirname(dataset), `${base}.counterfactual.jsonl`);
}

async function replaceConfirmed(out: string): Promise<boolean> {
  if (!existsSync(out)) return true;
  const answer = await vscode.window.showWarningMessage(
    `${path.basename(out)} already exists. Replace it with newly generated counterfactual data?`,
    { modal: true, detail: 'Its rows, reviewed or not, are lost. The dataset itself is never changed.' },
    REPLACE,
  );
  return answer === REPLACE;
}

// ——— the generation ———

interface ReadRows {
  rows: DatasetRow[];
  /** Lines that could not be read at all: they cannot be copied to the new file, so they are reported as failures. */
  unreadable: string[];
}

async function readRows(file: string): Promise<ReadRows> {
  const read: ReadRows = { rows: [], unreadable: [] };
  for await (const item of readDataset(file)) {
    if (item.ok) read.rows.push(item.row);
    else read.unreadable.push(item.error.format());
  }
  return read;
}

/** Runs under a cancellable notification; 'cancelled' when its Cancel button was pressed, whatever the rows in flight reported. */
function generateWithProgress(dataset: string, rows: DatasetRow[], client: CountingModelClient, concurrency: number): Thenable<GenerationSummary | 'cancelled'> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `${TITLE} — ${path.basename(dataset)}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      let shown = 0;
      let last = 0;
      progress.report({ message: `0/${rows.length} rows with ${client.key}` });
      try {
        return await generateCounterfactuals({
          rows,
          client,
          signal: controller.signal,
          seed: SEED,
          concurrency,
          onProgress: ({ done, total, failed }) => {
            const now = Date.now();
            if (done < total && now - last < PROGRESS_INTERVAL_MS) return;
            last = now;
            const percent = (100 * done) / total;
            progress.report({ increment: percent - shown, message: `${done}/${total} rows${failed > 0 ? `, ${failed} failed` : ''}` });
            shown = percent;
          },
        });
      } catch (error) {
        if (controller.signal.aborted) return 'cancelled';
        throw error;
      } finally {
        cancel.dispose();
      }
    },
  );
}

function rowName(outcome: CounterfactualOutcome): string {
  const id = outcome.row.data.id;
  return `${outcome.row.ref.file}:${outcome.row.ref.line}${typeof id === 'string' || typeof id === 'number' ? ` (id ${id})` : ''}`;
}

/** The same report as the CLI's, in the output channel: "Show Failures" opens it there. */
function logSummary(logger: Logger, summary: GenerationSummary, unreadable: readonly string[], out: string): void {
  logger.info(`Generate Counterfactual Data: ${summary.generated} row(s) generated, ${summary.kept} already had counterfactual data, ${summary.failed + unreadable.length} failed.`);
  logger.info(`Wrote ${out} — review it before use: failed rows are kept without counterfactual data and with counterfactualError.`);
  const failures = summary.outcomes.flatMap((o) => (o.status === 'failed' ? [`  ${rowName(o)}: ${o.reason}`] : []));
  if (failures.length > 0) logger.warn(['Failed rows:', ...failures].join('\n'));
  if (unreadable.length > 0) logger.warn(['Unreadable rows (not in the new file):', ...unreadable.map((u) => `  ${u}`)].join('\n'));
}

/** Not awaited by the command: a notification's buttons settle only when the user acts, and callers want the outcome now. */
function offerResult(logger: Logger, out: string, summary: GenerationSummary, failed: number): void {
  const text = `${TITLE}: ${summary.generated} generated, ${summary.kept} already had data, ${failed} failed. Review ${path.basename(out)} before use.`;
  const buttons = failed > 0 ? [OPEN_FILE, SHOW_FAILURES] : [OPEN_FILE];
  const shown = failed > 0 ? vscode.window.showWarningMessage(text, ...buttons) : vscode.window.showInformationMessage(text, ...buttons);
  void Promise.resolve(shown).then(async (answer) => {
    if (answer === OPEN_FILE) await vscode.window.showTextDocument(vscode.Uri.file(out), { preview: false });
    if (answer === SHOW_FAILURES) logger.show();
  }).catch((error: unknown) => logger.error(error instanceof Error ? error : String(error)));
}

function reportError(logger: Logger, error: unknown, model: ModelSpec | undefined): void {
  logger.error(error instanceof Error ? error : String(error));
  const slot = model && error instanceof ProviderConfigError ? slotForProvider(model.provider) : undefined;
  const text = `${TITLE}: ${describeError(error)}`;
  if (!slot) {
    void vscode.window.showErrorMessage(text);
    return;
  }
  // Most configuration errors here are a missing key, which the user can fix in one step.
  void Promise.resolve(vscode.window.showErrorMessage(text, 'Set API Key')).then((answer) => {
    if (answer) void vscode.commands.executeCommand('ragInspector.setApiKey', slot);
  });
}

/**
 * Cancelling writes nothing, as in the CLI: a half-generated file would look complete beside the dataset, and the
 * rows not yet generated would be indistinguishable from rows the user chose to leave without counterfactual data.
 */
export async function generateCounterfactualCommand(deps: GenerateCounterfactualDeps, arg?: unknown): Promise<GenerateCounterfactualOutcome> {
  const { logger } = deps;
  const args = argsOf(arg);
  const dataset = datasetOf(args.file) ?? (await pickDataset());
  if (!dataset) {
    void vscode.window.showErrorMessage(`${TITLE}: open or select a QA dataset (.jsonl with question, answer, passages).`);
    return 'no-dataset';
  }
  const out = counterfactualPathOf(dataset);
  // The name rule makes this impossible today; the guard keeps "never overwrite the input" true if the rule changes.
  if (path.resolve(out) === path.resolve(dataset)) {
    void vscode.window.showErrorMessage(`${TITLE}: the new file would replace the dataset ${dataset}; the dataset is never overwritten.`);
    return 'failed';
  }

  const model = (typeof args.model === 'string' ? args.model.trim() : undefined) ?? (await askModel());
  if (!model) return 'cancelled';
  const problem = modelProblem(model);
  if (problem) {
    void vscode.window.showErrorMessage(`${TITLE}: ${problem}`);
    return 'failed';
  }
  if (!(await replaceConfirmed(out))) return 'cancelled';

  let spec: ModelSpec | undefined;
  try {
    spec = modelSpecOf(model);
    const concurrency = vscode.workspace.getConfiguration('ragInspector').get<number | null>('concurrency') ?? CONCURRENCY;
    const client = await createGeneratorClient(spec, { credentials: deps.credentials, concurrency, seed: SEED, providers: languageModelProviders() });
    const { rows, unreadable } = await readRows(dataset);
    if (rows.length === 0) throw new Error(`no usable rows in ${dataset}${unreadable[0] ? `: ${unreadable[0]}` : ''}`);
    logger.info(`Generate Counterfactual Data: ${rows.length} row(s) of ${dataset} with ${client.key}.`);
    const summary = await generateWithProgress(dataset, rows, client, concurrency);
    if (summary === 'cancelled') {
      logger.info('Generate Counterfactual Data: cancelled; nothing was written.');
      void vscode.window.showInformationMessage(`${TITLE}: cancelled; nothing was written.`);
      return 'cancelled';
    }
    await writeFile(out, toJsonLines(summary), 'utf8');
    const failed = summary.failed + unreadable.length;
    logSummary(logger, summary, unreadable, out);
    offerResult(logger, out, summary, failed);
    return { status: 'written', out, generated: summary.generated, kept: summary.kept, failed };
  } catch (error) {
    reportError(logger, error, spec);
    return 'failed';
  }
}

export function activateGenerateCounterfactual(context: vscode.ExtensionContext, credentials: Credentials, logger: Logger): void {
  context.subscriptions.push(vscode.commands.registerCommand(GENERATE_COUNTERFACTUAL_COMMAND, (arg?: unknown) => generateCounterfactualCommand({ credentials, logger }, arg)));
}
