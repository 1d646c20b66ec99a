// What a method asks of the inspector's generic case view, declared as data in the method's own folder (`view.ts`),
// so the webview — which cannot load a method's Node code — reads it instead of switching on method names.

/**
 * The parts of the case view a method's cases use; a part left out is not shown. Each is drawn from what the
 * method put on the case and its scores (document roles, span kinds, score details).
 */
export interface CaseViewParts {
  /** The document with role `haystack` is shown in the needle view (virtualised, with depth and length), not as a card. */
  readonly haystack?: boolean;
  /** The judges' findings (RAGAS statements, claims, usefulness) read from the score details, as a table and marks. */
  readonly judgeFindings?: boolean;
  /** The citations the response makes (IF-RAG's `correct` score details): notes on the cited and helpful documents. */
  readonly citations?: boolean;
  /** The scores drawn as one bar per dimension (LLM-Eval). */
  readonly dimensionBars?: boolean;
}

/** A method's view declaration: its id (the one place the method's name is written) and the parts it uses. */
export interface MethodView {
  /** The method id used in eval files ("rgb"); the method's Suite takes its `method` from here. */
  readonly method: string;
  readonly parts: CaseViewParts;
}
