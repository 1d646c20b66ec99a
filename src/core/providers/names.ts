// The provider names an eval file may use, apart from the registry so the eval file loader checks names without loading the vendors' SDKs.

export const PROVIDER_NAMES = ['openai', 'openai-compatible', 'anthropic', 'extractive'] as const;
export const EMBEDDING_PROVIDER_NAMES = ['openai', 'openai-compatible'] as const;
/** Contributed by a host through RegistryOptions.providers: the extension's VS Code chat models. The CLI has none. */
export const HOST_PROVIDER_NAMES = ['vscode-lm'] as const;
