// The LiquidJS engine templates render with: plain-text output, strict variables, file access only inside the template's folder.
import { existsSync, realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Liquid, LiquidError, toValue } from 'liquidjs';
import type { Context, Emitter, FS, Template } from 'liquidjs';
import { InputError } from '../errors.js';
import type { SourcePosition } from '../errors.js';
import { readRegularFile, readRegularFileSync } from '../regularFile.js';

// Generous limits that still stop a template from an untrusted workspace hanging the extension host.
const RENDER_LIMIT_MS = 10_000;
const PARSE_LIMIT_CHARS = 50_000_000;
/**
 * What one section's render may produce and allocate, in characters (and list items): its output, every
 * {% capture %}, and what LiquidJS counts itself (ranges, join, concat…). About 4 M tokens, twice the largest context
 * window models offer — so `(1..100000000)` or a loop writing 50 MB is refused before it takes gigabytes, and no
 * prompt a model could read is.
 */
export const TEMPLATE_MEMORY_LIMIT = 16_000_000;

/** A template or a file it includes: far above any prompt, and read before LiquidJS's parse limit could apply. */
export const MAX_TEMPLATE_BYTES = 10 * 1024 * 1024;

/**
 * An engine whose include/render/layout tags can read only files inside `folder`. LiquidJS runs no
 * JavaScript, so file access is its one way out; the sandboxed FS checks real paths (symlinks resolved) on
 * every lookup and read, and has no `fallback` (the default one resolves Node module paths).
 */
export function createEngine(folder: string): Liquid {
  const engine = new Liquid({
    root: [folder],
    partials: [folder],
    layouts: [folder],
    relativeReference: true,
    fs: sandboxedFs(folder),
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    // Prompts are plain text: never HTML-escape what a template outputs.
    outputEscape: undefined,
    renderLimit: RENDER_LIMIT_MS,
    parseLimit: PARSE_LIMIT_CHARS,
    memoryLimit: TEMPLATE_MEMORY_LIMIT,
    // Replaced at once by the system locale found on first use (deferredLocale): a placeholder LiquidJS never reads.
    locale: 'und',
  });
  deferredLocale(engine);
  chargeOutput(engine);
  return engine;
}

/**
 * LiquidJS looks up the system's locale (for the `date` filter's month and day names) when an engine is made, with an
 * `Intl.DateTimeFormat`: the process's first use of ICU, 15–25 ms before a run's first call (BENCHMARKS.md, "The
 * 300-case run's fixed cost"). The same value is looked up the first time a template reads it instead, which is
 * never for most prompts. The `date` filter reads `options.locale` of the engine's options (each render's context
 * holds that object).
 */
function deferredLocale(engine: Liquid): void {
  let locale: string | undefined;
  Object.defineProperty(engine.options, 'locale', {
    get: () => (locale ??= Intl.DateTimeFormat().resolvedOptions().locale ?? 'en-US'),
    enumerable: true,
    configurable: true,
  });
}

/**
 * LiquidJS counts what some filters and ranges allocate against `memoryLimit`, but not what a template writes: a
 * loop printing a passage a thousand times grows the output unchecked. Every emitter the engine's renderer creates
 * (the render's own, and each {% capture %}'s) charges what is written to the same per-render limit, so an
 * oversized output fails at the tag that wrote it.
 */
function chargeOutput(engine: Liquid): void {
  const renderer = engine.renderer;
  const renderTemplates = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = (templates: Template[], ctx: Context, emitter?: Emitter) =>
    renderTemplates(templates, ctx, emitter ?? new ChargedEmitter(ctx));
}

class ChargedEmitter implements Emitter {
  buffer = '';

  constructor(private readonly ctx: Context) {}

  write(html: unknown): void {
    const text = outputText(html);
    this.ctx.memoryLimit.use(text.length);
    this.buffer += text;
  }
}

/** What to do about a render stopped by one of the limits above; undefined for any other error. */
export function renderLimitHint(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  if (/memory alloc limit exceeded/.test(message)) {
    return `a section may write and allocate at most ${TEMPLATE_MEMORY_LIMIT.toLocaleString('en-US')} characters per case: shorten the loop or range on this line, or what it prints`;
  }
  if (/template render limit exceeded/.test(message)) return `a section must render within ${RENDER_LIMIT_MS / 1000} s per case: shorten the loop on this line`;
  return undefined;
}

/** How LiquidJS's own emitter turns a value into output text. */
function outputText(value: unknown): string {
  const plain: unknown = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(outputText).join('');
  return String(plain);
}

export function sandboxedFs(folder: string): FS {
  // Resolved on first use: a template being edited may not be saved into an existing folder yet.
  let prefix: string | undefined;
  const inside = (real: string) => {
    if (prefix === undefined) {
      const realFolder = realpathSync(folder);
      prefix = realFolder.endsWith(path.sep) ? realFolder : realFolder + path.sep;
    }
    return real.startsWith(prefix);
  };
  const containsSync = (_root: string, file: string) => {
    try {
      return inside(realpathSync(file));
    } catch {
      return false;
    }
  };
  const guard = (file: string) => {
    if (!containsSync(folder, file)) throw new Error(`ENOENT: "${file}" is outside the template folder "${folder}"`);
  };
  return {
    resolve: (dir, file, ext) => path.resolve(dir, path.extname(file) ? file : file + ext),
    dirname: (file) => path.dirname(file),
    sep: path.sep,
    containsSync,
    contains: async (_root, file) => {
      try {
        return inside(await realpath(file));
      } catch {
        return false;
      }
    },
    // Anything that exists is found, so that reading it says what it is ("is a named pipe") rather than "not found".
    existsSync: (file) => existsSync(file),
    exists: async (file) => (await stat(file).catch(() => undefined)) !== undefined,
    // Never a plain read: a named pipe would block the event loop (Ctrl-C included) until someone writes to it.
    readFileSync: (file) => {
      guard(file);
      return readRegularFileSync(file, MAX_TEMPLATE_BYTES).toString('utf8');
    },
    readFile: async (file) => {
      guard(file);
      return (await readRegularFile(file, MAX_TEMPLATE_BYTES)).toString('utf8');
    },
  };
}

/** Where a template section starts in its file, to turn LiquidJS's section-relative positions into file positions. */
export interface SectionOrigin {
  file: string;
  /** 1-based file line of the section's first line. */
  line: number;
}

/**
 * A LiquidJS parse or render error as an InputError at the file position it points to. Tokens from the
 * section itself count lines from the section start; tokens inside an included file carry that file's lines.
 */
export function toInputError(error: unknown, origin: SectionOrigin, hint?: string): InputError {
  if (error instanceof InputError) return error;
  if (!(error instanceof LiquidError)) {
    return new InputError({ file: origin.file, line: origin.line }, error instanceof Error ? error.message : String(error), hint);
  }
  const [line, column] = error.token.getPosition();
  const tokenFile = error.token.file;
  const inSection = tokenFile === undefined || tokenFile === origin.file;
  const position: SourcePosition = inSection
    ? { file: origin.file, line: (line ?? 1) + origin.line - 1, column }
    : { file: tokenFile, line, column };
  return new InputError(position, liquidMessage(error), hint ?? lookupHint(error, origin.file));
}

/** LiquidJS appends ", file:…, line:…, col:…" to its messages; the position is reported apart. */
function liquidMessage(error: LiquidError): string {
  const message = error.originalError?.message ?? error.message;
  return message.replace(/(, file:.*?)?, line:\d+, col:\d+$/s, '').replace(/^ENOENT: Failed to lookup/, 'cannot read');
}

function lookupHint(error: LiquidError, templateFile: string): string | undefined {
  if (!/ENOENT/.test(error.message)) return undefined;
  return includeHint(templateFile);
}

export function includeHint(templateFile: string): string {
  return `include, render and layout read only files inside the template's folder (${path.dirname(templateFile)}); use a relative name such as 'partials/docs.liquid'`;
}
