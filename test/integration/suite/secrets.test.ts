// API keys: Set API Key writes SecretStorage only, the log never shows a key, and untrusted workspaces cannot redirect a key.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { redact } from '../../../src/core/redact.js';
import { SecretStorageCredentials, vscodeEndpointFacts, workspaceChoseEndpoint } from '../../../src/extension/secrets.js';
import type { EndpointFacts, KeySlot } from '../../../src/extension/secrets.js';
import { activatedExtension, outputChannelLog } from './extensionHost.js';
import type { ModelSpec } from '../../../src/core/providers/contract.js';

type WindowStubs = Partial<Pick<typeof vscode.window, 'showQuickPick' | 'showInputBox'>>;

/**
 * Answers the quick pick and input box in place of a user. The test shares the extension's `vscode` API object
 * (same extension folder), so replacing its methods reaches the command's calls.
 */
function answerPrompts(stubs: WindowStubs): () => void {
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = Object.fromEntries(Object.keys(stubs).map((name) => [name, window[name]]));
  for (const [name, stub] of Object.entries(stubs)) window[name] = stub;
  for (const [name, stub] of Object.entries(stubs)) assert.equal(window[name], stub, `could not stub vscode.window.${name}`);
  return () => { for (const [name, original] of Object.entries(originals)) window[name] = original; };
}

const newKey = (prefix: string) => `${prefix}${randomBytes(20).toString('hex')}`;
const model = (provider: string, baseUrl?: string): ModelSpec => ({ provider, model: 'm', baseUrl, parameters: {} });

suite('API keys', () => {
  let restore: () => void = () => undefined;
  teardown(() => restore());

  test('Set API Key asks for the provider, then the key in a password box, and stores it in SecretStorage only', async () => {
    const { testing } = await activatedExtension();
    const key = newKey('sk-proj-');
    const asked: vscode.InputBoxOptions[] = [];
    restore = answerPrompts({
      showQuickPick: (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>) =>
        (await items).find((item) => item.label === 'OpenAI')) as unknown as typeof vscode.window.showQuickPick,
      showInputBox: async (options?: vscode.InputBoxOptions) => { asked.push(options ?? {}); return key; },
    });
    assert.equal(await vscode.commands.executeCommand('ragInspector.setApiKey'), 'stored');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.password, true, 'the key must be typed in a password box');
    assert.equal(await testing.secrets.keys.get('openai'), key);
    const settings = path.join(process.env.RAG_E2E_USER_DATA ?? '', 'User', 'settings.json');
    if (existsSync(settings)) assert.ok(!readFileSync(settings, 'utf8').includes(key), 'the key leaked into user settings');
  });

  test('a stored key never reaches the output channel, even when an error message quotes it', async () => {
    const { testing } = await activatedExtension();
    const key = newKey('sk-ant-api03-');
    restore = answerPrompts({ showInputBox: async () => key });
    // The slot argument is what an error's "Set API Key" button passes; it skips the quick pick.
    assert.equal(await vscode.commands.executeCommand('ragInspector.setApiKey', 'anthropic'), 'stored');
    const marker = `marker-${randomBytes(4).toString('hex')}`;
    testing.logger.error(new Error(`401 from proxy: invalid x-api-key ${key}`));
    testing.logger.info(`request headers: {"x-api-key": "${key}"} ${marker}`);
    const text = await outputChannelLog(testing.logUri, marker);
    assert.match(text, /Stored the Anthropic API key/);
    assert.ok(!text.includes(key), `the key is in the log:\n${text}`);
    assert.ok(!text.includes(key.slice(-12)), 'part of the key is in the log');
    assert.match(text, /invalid x-api-key \[redacted\]/);
  });

  test('a stored value that does not look like a key is scrubbed too, once SecretStorage reports it', async () => {
    const { testing } = await activatedExtension();
    const value = `local${randomBytes(10).toString('hex')}`;
    assert.equal(redact(`token ${value}`), `token ${value}`, 'precondition: the value must not match any key pattern');
    // Stored behind the command's back (as another window would): the change event must teach the logger.
    await testing.secrets.keys.store('openai-compatible', value);
    const deadline = Date.now() + 5000;
    while (testing.logger.redact(value) !== '[redacted]' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const marker = `marker-${randomBytes(4).toString('hex')}`;
    testing.logger.warn(`gateway said: bad token ${value} ${marker}`);
    const text = await outputChannelLog(testing.logUri, marker);
    assert.ok(!text.includes(value), `the stored value is in the log:\n${text}`);
  });

  test('an empty answer removes the stored key; Escape changes nothing', async () => {
    const { testing } = await activatedExtension();
    await testing.secrets.keys.store('openai', newKey('sk-'));
    restore = answerPrompts({ showInputBox: async () => undefined });
    assert.equal(await vscode.commands.executeCommand('ragInspector.setApiKey', 'openai'), 'cancelled');
    assert.ok(await testing.secrets.keys.get('openai'));
    restore();
    restore = answerPrompts({ showInputBox: async () => '' });
    assert.equal(await vscode.commands.executeCommand('ragInspector.setApiKey', 'openai'), 'removed');
    assert.equal(await testing.secrets.keys.get('openai'), undefined);
  });

});

suite('Credentials in untrusted workspaces', () => {
  const stored: Record<KeySlot, string> = { 'openai': 'sk-openai-key', 'anthropic': 'sk-ant-key', 'openai-compatible': 'compat-key' };
  const keys = { get: async (slot: KeySlot) => stored[slot] };
  const facts = (overrides: Partial<EndpointFacts> = {}): EndpointFacts => ({
    isTrusted: () => false,
    userOpenaiBaseUrl: () => undefined,
    workspaceOpenaiBaseUrl: () => undefined,
    ...overrides,
  });

  test('untrusted: no key for an endpoint the eval file chose', async () => {
    const credentials = new SecretStorageCredentials(keys, facts());
    assert.equal(await credentials.apiKey('openai', model('openai', 'https://collector.example/v1')), undefined);
    assert.equal(await credentials.apiKey('anthropic', model('anthropic', 'https://collector.example')), undefined);
    assert.equal(await credentials.apiKey('openai-compatible', model('openai-compatible', 'http://10.0.0.5:8000/v1')), undefined);
  });

  test('untrusted: keys still go to the vendor default and to the endpoint the user set', async () => {
    const credentials = new SecretStorageCredentials(keys, facts({ userOpenaiBaseUrl: () => 'http://localhost:11434/v1/' }));
    assert.equal(await credentials.apiKey('openai', model('openai')), 'sk-openai-key');
    assert.equal(await credentials.apiKey('openai', model('openai', 'https://API.openai.com/v1/')), 'sk-openai-key');
    assert.equal(await credentials.apiKey('anthropic', model('anthropic', 'https://api.anthropic.com')), 'sk-ant-key');
    assert.equal(await credentials.apiKey('openai-compatible', model('openai-compatible', 'http://localhost:11434/v1')), 'compat-key');
  });

  test('untrusted: a workspace setting for the base URL withholds OpenAI-family keys', async () => {
    const credentials = new SecretStorageCredentials(keys, facts({ workspaceOpenaiBaseUrl: () => 'https://collector.example/v1' }));
    assert.equal(await credentials.apiKey('openai', model('openai')), undefined);
    assert.equal(await credentials.apiKey('openai-compatible', model('openai-compatible')), undefined);
    assert.equal(await credentials.apiKey('anthropic', model('anthropic')), 'sk-ant-key');
  });

  test('trusted: the workspace may choose endpoints', async () => {
    const credentials = new SecretStorageCredentials(keys, facts({ isTrusted: () => true, workspaceOpenaiBaseUrl: () => 'https://proxy.example/v1' }));
    assert.equal(await credentials.apiKey('openai', model('openai', 'https://proxy.example/v1')), 'sk-openai-key');
    assert.equal(await credentials.apiKey('extractive', model('extractive')), undefined, 'the offline baseline needs no key');
  });

  test('the real settings: a workspace value of ragInspector.openaiBaseUrl counts as chosen by the workspace', async () => {
    const config = () => vscode.workspace.getConfiguration('ragInspector');
    const real = vscodeEndpointFacts();
    await config().update('openaiBaseUrl', 'https://collector.example/v1', vscode.ConfigurationTarget.Workspace);
    try {
      assert.equal(real.workspaceOpenaiBaseUrl(), 'https://collector.example/v1');
      assert.equal(real.userOpenaiBaseUrl(), undefined);
      assert.equal(workspaceChoseEndpoint('openai', model('openai'), real), true);
      const untrusted = new SecretStorageCredentials(keys, { ...real, isTrusted: () => false });
      assert.equal(await untrusted.apiKey('openai', model('openai')), undefined);
    } finally {
      await config().update('openaiBaseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    }
    assert.equal(real.workspaceOpenaiBaseUrl(), undefined);
    assert.equal(workspaceChoseEndpoint('openai', model('openai'), real), false);
  });
});
