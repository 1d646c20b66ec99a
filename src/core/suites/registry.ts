// The one place methods are registered: eval files name a method, the engine looks it up here. Every method, bundled or
// plugged in (a module the CLI loads with `node --import`), is added by one line: registerSuite(suite, view).
import type { Suite } from './contract.js';
import type { MethodView } from './caseView.js';
import { registerView } from './views.js';
import { llmEvalSuite } from './llmEval/suite.js';
import { llmEvalView } from './llmEval/view.js';
import { ragasSuite } from './ragas/suite.js';
import { ragasView } from './ragas/view.js';
import { ifragSuite } from './ifrag/suite.js';
import { ifragView } from './ifrag/view.js';
import { needleSuite } from './needle/suite.js';
import { needleView } from './needle/view.js';
import { ragSuite } from './rag/suite.js';
import { ragView } from './rag/view.js';
import { rgbSuite } from './rgb/suite.js';
import { rgbView } from './rgb/view.js';
import { stressSuite } from './stress/suite.js';
import { stressView } from './stress/view.js';

const SUITES = new Map<string, Suite<unknown>>();

/**
 * Adds a method: the engine, the eval file's loading and the reports find it by `suite.method`, the inspector's case
 * view by its view. Refuses a second method of one name, and a view of another method, rather than replace one.
 */
export function registerSuite<Params>(suite: Suite<Params>, view: MethodView): void {
  if (view.method !== suite.method) throw new Error(`method "${suite.method}" registered with the view of "${view.method}"`);
  if (SUITES.has(suite.method)) throw new Error(`method "${suite.method}" is registered twice`);
  registerView(view);
  SUITES.set(suite.method, suite as Suite<unknown>);
}

registerSuite(rgbSuite, rgbView);
registerSuite(needleSuite, needleView);
registerSuite(ifragSuite, ifragView);
registerSuite(ragasSuite, ragasView);
registerSuite(llmEvalSuite, llmEvalView);
registerSuite(stressSuite, stressView);
registerSuite(ragSuite, ragView);

export function knownMethods(): string[] {
  return [...SUITES.keys()];
}

/** The methods whose rows are retrieval questions a sweep can measure (the `retrievalQuestions` hook). */
export function retrievalQuestionMethods(): string[] {
  return knownMethods().filter((method) => SUITES.get(method)?.retrievalQuestions !== undefined);
}

export function suiteFor(method: string): Suite<unknown> | undefined {
  return SUITES.get(method);
}
