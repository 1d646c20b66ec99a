// The stress method's name and what its cases show in the inspector: documents by role with answer spans, as RGB's.
import type { MethodView } from '../caseView.js';

export const STRESS_METHOD = 'stress';

export const stressView: MethodView = { method: STRESS_METHOD, parts: {} };
