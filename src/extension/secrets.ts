// API keys: "Set API Key" stores them in SecretStorage only; the Credentials adapter hands them to providers, refusing workspace-chosen endpoints in untrusted workspaces.
import * as vscode from 'vscode';
import { normaliseBaseUrl } from '../core/providers/registry.js';
import type { Credentials } from '../core/providers/registry.js';
import type { Logger } from './outputChannel.js';
import type { ModelSpec } from '../core/providers/contract.js';

/** The key slots a user can fill. OpenAI-compatible servers (Azure, vLLM, LM Studio, gateways) get their own. */
export type KeySlot = 'openai' | 'anthropic' | 'openai-compatible';

export const KEY_SLOTS: readonly { slot: KeySlot; label: string; detail: string }[] = [
  { slot: 'openai', label: 'OpenAI', detail: 'api.openai.com — models with provider: openai' },
  { slot: 'anthropic', label: 'Anthropic', detail: 'api.anthropic.com — models with provider: anthropic' },
  { slot: 'openai-compatible', label: 'OpenAI-compatible endpoint', detail: 'Azure, vLLM, LM Studio, Ollama, gateways — provider: openai-compatible' },
];

const SECRET_PREFIX = 'ragInspector.apiKey.';
export const secretId = (slot: KeySlot): string => `${SECRET_PREFIX}${slot}`;

/** Endpoints the providers use when nothing overrides them; a key may always go to its own vendor. */
const VENDOR_ENDPOINTS: Readonly<Record<string, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

export function slotForProvider(provider: string): KeySlot | undefined {
  return KEY_SLOTS.some((k) => k.slot === provider) ? (provider as KeySlot) : undefined;
}

/** The stored keys, by slot. A thin layer over SecretStorage so nothing else names secret ids. */
export class ApiKeyStore {
  constructor(private readonly storage: vscode.SecretStorage) {}

  get(slot: KeySlot): Thenable<string | undefined> {
    return this.storage.get(secretId(slot));
  }

  store(slot: KeySlot, value: string): Thenable<void> {
    return this.storage.store(secretId(slot), value);
  }

  delete(slot: KeySlot): Thenable<void> {
    return this.storage.delete(secretId(slot));
  }

  /** Every stored value, for the logger to scrub. */
  async values(): Promise<string[]> {
    const values = await Promise.all(KEY_SLOTS.map((k) => this.get(k.slot)));
    return values.filter((v): v is string => typeof v === 'string' && v.length > 0);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.storage.onDidChange((e) => { if (e.key.startsWith(SECRET_PREFIX)) listener(); });
  }
}

/** Where the workspace's hand is on the endpoint a key would be sent to. */
export interface EndpointFacts {
  isTrusted(): boolean;
  /** `ragInspector.openaiBaseUrl` as the user (not the workspace) set it, if at all. */
  userOpenaiBaseUrl(): string | undefined;
  /** `ragInspector.openaiBaseUrl` when a workspace or folder setting sets it. */
  workspaceOpenaiBaseUrl(): string | undefined;
}

export function vscodeEndpointFacts(): EndpointFacts {
  const inspect = () => vscode.workspace.getConfiguration('ragInspector').inspect<string>('openaiBaseUrl');
  return {
    isTrusted: () => vscode.workspace.isTrusted,
    userOpenaiBaseUrl: () => nonEmpty(inspect()?.globalValue),
    workspaceOpenaiBaseUrl: () => nonEmpty(inspect()?.workspaceFolderValue) ?? nonEmpty(inspect()?.workspaceValue),
  };
}

/**
 * Why a key is withheld: an untrusted workspace could name its own server as the model endpoint and collect the
 * user's key from the Authorization header. So there, a key goes only to its vendor's endpoint or to one the
 * user configured; an eval file's `baseUrl` or a workspace setting pointing elsewhere gets no key.
 */
export function workspaceChoseEndpoint(provider: string, spec: ModelSpec, facts: EndpointFacts): boolean {
  const openaiFamily = provider === 'openai' || provider === 'openai-compatible';
  if (spec.baseUrl) {
    const target = normaliseBaseUrl(spec.baseUrl);
    const userChosen = [VENDOR_ENDPOINTS[provider], openaiFamily ? facts.userOpenaiBaseUrl() : undefined];
    return !userChosen.some((url) => url !== undefined && normaliseBaseUrl(url) === target);
  }
  return openaiFamily && facts.workspaceOpenaiBaseUrl() !== undefined;
}

export class SecretStorageCredentials implements Credentials {
  private readonly warned = new Set<string>();

  constructor(
    private readonly keys: Pick<ApiKeyStore, 'get'>,
    private readonly facts: EndpointFacts,
    private readonly logger?: Logger,
  ) {}

  async apiKey(provider: string, spec: ModelSpec): Promise<string | undefined> {
    const slot = slotForProvider(provider);
    if (!slot) return undefined;
    const key = await this.keys.get(slot);
    if (!this.facts.isTrusted() && workspaceChoseEndpoint(provider, spec, this.facts)) {
      // Said only when there is a key to hold back: with none stored, nothing was withheld.
      if (key) this.warnOnce(provider, spec);
      return undefined;
    }
    return key;
  }

  private warnOnce(provider: string, spec: ModelSpec): void {
    const endpoint = spec.baseUrl ?? this.facts.workspaceOpenaiBaseUrl() ?? '';
    const id = `${provider} ${endpoint}`;
    if (this.warned.has(id)) return;
    this.warned.add(id);
    this.logger?.warn(`Not sending the stored ${provider} key to ${endpoint}: this workspace is not trusted and chose that endpoint. `
      + 'Trust the workspace (Workspaces: Manage Workspace Trust) or set ragInspector.openaiBaseUrl in your user settings.');
  }
}

/** The two questions "Set API Key" asks, apart so tests can answer them without a UI. */
export interface KeyPrompts {
  pickSlot(stored: ReadonlySet<KeySlot>): Thenable<KeySlot | undefined>;
  /** undefined: cancelled; '': remove the stored key. */
  askKey(slot: KeySlot, hasStored: boolean): Thenable<string | undefined>;
}

export const vscodeKeyPrompts: KeyPrompts = {
  async pickSlot(stored) {
    const picked = await vscode.window.showQuickPick(
      KEY_SLOTS.map((k) => ({ label: k.label, description: stored.has(k.slot) ? 'key stored' : undefined, detail: k.detail, slot: k.slot })),
      { title: 'RAG Inspector: Set API Key', placeHolder: 'Which provider is the key for?', ignoreFocusOut: true },
    );
    return picked?.slot;
  },
  askKey(slot, hasStored) {
    const label = KEY_SLOTS.find((k) => k.slot === slot)?.label ?? slot;
    return vscode.window.showInputBox({
      title: `RAG Inspector: ${label} API key`,
      prompt: hasStored
        ? `Enter a new ${label} key to replace the stored one, or leave empty and press Enter to remove it. Kept in VS Code's secret storage.`
        : `Paste your ${label} API key. It is kept in VS Code's secret storage, never in settings or files.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (/\s/.test(value.trim()) ? 'An API key has no spaces in it.' : undefined),
    });
  },
};

export type SetKeyOutcome = 'stored' | 'removed' | 'cancelled';

export async function setApiKey(
  keys: ApiKeyStore,
  logger: Logger & { addKnownSecret(value: string): void },
  prompts: KeyPrompts,
  preselected?: KeySlot,
): Promise<SetKeyOutcome> {
  const stored = new Set<KeySlot>();
  for (const k of KEY_SLOTS) if (await keys.get(k.slot)) stored.add(k.slot);
  const slot = preselected ?? (await prompts.pickSlot(stored));
  if (!slot) return 'cancelled';
  const value = await prompts.askKey(slot, stored.has(slot));
  if (value === undefined) return 'cancelled';
  const label = KEY_SLOTS.find((k) => k.slot === slot)?.label ?? slot;
  const key = value.trim();
  if (key === '') {
    if (!stored.has(slot)) return 'cancelled';
    await keys.delete(slot);
    logger.info(`Removed the stored ${label} API key.`);
    return 'removed';
  }
  // Scrub it from the log before anything could print it, even before it is stored.
  logger.addKnownSecret(key);
  await keys.store(slot, key);
  logger.info(`Stored the ${label} API key in VS Code's secret storage.`);
  return 'stored';
}

export interface SecretsServices {
  keys: ApiKeyStore;
  credentials: SecretStorageCredentials;
}

export function activateSecrets(
  context: vscode.ExtensionContext,
  logger: Logger & { setKnownSecrets(values: Iterable<string>): void; addKnownSecret(value: string): void },
): SecretsServices {
  const keys = new ApiKeyStore(context.secrets);
  const refreshKnown = async () => logger.setKnownSecrets(await keys.values());
  void refreshKnown();
  context.subscriptions.push(
    keys.onDidChange(() => void refreshKnown()),
    vscode.commands.registerCommand('ragInspector.setApiKey', async (slot?: unknown) => {
      // A slot may be passed by an error message's "Set API Key" button; anything else is ignored.
      const preselected = typeof slot === 'string' ? slotForProvider(slot) : undefined;
      const outcome = await setApiKey(keys, logger, vscodeKeyPrompts, preselected);
      if (outcome === 'stored') void vscode.window.showInformationMessage('RAG Inspector: API key stored in VS Code\'s secret storage.');
      if (outcome === 'removed') void vscode.window.showInformationMessage('RAG Inspector: API key removed.');
      return outcome;
    }),
  );
  return { keys, credentials: new SecretStorageCredentials(keys, vscodeEndpointFacts(), logger) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? value.trim() : undefined;
}
