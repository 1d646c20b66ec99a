// Vendor libraries a run may not use, loaded on first use. The OpenAI and Anthropic SDKs and the OpenTelemetry
// exporter were 2.5 MB of the 3.9 MB CLI bundle, parsed at every start even by a run of the extractive baseline
// (BENCHMARKS.md, "Fixed cost of a small run"). The build writes each barrel of this folder to a bundle of its own
// beside the main one (dist/vendor/<name>.js, esbuild.mjs), as it does the tokenizer tables (prompt/encodings.ts);
// from sources the barrel itself is loaded. One way for all three: a synchronous require, so a provider keeps its
// synchronous constructor and loads its SDK in its first call, and nothing else changes shape. Types come from the
// packages with `import type`, which costs nothing at run time.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type * as AnthropicVendor from './anthropic.js';
import type * as OpenAIVendor from './openai.js';
import type * as OtelVendor from './otel.js';
import type * as McpVendor from './mcp.js';
import type * as PgVendor from './pg.js';
import type * as QdrantVendor from './qdrant.js';
import type * as ElasticVendor from './elastic.js';
import type * as OpenSearchVendor from './opensearch.js';
import type * as LanceDbVendor from './lancedb.js';
import type * as PdfVendor from './pdf.js';

interface Vendors {
  openai: typeof OpenAIVendor;
  anthropic: typeof AnthropicVendor;
  otel: typeof OtelVendor;
  mcp: typeof McpVendor;
  pg: typeof PgVendor;
  qdrant: typeof QdrantVendor;
  elastic: typeof ElasticVendor;
  opensearch: typeof OpenSearchVendor;
  lancedb: typeof LanceDbVendor;
  pdf: typeof PdfVendor;
}

export type VendorName = keyof Vendors;

const loaded = new Map<VendorName, Vendors[VendorName]>();

/** Loads a vendor bundle file: Node's require unless the host gave another way (loadBundlesWith). */
let loadBundle: (file: string) => unknown = (file) => {
  // A computed require: the bundler leaves it alone, so the vendor stays out of the bundle that starts.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file);
};

/**
 * How the vendor bundles are loaded from now on: the CLI's way, which keeps their compiled code between starts
 * (src/cli/codeCache.ts; the Anthropic SDK and the exporter take ~30 ms each to compile). It must behave as require.
 */
export function loadBundlesWith(load: (file: string) => unknown): void {
  loadBundle = load;
}

export function loadVendor<Name extends VendorName>(name: Name): Vendors[Name] {
  let vendor = loaded.get(name) as Vendors[Name] | undefined;
  if (!vendor) {
    const bundled = path.join(bundledVendorFolder(), `${name}.js`);
    // From sources, the barrel itself (through the test runner's loader).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    vendor = (existsSync(bundled) ? loadBundle(bundled) : require(path.join(__dirname, name))) as Vendors[Name];
    loaded.set(name, vendor);
  }
  return vendor;
}

/**
 * Where the vendor bundles are: in a bundle __dirname is dist/ (the bundle's folder), so dist/vendor/; from sources
 * it is this folder, which holds the barrels and no bundle.
 */
export function bundledVendorFolder(): string {
  return path.join(__dirname, 'vendor');
}

/** The vendor if something has loaded it already, else undefined: for checks that must not load it to ask. */
export function loadedVendor<Name extends VendorName>(name: Name): Vendors[Name] | undefined {
  return loaded.get(name) as Vendors[Name] | undefined;
}

/**
 * `make()` run on the first call of the function returned, its result kept: how a provider makes its SDK client in its
 * first call (which loads the SDK) while its constructor stays synchronous and loads nothing.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
