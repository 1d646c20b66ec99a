// Finds files shipped with the product (built-in prompts, the JSON schema) from the source tree, the CLI bundle or the extension.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

let cachedRoot: string | undefined;

/** The folder holding RAG Inspector's package.json, found by walking up from this module. */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'rag-inspector') {
      cachedRoot = dir;
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`RAG Inspector's package.json was not found above ${__dirname}`);
    dir = parent;
  }
}

/** Absolute path of a built-in prompt, e.g. builtinPrompt('rgb/en.prompt'). */
export function builtinPrompt(relative: string): string {
  return path.join(packageRoot(), 'prompts', relative);
}
