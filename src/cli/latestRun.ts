// "latest" for commands that take a run: the newest run log under a folder tree, since runs are kept beside each eval
// file (`<eval file's folder>/.rag-inspector/runs/`), not where the command happens to be typed.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { listRuns } from '../core/run/runLog.js';

/** Folders never searched: dependencies, version control and other tools' hidden folders. */
const SKIPPED = new Set(['node_modules', '.git']);
/** Deep enough for a repository's examples and packages; bounded so a home folder is not walked whole. */
const MAX_DEPTH = 6;
const MAX_FOLDERS = 20_000;

/** No run to take for "latest": the message says where runs are kept, in two lines, and no usage follows it. */
export class NoRunsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoRunsError';
  }
}

/** Every `.rag-inspector/runs` folder under `root` (itself included), breadth first; symbolic links are not followed. */
export async function runFolders(root: string): Promise<string[]> {
  const found: string[] = [];
  let level = [path.resolve(root)];
  let visited = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0 && visited < MAX_FOLDERS; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      if (++visited > MAX_FOLDERS) break;
      let entries: Dirent[];
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        continue; // unreadable: nothing of it is searched
      }
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        if (entry.name === '.rag-inspector') found.push(path.join(folder, entry.name, 'runs'));
        else if (!entry.name.startsWith('.') && !SKIPPED.has(entry.name)) next.push(path.join(folder, entry.name));
      }
    }
    level = next;
  }
  return found;
}

/** The newest run log under `root`'s tree, by run id (ids begin with their start time); undefined when there is none. */
export async function latestRunUnder(root: string): Promise<string | undefined> {
  let newest: { runId: string; file: string } | undefined;
  for (const folder of await runFolders(root)) {
    const [first] = await listRuns(folder);
    if (first && (!newest || first.runId > newest.runId)) newest = first;
  }
  return newest?.file;
}
