// The rag method's name and what its cases show in the inspector: the documents sent, by role; the retriever's ranked
// list, the cut-off and the cause are drawn from the case's own `params.retrieval`, whatever the method.
import type { MethodView } from '../caseView.js';

export const RAG_METHOD = 'rag';

export const ragView: MethodView = { method: RAG_METHOD, parts: {} };
