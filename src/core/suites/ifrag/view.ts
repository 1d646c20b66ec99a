// IF-RAG's name and what its cases show in the inspector: the documents the response cites and the ones it needed.
import type { MethodView } from '../caseView.js';

export const IFRAG_METHOD = 'ifrag';

export const ifragView: MethodView = { method: IFRAG_METHOD, parts: { citations: true } };
