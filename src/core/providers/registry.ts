// The one place that turns an eval file's model entry into a provider: names, keys, base URLs, and what to say when one is missing.
import { AnthropicProvider } from './anthropic.js';
import { ProviderConfigError } from './contract.js';
import type { EmbeddingProvider, ModelSpec, Provider } from './contract.js';
import { OpenAIEmbeddingProvider } from './embeddings.js';
import { ExtractiveProvider } from './extractive.js';
import { OpenAIProvider } from './openai.js';
import { AnthropicBatchClient } from './anthropicBatch.js';
import type { BatchClient } from './batch.js';
import { OpenAIBatchClient } from './openaiBatch.js';

/**
 * Where keys come from: the CLI reads environment variables (envCredentials), the extension SecretStorage. `spec`
 * is passed so an implementation can refuse to hand a stored key to a base URL an untrusted workspace configured.
 */
export interface Credentials {
  apiKey(provider: string, spec: ModelSpec): Promise<string | undefined>;
}

/** Makes a provider for a model entry; a host adds its own this way (the extension's `vscode-lm`), keeping core free of it. */
export type ProviderFactory = (spec: ModelSpec) => Promise<Provider>;

export interface RegistryOptions {
  /** Where OPENAI_BASE_URL / ANTHROPIC_BASE_URL are read; process.env unless given. */
  env?: Record<string, string | undefined>;
  /** Providers the host contributes, by name; the built-in names cannot be replaced. */
  providers?: Readonly<Record<string, ProviderFactory>>;
}

/** Where a vendor's server is and how its key is found: what the registry resolves before it makes a client. */
export interface Connection {
  /** Undefined for a server that takes no key (a local Ollama). */
  apiKey: string | undefined;
  baseURL: string;
  label: string | undefined;
}

/**
 * One vendor: everything a host asks of a provider name. A new vendor is one entry here; names.ts, prices.ts and the
 * factories below read this table and switch on no name.
 */
export interface VendorEntry {
  /** The vendor's name in messages ("No OpenAI API key"). */
  title: string;
  /** The key's environment variable unless the model entry names another (`apiKeyEnv`); none: a key only through `apiKeyEnv`, so a vendor's key never reaches a third-party server. */
  keyEnv?: string;
  /** A vendor API refuses calls without a key: a missing one is said before any call. */
  keyRequired: boolean;
  /** Requests go to a base URL (an eval file's `baseUrl` decides where prompts go): this variable, else `defaultBaseUrl`. */
  baseUrlEnv?: string;
  defaultBaseUrl?: string;
  /** How calls are priced: the built-in list (prices.ts, by model name), free (runs on this machine), or unknown unless the eval file prices it (a server's model names are its own). */
  prices: 'list' | 'free' | 'unknown';
  /** The vendor publishes a batch discount (prices.ts BATCH_PRICE_FACTOR). */
  batchDiscount: boolean;
  create(spec: ModelSpec, connect: () => Promise<Connection>): Promise<Provider>;
  embeddings?(connection: Connection): EmbeddingProvider;
  batch?(connection: Connection): BatchClient;
}

/** The built-in vendors, in the order messages list them. */
export const VENDORS = {
  openai: {
    title: 'OpenAI', keyEnv: 'OPENAI_API_KEY', keyRequired: true, baseUrlEnv: 'OPENAI_BASE_URL', defaultBaseUrl: 'https://api.openai.com/v1', prices: 'list', batchDiscount: true,
    create: async (_spec, connect) => new OpenAIProvider({ id: 'openai', ...(await connect()) }),
    embeddings: (connection) => new OpenAIEmbeddingProvider({ id: 'openai', ...connection }),
    batch: (connection) => new OpenAIBatchClient({ id: 'openai', ...connection }),
  },
  'openai-compatible': {
    title: 'OpenAI-compatible', keyRequired: false, baseUrlEnv: 'OPENAI_BASE_URL', prices: 'unknown', batchDiscount: false,
    create: async (_spec, connect) => new OpenAIProvider({ id: 'openai-compatible', ...(await connect()) }),
    embeddings: (connection) => new OpenAIEmbeddingProvider({ id: 'openai-compatible', ...connection }),
    batch: (connection) => new OpenAIBatchClient({ id: 'openai-compatible', ...connection }),
  },
  anthropic: {
    title: 'Anthropic', keyEnv: 'ANTHROPIC_API_KEY', keyRequired: true, baseUrlEnv: 'ANTHROPIC_BASE_URL', defaultBaseUrl: 'https://api.anthropic.com', prices: 'list', batchDiscount: true,
    create: async (_spec, connect) => new AnthropicProvider(keyedOptions(await connect())),
    batch: (connection) => new AnthropicBatchClient(keyedOptions(connection)),
  },
  extractive: {
    title: 'Extractive baseline', keyRequired: false, prices: 'free', batchDiscount: false,
    create: async (spec) => new ExtractiveProvider({ refusal: refusalOf(spec) }),
  },
} satisfies Record<string, VendorEntry>;

export type VendorName = keyof typeof VENDORS;

/** The table's entry for a provider name; undefined for a host's provider (vscode-lm) or an unknown name. */
export function vendorOf(provider: string | undefined): VendorEntry | undefined {
  return provider !== undefined && Object.hasOwn(VENDORS, provider) ? (VENDORS as Record<string, VendorEntry>)[provider] : undefined;
}

const vendorEntries = Object.entries(VENDORS) as [VendorName, VendorEntry][];

/** Provider names an eval file may use, and those with embeddings or a batch API: read off the table. */
export const PROVIDER_NAMES = vendorEntries.map(([name]) => name);
export const EMBEDDING_PROVIDER_NAMES = vendorEntries.filter(([, entry]) => entry.embeddings).map(([name]) => name);
export const BATCH_PROVIDER_NAMES: readonly string[] = vendorEntries.filter(([, entry]) => entry.batch).map(([name]) => name);
/** Contributed by a host through RegistryOptions.providers: the extension's VS Code chat models. The CLI has none. */
export const HOST_PROVIDER_NAMES = ['vscode-lm'] as const;

/** For clients that take a key always: their entry requires one, so a connection reaches them only with it. */
function keyedOptions(connection: Connection): { apiKey: string; baseURL: string; label: string | undefined } {
  if (connection.apiKey === undefined) throw new ProviderConfigError(`No API key for ${connection.baseURL}.`);
  return { ...connection, apiKey: connection.apiKey };
}

/**
 * Keys from environment variables: `spec.apiKeyEnv` when set, else OPENAI_API_KEY / ANTHROPIC_API_KEY. An
 * openai-compatible endpoint gets a key only through `apiKeyEnv`, so an OpenAI key is never sent to a third-party
 * server by accident.
 */
export function envCredentials(env: Record<string, string | undefined> = process.env): Credentials {
  return {
    apiKey: async (provider, spec) => {
      const variable = spec.apiKeyEnv ?? vendorOf(provider)?.keyEnv;
      const value = variable ? env[variable]?.trim() : undefined;
      // A variable the eval file names on purpose, unset: an OpenAI-compatible server would get no key at all and fail
      // later as a vague 401 (a vendor's missing key is said by requiredKey).
      if (!value && spec.apiKeyEnv !== undefined && vendorOf(provider)?.keyEnv === undefined) {
        throw new ProviderConfigError(`apiKeyEnv names ${spec.apiKeyEnv} for model "${spec.model}", but ${spec.apiKeyEnv} is not set: export ${spec.apiKeyEnv}=<key>, or remove apiKeyEnv if the server takes no key.`);
      }
      return value ? value : undefined;
    },
  };
}

export async function createProvider(spec: ModelSpec, credentials: Credentials, options: RegistryOptions = {}): Promise<Provider> {
  const vendor = vendorOf(spec.provider);
  if (vendor) return vendor.create(spec, () => connectionOf(vendor, spec, credentials, options));
  const contributed = options.providers?.[spec.provider];
  if (contributed) return contributed(spec);
  const names = [...PROVIDER_NAMES, ...Object.keys(options.providers ?? {})];
  // The CLI has no VS Code to borrow models from; say so rather than just "unknown".
  const hint = (HOST_PROVIDER_NAMES as readonly string[]).includes(spec.provider) ? ' (vscode-lm uses VS Code\'s chat models, so it runs only in the RAG Inspector extension)' : '';
  throw new ProviderConfigError(`Unknown provider "${spec.provider}" for model "${spec.model}"${hint}: use one of ${names.join(', ')}.`);
}

/** The batch API of a model entry with `batch: true`: OpenAI's (and servers that speak it) or Anthropic's Message Batches. */
export async function createBatchClient(spec: ModelSpec, credentials: Credentials, options: RegistryOptions = {}): Promise<BatchClient> {
  const vendor = vendorOf(spec.provider);
  // Said plainly rather than silently running interactively.
  if (!vendor?.batch) throw new ProviderConfigError(`batch mode is available for the ${BATCH_PROVIDER_NAMES.join(', ')} providers only; "${spec.provider}:${spec.model}" has batch: true`);
  return vendor.batch(await connectionOf(vendor, spec, credentials, options));
}

export async function createEmbeddingProvider(spec: ModelSpec, credentials: Credentials, options: RegistryOptions = {}): Promise<EmbeddingProvider> {
  const vendor = vendorOf(spec.provider);
  if (!vendor?.embeddings) throw new ProviderConfigError(`Provider "${spec.provider}" cannot make embeddings (model "${spec.model}"): use one of ${EMBEDDING_PROVIDER_NAMES.join(', ')}.`);
  return vendor.embeddings(await connectionOf(vendor, spec, credentials, options));
}

/**
 * The provider id and endpoint an embedding model's vectors are cached under (run/embeddingClient.ts), known without
 * its key: the cost plan asks the cache which texts are embedded already. Undefined when the model cannot be set up.
 */
export function embeddingIdentityOf(spec: ModelSpec, env: Record<string, string | undefined> = process.env): { id: string; endpoint: string } | undefined {
  const vendor = vendorOf(spec.provider);
  if (!vendor?.embeddings) return undefined;
  try {
    // Building the provider sends nothing and loads no SDK (the client is made on first use).
    const provider = vendor.embeddings({ apiKey: undefined, baseURL: baseUrlOf(vendor, spec, env), label: spec.label });
    return { id: provider.id, endpoint: provider.endpoint };
  } catch {
    return undefined;
  }
}

/** The key (said missing when the vendor requires one), then the base URL, then the label of a model entry. */
async function connectionOf(vendor: VendorEntry, spec: ModelSpec, credentials: Credentials, options: RegistryOptions): Promise<Connection> {
  const apiKey = vendor.keyRequired ? await requiredKey(vendor, spec, credentials) : await credentials.apiKey(spec.provider, spec);
  return { apiKey, baseURL: baseUrlOf(vendor, spec, options.env ?? process.env), label: spec.label };
}

async function requiredKey(vendor: VendorEntry, spec: ModelSpec, credentials: Credentials): Promise<string> {
  const key = await credentials.apiKey(spec.provider, spec);
  if (key) return key;
  const variable = spec.apiKeyEnv ?? vendor.keyEnv ?? 'the API key variable';
  throw new ProviderConfigError(`No ${vendor.title} API key: set ${variable} (CLI) or run 'RAG Inspector: Set API Key' (VS Code).`);
}

/** True for providers that send requests to a base URL (so an eval file's `baseUrl` decides where prompts go). */
export function usesBaseUrl(provider: string): boolean {
  return vendorOf(provider)?.baseUrlEnv !== undefined;
}

/** A base URL as compared for "the same endpoint": scheme, lower-case host and path, without trailing slashes. */
export function normaliseBaseUrl(url: string): string {
  try {
    const parsed = new URL(url.trim());
    return `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.trim().replace(/\/+$/, '');
  }
}

/** spec.baseUrl, else the vendor's *_BASE_URL variable, else the vendor default; a compatible server has no default. */
function baseUrlOf(vendor: VendorEntry, spec: ModelSpec, env: Record<string, string | undefined>): string {
  const variable = vendor.baseUrlEnv;
  const url = spec.baseUrl ?? (variable ? env[variable]?.trim() || undefined : undefined) ?? vendor.defaultBaseUrl;
  if (!url) {
    throw new ProviderConfigError(`Model "${spec.model}" (provider ${spec.provider}) needs a base URL: set baseUrl in the eval file (e.g. http://localhost:11434/v1 for Ollama) or ${variable ?? 'OPENAI_BASE_URL'}.`);
  }
  if (!isHttpUrl(url)) throw new ProviderConfigError(`Model "${spec.model}": base URL "${url}" is not an http(s) URL.`);
  return url;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function refusalOf(spec: ModelSpec): string | undefined {
  const refusal = spec.parameters.refusal;
  return typeof refusal === 'string' ? refusal : undefined;
}
