// Shared helpers for the integration suite: the activated extension's testing API and its log files.
import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestingApi } from '../../../src/extension/extension.js';
import { OUTPUT_CHANNEL_NAME } from '../../../src/extension/outputChannel.js';

export const EXTENSION_ID = 'rag-inspector.rag-inspector';

export async function activatedExtension(): Promise<{ extension: vscode.Extension<unknown>; testing: TestingApi }> {
  const extension = vscode.extensions.getExtension<{ testing: TestingApi } | undefined>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded in this extension host`);
  const exports = await extension.activate();
  assert.ok(exports?.testing, 'the extension exposes its testing API only in ExtensionMode.Test; was it started as a test run?');
  return { extension, testing: exports.testing };
}

/** A line in the test report (the extension host pins console.log to its own forwarder, so tests print through this). */
export function note(line: string): void {
  const out = process.env.RAG_E2E_MOCHA_OUT;
  if (out) appendFileSync(out, `    ${line}\n`);
  else process.stdout.write(`    ${line}\n`);
}

/**
 * The text VS Code wrote for the "RAG Inspector" log channel (`<logUri>/RAG Inspector.log`). Log channels reach
 * their file asynchronously, so this waits until `expected` shows up, or fails quoting what was there.
 */
export async function outputChannelLog(logUri: vscode.Uri, expected: string, timeoutMs = 10_000): Promise<string> {
  const file = path.join(logUri.fsPath, `${OUTPUT_CHANNEL_NAME}.log`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (text.includes(expected)) return text;
    if (Date.now() > deadline) assert.fail(`"${expected}" did not reach ${file} within ${timeoutMs} ms; it holds:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
