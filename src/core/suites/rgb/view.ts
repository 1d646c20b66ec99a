// RGB's name and what its cases show in the inspector: documents by role with answer spans, nothing of its own.
import type { MethodView } from '../caseView.js';

export const RGB_METHOD = 'rgb';

export const rgbView: MethodView = { method: RGB_METHOD, parts: {} };
