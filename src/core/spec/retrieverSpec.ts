// `retriever:` of the eval file: the checks the schema cannot make (which keys go with which type, a command written
// as one string) and the loaded RetrieverSpec (paths absolute, defaults applied).
import * as path from 'node:path';
import { InputError } from '../errors.js';
import type { RetrieverSpec } from '../retrieval/contract.js';
import { asRecord } from './checks.js';
import type { EvalSpec } from './types.js';
import type { YamlLocator } from './yamlPositions.js';

type Raw = Record<string, unknown>;

export const DEFAULT_RETRIEVER_TIMEOUT_MS = 30_000;

const KEYS_OF: Readonly<Record<string, readonly string[]>> = {
  command: ['type', 'command', 'cwd', 'mode', 'env', 'timeoutMs', 'params'],
  http: ['type', 'url', 'headers', 'response', 'timeoutMs', 'params'],
  dataset: ['type'],
};

/** Problems of `retriever:` beyond its schema, each at its line. */
export function retrieverProblems(data: Raw, locator: YamlLocator): InputError[] {
  const raw = asRecord(data.retriever);
  if (!raw) return [];
  const type = typeof raw.type === 'string' ? raw.type : 'dataset';
  const allowed = KEYS_OF[type];
  if (!allowed) return []; // the schema reports the type
  const problems: InputError[] = [];
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) problems.push(new InputError(locator.keyAt(['retriever'], key), `retriever.${key} does not apply to a ${type} retriever`, `a ${type} retriever takes ${allowed.join(', ')}${type === 'dataset' ? '; set type: command or type: http to call your own retriever' : ''}`));
  }
  if (type === 'command') {
    if (raw.command === undefined) problems.push(new InputError(locator.valueAt(['retriever']), 'a command retriever needs command:', 'e.g. command: [python, retrieve.py]'));
    else if (typeof raw.command === 'string') {
      const words = raw.command.trim().split(/\s+/);
      problems.push(new InputError(locator.valueAt(['retriever', 'command']), 'retriever.command is one string: it is run without a shell, so it must be a list of the program and its arguments', `write it as a list: command: [${words.map((w) => JSON.stringify(w)).join(', ')}] (quote each argument as the program should receive it)`));
    }
  }
  if (type === 'http' && raw.url === undefined) problems.push(new InputError(locator.valueAt(['retriever']), 'an http retriever needs url:', 'e.g. url: http://localhost:8000/retrieve'));
  return problems;
}

/** The checked `retriever:` as the run uses it; undefined when the file has none (the rows' passages). */
export function toRetrieverSpec(raw: unknown, evalFolder: string): RetrieverSpec | undefined {
  const source = asRecord(raw);
  if (!source) return undefined;
  const timeoutMs = (source.timeoutMs as number | undefined) ?? DEFAULT_RETRIEVER_TIMEOUT_MS;
  const params = source.params as Record<string, unknown> | undefined;
  if (source.type === 'command') {
    return {
      type: 'command',
      command: source.command as string[],
      cwd: path.resolve(evalFolder, (source.cwd as string | undefined) ?? '.'),
      mode: (source.mode as 'persistent' | 'per-call' | undefined) ?? 'persistent',
      timeoutMs,
      ...(source.env ? { env: source.env as string[] } : {}),
      ...(params ? { params } : {}),
    };
  }
  if (source.type === 'http') {
    return {
      type: 'http',
      url: source.url as string,
      headers: (source.headers as Record<string, { env: string; prefix?: string }> | undefined) ?? {},
      timeoutMs,
      ...(params ? { params } : {}),
      ...(source.response ? { response: source.response as NonNullable<Extract<RetrieverSpec, { type: 'http' }>['response']> } : {}),
    };
  }
  return { type: 'dataset' };
}

/**
 * What an untrusted workspace (Restricted Mode) may do with the eval file's retriever: a command would run a program
 * the workspace chose, so it is refused with words saying how to proceed; an http service is an endpoint the workspace
 * chose, asked about like a model's baseUrl; the rows' own passages need nothing.
 */
export function untrustedRetriever(spec: Pick<EvalSpec, 'retriever' | 'index' | 'file'>): { refused: string } | { endpoint: string } | undefined {
  // The product's own index runs nothing the workspace chose; its reranker is an endpoint the workspace chose.
  if (spec.index?.rerank) return { endpoint: spec.index.rerank.url };
  const source = spec.retriever;
  if (source?.type === 'command') {
    return { refused: `${spec.file}: this untrusted workspace's eval file names a command retriever (${source.command.join(' ')}); Restricted Mode never starts a program the workspace chose. Trust the workspace (Workspaces: Manage Workspace Trust) to run it, or use retriever: { type: dataset } with the passages in the rows` };
  }
  if (source?.type === 'http') return { endpoint: source.url };
  return undefined;
}
