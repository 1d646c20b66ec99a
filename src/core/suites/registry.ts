// The one place methods are registered: eval files name a method, the engine looks it up here.
import type { Suite } from './contract.js';
import { llmEvalSuite } from './llmEval/suite.js';
import { ragasSuite } from './ragas/suite.js';
import { ifragSuite } from './ifrag/suite.js';
import { needleSuite } from './needle/suite.js';
import { ragSuite } from './rag/suite.js';
import { rgbSuite } from './rgb/suite.js';
import { stressSuite } from './stress/suite.js';

const SUITES: ReadonlyMap<string, Suite<unknown>> = new Map<string, Suite<unknown>>([
  [rgbSuite.method, rgbSuite as Suite<unknown>],
  [needleSuite.method, needleSuite as Suite<unknown>],
  [ifragSuite.method, ifragSuite as Suite<unknown>],
  [ragasSuite.method, ragasSuite as Suite<unknown>],
  [llmEvalSuite.method, llmEvalSuite as Suite<unknown>],
  [stressSuite.method, stressSuite as Suite<unknown>],
  [ragSuite.method, ragSuite as Suite<unknown>],
]);

export function knownMethods(): string[] {
  return [...SUITES.keys()];
}

export function suiteFor(method: string): Suite<unknown> | undefined {
  return SUITES.get(method);
}
