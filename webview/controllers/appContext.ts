// What each part of the inspector app gets from the app that composes them: the API, the run on screen, the banner.
import type { InspectorApi } from '../api/inspectorApi.js';

export interface AppContext {
  /** Set once, when the app starts. */
  api: InspectorApi;
  /** The run the view state shows, if any. */
  shownRun(): string | undefined;
  /** The case the view state shows, if any. */
  shownCase(): string | undefined;
  /** A problem worth a banner above the view (a run that cannot be read, a verdict not saved). */
  showError(text: string): void;
  /** Asks the app to render again: a part's state changed. */
  changed(): void;
}

/** Newest first, which is what the picker and the default comparison want. */
export function sortRuns<T extends { createdAt: string }>(runs: readonly T[]): T[] {
  return [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
