// `rag-inspector`: starts the command line (the bundle dist/cliMain.js) with its compiled code cached between starts.
import * as path from 'node:path';
import Module from 'node:module';
import { codeCacheDir, loadWithCodeCache } from './codeCache.js';
import type * as Cli from './main.js';

const BUNDLE = path.join(__dirname, 'cliMain.js');

/** The CLI's module: through Node's own compile cache where there is one (Node 22), else through ours (codeCache.ts). */
function loadCli(): typeof Cli {
  const enableCompileCache = (Module as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof enableCompileCache === 'function') {
    try {
      // Honours NODE_DISABLE_COMPILE_CACHE and NODE_COMPILE_CACHE itself; a cache it cannot use is no reason to stop.
      enableCompileCache();
    } catch {
      // compiled as without a cache
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(BUNDLE) as typeof Cli;
  }
  // One cache per command (`run`, `report`…): each compiles a different part of the bundle.
  const loaded = loadWithCodeCache(BUNDLE, codeCacheDir(), process.argv[2]);
  // At exit, so the cached code holds every function this command compiled, not only the bundle's top level.
  process.once('exit', () => loaded.save());
  return loaded.exports as typeof Cli;
}

loadCli().start();
