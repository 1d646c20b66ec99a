// RAGAS's name and what its cases show in the inspector: the judges' statements, claims and usefulness verdicts.
import type { MethodView } from '../caseView.js';

export const RAGAS_METHOD = 'ragas';

export const ragasView: MethodView = { method: RAGAS_METHOD, parts: { judgeFindings: true } };
