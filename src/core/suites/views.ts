// The inspector's list of method views (each method's view.ts): pure data the webview may import, where the engine's
// list (registry.ts) loads Node code. A test checks that the two name the same methods.
import type { CaseViewParts, MethodView } from './caseView.js';
import { ifragView } from './ifrag/view.js';
import { llmEvalView } from './llmEval/view.js';
import { needleView } from './needle/view.js';
import { ragasView } from './ragas/view.js';
import { rgbView } from './rgb/view.js';
import { stressView } from './stress/view.js';

const VIEWS: ReadonlyMap<string, MethodView> = new Map(
  [rgbView, needleView, ifragView, ragasView, llmEvalView, stressView].map((view) => [view.method, view]),
);

export function viewedMethods(): string[] {
  return [...VIEWS.keys()];
}

/** The case-view parts of a method; none for a method this build does not know (a log from a newer version). */
export function caseViewParts(method: string): CaseViewParts {
  return VIEWS.get(method)?.parts ?? {};
}
