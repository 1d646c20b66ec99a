// LanceDB's Node binding, loaded on first use as the vendor bundle dist/vendor/lancedb.js. Its native module (a .node
// file per platform, ~160 MB) cannot be bundled: the platform-specific .vsix carries this platform's file beside the
// bundle, the CLI finds it in the node_modules npm installed. Where neither holds it, the error names the platform and
// the way out (lanceMissing).
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type * as LanceDb from '../../vendor/lancedb.js';
import { bundledVendorFolder, loadVendor } from '../../vendor/load.js';
import { currentVsixTarget, fetchCommand, LANCE_BINARIES, lanceFile, LANCEDB_VERSION } from './lancePlatforms.js';
import type { VsixTarget } from './lancePlatforms.js';
import { StoreError } from './storeError.js';

let loaded: typeof LanceDb | undefined;

export function loadLanceDb(): typeof LanceDb {
  if (!loaded) {
    // LanceDB's own log goes to stderr at WARN ("No existing dataset … it will be created") unless told otherwise; the
    // variable is read once, when the module loads. A user's own LANCEDB_LOG wins.
    process.env.LANCEDB_LOG ??= 'error';
    const target = currentVsixTarget();
    try {
      loaded = withShippedModule(target, () => loadVendor('lancedb'));
    } catch (error) {
      throw lanceMissing(loadFailure(error), target, carriedBinaries(), `${process.platform}-${process.arch}`);
    }
  }
  return loaded;
}

const OTHER_STORES = 'set index.store to pgvector, qdrant, elasticsearch or opensearch (README, "Vector stores")';

/**
 * Why the embedded store cannot run here, as the user can act on it. `target`: this machine's VS Code platform;
 * `carried`: the native modules beside the vendor bundle (what this package ships); `why`: the loader's own words.
 */
export function lanceMissing(why: string, target: VsixTarget | undefined, carried: readonly string[], machine: string): StoreError {
  if (!target) {
    return new StoreError('index.store', `the embedded vector store (LanceDB) has no native module for ${machine} (${why})`, OTHER_STORES);
  }
  const binary = LANCE_BINARIES[target];
  if (!binary) {
    return new StoreError('index.store', `LanceDB ${LANCEDB_VERSION}, the embedded vector store, publishes no native module for ${target}, so an embedded index cannot be built or searched on this machine`, OTHER_STORES);
  }
  if (carried.includes(binary)) {
    return new StoreError('index.store', `LanceDB's native module for ${target} (${lanceFile(binary)}) is installed but could not be loaded (${why})`, OTHER_STORES);
  }
  const others = carried.flatMap((file) => Object.entries(LANCE_BINARIES).filter(([, b]) => b === file).map(([t]) => t));
  const carries = others.length > 0 ? ` (this RAG Inspector package carries the one for ${others.join(', ')})` : '';
  return new StoreError('index.store', `the embedded vector store needs LanceDB's native module for ${target} (${lanceFile(binary)}), which is not installed here${carries}`,
    `in VS Code install the .vsix built for ${target} (\`${fetchCommand(binary)}\`, then \`npm run package -- --target ${target}\`); for the CLI install it with npm on this machine, which brings the module; or ${OTHER_STORES}`);
}

/**
 * `load()` with LanceDB's loader pointed at the module shipped beside the bundle for this machine's VS Code target,
 * if there is one. The loader's own guess of the file goes by how the running Node was built (on Windows, a Node that
 * reports itself built as a shared library, as an embedding host's may, sends it to the MinGW `-gnu` module, which
 * LanceDB does not publish); the package was built for this target, so its file is the one. The variable is read by
 * every napi-rs loader, so it is set only for this synchronous require and put back after; a user's own is left alone.
 */
function withShippedModule<T>(target: VsixTarget | undefined, load: () => T): T {
  const binary = target && LANCE_BINARIES[target];
  const shipped = binary && path.join(bundledVendorFolder(), lanceFile(binary));
  if (!shipped || !existsSync(shipped) || process.env[NATIVE_PATH] !== undefined) return load();
  process.env[NATIVE_PATH] = shipped;
  try {
    return load();
  } finally {
    delete process.env[NATIVE_PATH];
  }
}

/** napi-rs's loaders require this file first when the variable is set. */
const NATIVE_PATH = 'NAPI_RS_NATIVE_LIBRARY_PATH';

/** The native modules beside the vendor bundle, by binary name (`linux-x64-gnu`). */
function carriedBinaries(): string[] {
  try {
    return readdirSync(bundledVendorFolder()).flatMap((file) => /^lancedb\.(.+)\.node$/.exec(file)?.[1] ?? []);
  } catch {
    return [];
  }
}

/**
 * The loader's reason in one line. Its own message blames npm for every failure; the errors it collected (its cause
 * chain) say what happened: the one that is not "Cannot find module" (a module found but refused by the system) if any.
 */
function loadFailure(error: unknown): string {
  const chain: string[] = [];
  for (let at: unknown = error; at instanceof Error && chain.length < 50; at = at.cause) chain.push(at.message.split('\n')[0]!);
  return chain.slice(1).find((message) => !message.startsWith('Cannot find module')) ?? chain[0] ?? String(error);
}
