// `rag-inspector`: starts the command line (the bundle dist/cliMain.js) with its compiled code cached between starts.
import * as path from 'node:path';
import Module from 'node:module';
import { codeCacheDir, loadWithCodeCache } from './codeCache.js';
import type * as Cli from './main.js';

const BUNDLE = path.join(__dirname, 'cliMain.js');

/**
 * Node 22 caches compiled code itself (its compile cache, for every module required after it is turned on); on Node
 * 20 the bundle and the vendor bundles it loads on first use go through ours (codeCache.ts).
 */
function startCli(): void {
  const enableCompileCache = (Module as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof enableCompileCache === 'function') {
    try {
      // Honours NODE_DISABLE_COMPILE_CACHE and NODE_COMPILE_CACHE itself; a cache it cannot use is no reason to stop.
      enableCompileCache();
    } catch {
      // compiled as without a cache
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require(BUNDLE) as typeof Cli).start();
    return;
  }
  const cacheDir = codeCacheDir();
  // One cache per command (`run`, `report`…): each compiles a different part of the bundle.
  const command = process.argv[2];
  const loadBundle = (file: string): unknown => {
    const loaded = loadWithCodeCache(file, cacheDir, command);
    // At exit, so the cached code holds every function this command compiled, not only the bundle's top level.
    process.once('exit', () => loaded.save());
    return loaded.exports;
  };
  (loadBundle(BUNDLE) as typeof Cli).start({ loadBundle });
}

startCli();
