// Test helper: files written into a fresh folder under the OS temp dir, removed when the test file ends.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';

let folder: string | undefined;

// Registered when the test file imports this module, so it runs once after all of that file's tests.
after(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

export function tempDir(): string {
  folder ??= mkdtempSync(path.join(tmpdir(), 'rag-inspector-test-'));
  return folder;
}

/** Writes `content` to `name` in the test's temp folder and returns the absolute path. */
export function tempFile(name: string, content: string | Buffer): string {
  const file = path.join(tempDir(), name);
  writeFileSync(file, content);
  return file;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
