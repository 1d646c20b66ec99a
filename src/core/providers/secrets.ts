// Keeps API keys out of everything a provider returns: error messages, endpoints in cache keys and run logs.

/** Long runs of key-like characters after common key prefixes (sk-, sk-ant-, Bearer …). */
const KEY_LIKE = /\b(sk-[A-Za-z0-9_-]{6,}|Bearer\s+[A-Za-z0-9._~+/=-]{6,})/g;

/**
 * Removes the given secrets and anything shaped like an API key. Some proxies and compatible servers echo the key
 * they were given in their error text; that text ends up in run logs and the UI, so it is scrubbed here.
 */
export function redactSecrets(text: string, secrets: (string | undefined)[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) clean = clean.split(secret).join('[redacted]');
  }
  return clean.replace(KEY_LIKE, '[redacted]');
}

/** The base URL without user:password, query or fragment, where some setups smuggle a key (Azure's ?api-key=…). */
export function publicEndpoint(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return redactSecrets(baseURL, []);
  }
}
