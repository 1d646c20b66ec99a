// Keeps API keys out of the endpoints a provider reports (cache keys, run logs); redact() does the rest.
import { redact } from '../redact.js';

/** The base URL without user:password, query or fragment, where some setups smuggle a key (Azure's ?api-key=…). */
export function publicEndpoint(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return redact(baseURL);
  }
}
