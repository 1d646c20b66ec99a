// Waiting for what the extension does asynchronously (file watchers, test discovery, a run's end), polled.
import * as assert from 'node:assert/strict';

/**
 * Polls until `check` returns something other than undefined or false, or fails saying what it waited for and,
 * when `seen` is given, what it saw last.
 */
export async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000, seen?: () => unknown): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}${seen ? `; last seen: ${JSON.stringify(seen())}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
