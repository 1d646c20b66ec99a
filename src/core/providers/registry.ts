// The one place that turns an eval file's model entry into a provider: names, keys, base URLs, and what to say when one is missing.
import { AnthropicProvider } from './anthropic.js';
import { ProviderConfigError } from './contract.js';
import type { EmbeddingProvider, ModelSpec, Provider } from './contract.js';
import { OpenAIEmbeddingProvider } from './embeddings.js';
import { ExtractiveProvider } from './extractive.js';
import { BATCH_PROVIDER_NAMES, EMBEDDING_PROVIDER_NAMES, PROVIDER_NAMES } from './names.js';
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

export { EMBEDDING_PROVIDER_NAMES, PROVIDER_NAMES };

const DEFAULT_BASE_URLS: Record<string, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

/** The environment variable holding each vendor's key unless the model entry names another (`apiKeyEnv`). */
const KEY_ENV: Record<string, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

const BASE_URL_ENV: Record<string, string> = {
  openai: 'OPENAI_BASE_URL',
  'openai-compatible': 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
};

const VENDOR_NAMES: Record<string, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible',
  anthropic: 'Anthropic',
};

/**
 * Keys from environment variables: `spec.apiKeyEnv` when set, else OPENAI_API_KEY / ANTHROPIC_API_KEY. An
 * openai-compatible endpoint gets a key only through `apiKeyEnv`, so an OpenAI key is never sent to a third-party
 * server by accident.
 */
export function envCredentials(env: Record<string, string | undefined> = process.env): Credentials {
  return {
    apiKey: async (provider, spec) => {
      const variable = spec.apiKeyEnv ?? KEY_ENV[provider];
      const value = variable ? env[variable]?.trim() : undefined;
      // A variable the eval file names on purpose, unset: an OpenAI-compatible server would get no key at all and fail
      // later as a vague 401 (a vendor's missing key is said by requiredKey).
      if (!value && spec.apiKeyEnv !== undefined && KEY_ENV[provider] === undefined) {
        throw new ProviderConfigError(`apiKeyEnv names ${spec.apiKeyEnv} for model "${spec.model}", but ${spec.apiKeyEnv} is not set: export ${spec.apiKeyEnv}=<key>, or remove apiKeyEnv if the server takes no key.`);
      }
      return value ? value : undefined;
    },
  };
}

export async function createProvider(spec: ModelSpec, credentials: Credentials, options: RegistryOptions = {}): Promise<Provider> {
  const env = options.env ?? process.env;
  switch (spec.provider) {
    case 'openai':
      return new OpenAIProvider({ id: 'openai', apiKey: await requiredKey(spec, credentials), baseURL: baseUrlOf(spec, env), label: spec.label });
    case 'openai-compatible':
      return new OpenAIProvider({ id: 'openai-compatible', apiKey: await credentials.apiKey(spec.provider, spec), baseURL: baseUrlOf(spec, env), label: spec.label });
    case 'anthropic':
      return new AnthropicProvider({ apiKey: await requiredKey(spec, credentials), baseURL: baseUrlOf(spec, env), label: spec.label });
    case 'extractive':
      return new ExtractiveProvider({ refusal: refusalOf(spec) });
    default: {
      const contributed = options.providers?.[spec.provider];
      if (contributed) return contributed(spec);
      const names = [...PROVIDER_NAMES, ...Object.keys(options.providers ?? {})];
      // The CLI has no VS Code to borrow models from; say so rather than just "unknown".
      const hint = spec.provider === 'vscode-lm' ? ' (vscode-lm uses VS Code\'s chat models, so it runs only in the RAG Inspector extension)' : '';
      throw new ProviderConfigError(`Unknown provider "${spec.provider}" for model "${spec.model}"${hint}: use one of ${names.join(', ')}.`);
    }
  }
}

/** The batch API of a model entry with `batch: true`: OpenAI's (and servers that speak it) or Anthropic's Message Batches. */
export async function createBatchClient(spec: ModelSpec, credentials: Credentials, options: RegistryOptions = {}): Promise<BatchClient> {
  const env = options.env ?? process.env;
  switch (spec.provider) {
    case 'openai':
      return new OpenAIBatchClient({ id: 'openai', apiKey: await requiredKey(spec, credentials), baseURL: baseUrlOf(spec, env), label: spec.label });
    case 'openai-compatible':
      return new OpenAIBatchClient({ id: 'openai-compatible', apiKey: await credentials.apiKey(spec.provider, spec), baseURL: baseUrlOf(spec, env), label: spec.label });
    case 'anthropic':
      return new AnthropicBatchClient({ apiKey: await requiredKey(spec, credentials), baseURL: baseUrlOf(spec, env), label: spec.label });
    default:
      // Said plainly rather than silently running interactively.
      throw new ProviderConfigError(`batch mode is available for the ${BATCH_PROVIDER_NAMES.join(', ')} providers only; "${spec.provider}:${spec.model}" has batch: true`);
  }
}

export async function createEmbeddingProvider(spec: ModelSpec, credentials: Credentials, options: RegistryOptions = {}): Promise<EmbeddingProvider> {
  const env = options.env ?? process.env;
  switch (spec.provider) {
    case 'openai':
      return new OpenAIEmbeddingProvider({ id: 'openai', apiKey: await requiredKey(spec, credentials), baseURL: baseUrlOf(spec, env), label: spec.label });
    case 'openai-compatible':
      return new OpenAIEmbeddingProvider({ id: 'openai-compatible', apiKey: await credentials.apiKey(spec.provider, spec), baseURL: baseUrlOf(spec, env), label: spec.label });
    default:
      throw new ProviderConfigError(`Provider "${spec.provider}" cannot make embeddings (model "${spec.model}"): use one of ${EMBEDDING_PROVIDER_NAMES.join(', ')}.`);
  }
}

async function requiredKey(spec: ModelSpec, credentials: Credentials): Promise<string> {
  const key = await credentials.apiKey(spec.provider, spec);
  if (key) return key;
  const variable = spec.apiKeyEnv ?? KEY_ENV[spec.provider] ?? 'the API key variable';
  throw new ProviderConfigError(`No ${VENDOR_NAMES[spec.provider] ?? spec.provider} API key: set ${variable} (CLI) or run 'RAG Inspector: Set API Key' (VS Code).`);
}

/** True for providers that send requests to a base URL (so an eval file's `baseUrl` decides where prompts go). */
export function usesBaseUrl(provider: string): boolean {
  return provider in BASE_URL_ENV;
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
function baseUrlOf(spec: ModelSpec, env: Record<string, string | undefined>): string {
  const variable = BASE_URL_ENV[spec.provider];
  const url = spec.baseUrl ?? (variable ? env[variable]?.trim() || undefined : undefined) ?? DEFAULT_BASE_URLS[spec.provider];
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
