// The "RAG Inspector" log channel: every line goes through redact() so no API key ever reaches the Output panel or its log file.
import * as vscode from 'vscode';

export const OUTPUT_CHANNEL_NAME = 'RAG Inspector';

/**
 * Shapes of credentials that can turn up in provider errors, echoed request headers or URLs. Broad on purpose:
 * a false positive costs a few characters of log, a false negative leaks a key.
 */
const KEY_PATTERNS: readonly RegExp[] = [
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), and most OpenAI-compatible gateways.
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  // Authorization headers as printed by SDK debug output and proxies.
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  // key=value / "key": "value" for the usual header and query-parameter names (Azure's ?api-key=…).
  /\b((?:x-)?api[-_]?key|authorization|access[-_]?token|secret)(["']?\s*[:=]\s*["']?)[^\s"'&,;]{6,}/gi,
  // Google AI, GitHub and Hugging Face tokens.
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
];

export const REDACTED = '[redacted]';

/**
 * Removes every known secret value and anything shaped like an API key. Known values go first and longest
 * first, so a key that contains another key is removed whole.
 */
export function redact(text: string, knownSecrets: Iterable<string> = []): string {
  let clean = text;
  const secrets = [...knownSecrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  for (const secret of secrets) clean = clean.split(secret).join(REDACTED);
  for (const pattern of KEY_PATTERNS) {
    clean = clean.replace(pattern, (match: string, name?: string, separator?: string) =>
      // Keep the parameter name so the line still says what was removed.
      typeof name === 'string' && typeof separator === 'string' ? `${name}${separator}${REDACTED}` : REDACTED);
  }
  return clean;
}

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
