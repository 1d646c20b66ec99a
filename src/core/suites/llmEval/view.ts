// LLM-Eval's name and what its cases show in the inspector: one bar per scored dimension.
import type { MethodView } from '../caseView.js';

export const LLM_EVAL_METHOD = 'llm-eval';

export const llmEvalView: MethodView = { method: LLM_EVAL_METHOD, parts: { dimensionBars: true } };
