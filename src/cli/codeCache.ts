// Loads a CommonJS bundle with a V8 code cache, so a start-up skips parsing and compiling what an earlier start did.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { cachedDataVersionTag } from 'node:v8';
import * as path from 'node:path';
import { Script } from 'node:vm';

/**
 * Node 20 has no `module.enableCompileCache` (Node 22 does): the bundle is compiled here with `vm.Script`, given the
 * code V8 produced for it in an earlier process. That code is taken after the process ran (`createCachedData` at
 * exit), so it holds the functions compiled lazily during a run too, not only the top level.
 */
export type CacheOutcome =
  /** V8 took the cached code. */
  | 'used'
  /** No cache for this bundle's content yet: one is written by `save()`. */
  | 'missing'
  /** V8 refused the cached code (another Node version, other V8 flags, a damaged file): compiled afresh, rewritten by `save()`. */
  | 'rejected'
  /** No usable cache folder (turned off, cannot be made, or not safely ours): loaded by Node, as without a cache. */
  | 'off'
  /**
   * The source may call `import()`, which a script compiled by `vm.Script` cannot run on Node 20 (with a cache or
   * without, unless an experimental flag is on): loaded by Node, never cached.
   */
  | 'imports';

export interface CachedLoad {
  exports: unknown;
  outcome: CacheOutcome;
  /** Writes the cache when this load had none it could use; never throws (a cache is never worth failing a run). */
  save(): void;
}

/**
 * The cache file starts with the SHA-256 of this format's tag and the source it was made from: V8 itself checks little
 * more than the source's length, and a cache written under other rules (the tag changes with them) is not trusted.
 */
const HASH_BYTES = 32;
const FORMAT = 'rag-inspector code cache 1\n';

/**
 * Runs `file` as a CommonJS module (its `require`, `module`, `exports`, `__filename`, `__dirname` as Node gives them)
 * with the cached code in `cacheDir` when there is one for its content. `cacheDir` undefined: no cache at all.
 * `variant` keeps one cache per kind of start: the code cached is what the process that wrote it compiled, so a
 * cache written by `--help` would leave a run compiling nearly everything itself (measured: no faster than none).
 */
export function loadWithCodeCache(file: string, cacheDir: string | undefined, variant = 'default'): CachedLoad {
  const requireFromFile = createRequire(file);
  const byNode = (outcome: CacheOutcome): CachedLoad => ({ exports: requireFromFile(file), outcome, save: () => undefined });
  if (cacheDir === undefined) return byNode('off');
  const bytes = readFileSync(file);
  const hash = createHash('sha256').update(FORMAT).update(bytes).digest();
  const cacheFile = path.join(cacheDir, cacheFileName(file, variant));
  // A cache of this very source was written only for a source without import(): the check is made once, before that.
  const cached = readCache(cacheFile, hash);
  const source = bytes.toString('utf8');
  if (cached === undefined && mayImportDynamically(source)) return byNode('imports');
  const script = new Script(wrapped(source), { filename: file, ...(cached ? { cachedData: cached } : {}) });
  const outcome: CacheOutcome = cached === undefined ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'used';
  const exports = runAsModule(script, file, requireFromFile);
  return {
    exports,
    outcome,
    save: () => {
      if (outcome === 'used') return;
      try {
        writeAtomically(cacheFile, [hash, script.createCachedData()]);
      } catch {
        // A full disk or a folder gone read-only: the next start compiles, as this one did.
      }
    },
  };
}

/**
 * Whether the source has an `import(` (`import (`, `import /* … *\/ (`) that is not part of a name (`x.import(`,
 * `_import(`) or quoted in a template's text (`` `import('node:buffer')` `` in the SDKs' messages). Other quoted ones
 * count: a source left uncached is slower, one that cannot import is broken.
 */
export function mayImportDynamically(source: string): boolean {
  for (let at = source.indexOf('import'); at !== -1; at = source.indexOf('import', at + 6)) {
    if (at > 0 && /[`\w$.]/.test(source[at - 1]!)) continue;
    let next = at + 6;
    for (;;) {
      while (/\s/.test(source[next] ?? '')) next += 1;
      if (!source.startsWith('/*', next)) break;
      const end = source.indexOf('*/', next + 2);
      if (end === -1) return false;
      next = end + 2;
    }
    if (source[next] === '(') return true;
  }
  return false;
}

/**
 * Where this user's cached code lives, made if need be: `<tmpdir>/rag-inspector-compile-cache-<uid>/<node>-<arch>`,
 * as v8-compile-cache keeps its own. Undefined (no cache) when NODE_DISABLE_COMPILE_CACHE is set, as for Node's own
 * cache, when the folder cannot be made, or when it is not this user's alone — cached code is run, so a folder
 * another user could write to is never read.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env, temporary: string = tmpdir()): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const root = path.join(temporary, `rag-inspector-compile-cache${uid === undefined ? '' : `-${uid}`}`);
  const dir = path.join(root, `${process.version}-${process.arch}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const folder of [root, dir]) {
      const stat = lstatSync(folder);
      if (!stat.isDirectory()) return undefined;
      if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * One file per installed bundle (its path's hash), variant, and V8 flags (V8's tag for them: a cache made under
 * `--max-old-space-size` is refused without it), so neither two installs nor two ways of starting Node overwrite each
 * other's cache at every start; a variant that is no plain name is the default one.
 */
function cacheFileName(file: string, variant: string): string {
  const kind = /^[a-z][a-z-]{0,23}$/.test(variant) ? variant : 'default';
  return `${path.basename(file, '.js')}-${createHash('sha256').update(file).digest('hex').slice(0, 16)}-${kind}-${cachedDataVersionTag().toString(16)}.cache`;
}

/** The cached code, when the file holds one made from this very source; anything else reads as no cache. */
function readCache(cacheFile: string, hash: Buffer): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(cacheFile, 'r');
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size <= HASH_BYTES) return undefined;
    const data = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    return data.subarray(0, HASH_BYTES).equals(hash) ? data.subarray(HASH_BYTES) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Written beside, then renamed over: a process reading the cache meanwhile sees the old file or the new one, never half. */
function writeAtomically(file: string, parts: Buffer[]): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      for (const part of parts) writeSync(fd, part);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // never written
    }
    throw error;
  }
}

/** The source in Node's CommonJS wrapper, on its first line so lines keep their numbers; a `#!` line is commented out. */
function wrapped(source: string): string {
  const body = source.startsWith('#!') ? `//${source}` : source;
  return `(function (exports, require, module, __filename, __dirname) { ${body}\n});`;
}

/** Calls the compiled wrapper as Node's loader does, with the module registered in require.cache under its path. */
function runAsModule(script: Script, file: string, requireFromFile: NodeJS.Require): unknown {
  const mod = new Module(file);
  mod.filename = file;
  // The folders a bare name is looked up in, as Node gives a module it loaded itself.
  mod.paths = requireFromFile.resolve.paths('rag-inspector') ?? [];
  requireFromFile.cache[file] = mod;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, requireFromFile, mod, file, path.dirname(file));
  mod.loaded = true;
  return mod.exports;
}
