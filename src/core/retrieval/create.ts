// The run's retriever from the eval file's `retriever:` (a command or an HTTP service; the rows' own passages need no
// retriever object).
import type { CommandRetrieverSpec, HttpRetrieverSpec, Retriever } from './contract.js';
import { createCommandRetriever } from './command.js';
import { createHttpRetriever } from './http.js';

/** A retriever for `spec`; environment variables it names are read from `options.env`. Starts nothing yet. */
export function createRetriever(spec: CommandRetrieverSpec | HttpRetrieverSpec, options: { env: NodeJS.ProcessEnv }): Retriever {
  return spec.type === 'command' ? createCommandRetriever(spec, options) : createHttpRetriever(spec, options);
}
