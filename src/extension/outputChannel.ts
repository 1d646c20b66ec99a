// The "RAG Inspector" log channel: every line goes through redact() so no API key ever reaches the Output panel or its log file.
import * as vscode from 'vscode';
import { redact } from '../core/redact.js';

export const OUTPUT_CHANNEL_NAME = 'RAG Inspector';

/** What the rest of the extension logs through; never the raw channel, so redaction cannot be bypassed. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
  show(): void;
}

export class RedactingLogger implements Logger, vscode.Disposable {
  private readonly secrets = new Set<string>();

  constructor(private readonly channel: vscode.LogOutputChannel) {}

  /** Replaces the set of stored secret values to scrub (called whenever SecretStorage changes). */
  setKnownSecrets(values: Iterable<string>): void {
    this.secrets.clear();
    for (const value of values) this.secrets.add(value);
  }

  /** Adds one value at once, e.g. a key just typed, before it is even stored. */
  addKnownSecret(value: string): void {
    this.secrets.add(value);
  }

  redact(text: string): string {
    return redact(text, this.secrets);
  }

  trace(message: string): void { this.channel.trace(this.redact(message)); }
  debug(message: string): void { this.channel.debug(this.redact(message)); }
  info(message: string): void { this.channel.info(this.redact(message)); }
  warn(message: string): void { this.channel.warn(this.redact(message)); }
  error(message: string | Error): void {
    // Errors are logged as text: a stack or message from a provider may quote the key it was sent.
    const text = message instanceof Error ? (message.stack ?? `${message.name}: ${message.message}`) : message;
    this.channel.error(this.redact(text));
  }
  show(): void { this.channel.show(true); }

  dispose(): void {
    this.channel.dispose();
  }
}

export function activateOutputChannel(context: vscode.ExtensionContext): RedactingLogger {
  const logger = new RedactingLogger(vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true }));
  context.subscriptions.push(logger);
  return logger;
}
