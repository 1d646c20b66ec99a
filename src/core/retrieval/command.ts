// The user's own retriever script, in any language, behind the Retriever contract: kept running (JSON lines matched
// by id) or started for each question (README, "Retriever contract").
import type { CommandRetrieverSpec, Retriever } from './contract.js';
import { commandText } from './commandProcess.js';
import { PerCallCommandRetriever } from './perCallCommand.js';
import { PersistentCommandRetriever } from './persistentCommand.js';

/**
 * A retriever running `spec.command` without a shell in `spec.cwd`, with a minimal environment plus the variables
 * `spec.env` names (read from `options.env` when the process starts). Nothing starts until the first question.
 */
export function createCommandRetriever(spec: CommandRetrieverSpec, options: { env: NodeJS.ProcessEnv }): Retriever {
  const identity = commandIdentity(spec);
  return spec.mode === 'per-call' ? new PerCallCommandRetriever(spec, options.env, identity) : new PersistentCommandRetriever(spec, options.env, identity);
}

/** "command: python3 retrieve.py" (", per-call" in that mode): the cache key's and the report's name; no env values. */
export function commandIdentity(spec: CommandRetrieverSpec): string {
  return `command: ${commandText(spec)}${spec.mode === 'per-call' ? ' (per-call)' : ''}`;
}
