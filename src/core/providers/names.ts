// The provider names an eval file may use, apart from the registry so the eval file loader checks names without loading the vendors' SDKs.

export const PROVIDER_NAMES = ['openai', 'openai-compatible', 'anthropic', 'extractive'] as const;
export const EMBEDDING_PROVIDER_NAMES = ['openai', 'openai-compatible'] as const;
/** Providers whose vendor has a batch API (registry.ts createBatchClient builds their batch clients). */
export const BATCH_PROVIDER_NAMES: readonly string[] = ['openai', 'openai-compatible', 'anthropic'];
/** Contributed by a host through RegistryOptions.providers: the extension's VS Code chat models. The CLI has none. */
export const HOST_PROVIDER_NAMES = ['vscode-lm'] as const;
