// The inspector's list of method views (each method's view.ts): pure data the webview may import, where the engine's
// list (registry.ts) loads Node code. The webview bundle cannot run registry.ts, so the bundled methods' views are
// listed here too; registerSuite adds a plugged-in method's view for the hosts that run in Node (a test checks that
// the two lists name the same methods).
import type { CaseViewParts, MethodView } from './caseView.js';
import { ifragView } from './ifrag/view.js';
import { llmEvalView } from './llmEval/view.js';
import { needleView } from './needle/view.js';
import { ragasView } from './ragas/view.js';
import { ragView } from './rag/view.js';
import { rgbView } from './rgb/view.js';
import { stressView } from './stress/view.js';

const VIEWS = new Map<string, MethodView>(
  [rgbView, needleView, ifragView, ragasView, llmEvalView, stressView, ragView].map((view) => [view.method, view]),
);

/** Called by registerSuite only; a bundled method's view is already listed (the same object), another of its name is refused. */
export function registerView(view: MethodView): void {
  const listed = VIEWS.get(view.method);
  if (listed !== undefined && listed !== view) throw new Error(`method "${view.method}" has two views`);
  VIEWS.set(view.method, view);
}

export function viewedMethods(): string[] {
  return [...VIEWS.keys()];
}

/** The case-view parts of a method; none for a method this build does not know (a log from a newer version). */
export function caseViewParts(method: string): CaseViewParts {
  return VIEWS.get(method)?.parts ?? {};
}
