// Needle in a Haystack's name and what its cases show in the inspector: the haystack in the needle view.
import type { MethodView } from '../caseView.js';

export const NEEDLE_METHOD = 'needle';

export const needleView: MethodView = { method: NEEDLE_METHOD, parts: { haystack: true } };
