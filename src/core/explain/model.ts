// The shapes of "Explain a failure": what is varied, what each variant did, and what the explanation concludes.
// Plain JSON-serialisable data: stored beside the run (.rag-inspector/explanations/), read by the CLI, the reports
// and the inspector. Everything here is computed from variant cases that ran through the engine like any other case.

/** The four ways a case is varied. */
export type VariantKind = 'loo' | 'subsets' | 'position' | 'instruction';

export const VARIANT_KINDS: readonly VariantKind[] = ['loo', 'subsets', 'position', 'instruction'];

/**
 * One removable, movable piece of what the model saw. For RGB, IF-RAG and RAGAS a source is one document of the case
 * (same id, "d3"); for Needle in a Haystack the haystack is cut into segments ("s0"…) and the needle is a source of its
 * own ("needle"); for LLM-Eval the context is cut into its lines (dialogue turns) or paragraphs ("l0"…).
 */
export interface ExplainSource {
  id: string;
  /** The document's role (positive, negative, counterfactual, haystack); "needle" for the needle. */
  role: string;
  /** True when the dataset labels it as holding the answer (a positive document, the needle). */
  answerBearing: boolean;
  /** The first words, for a person reading a summary. */
  preview: string;
}

/** Which sources a variant shows, in order, and which template section it leaves out. */
export interface VariantSpec {
  /** Unique within the explained case: "original", "loo:d3", "subset:7", "position:2", "instruction:system". */
  id: string;
  /** "faithfulness": the sources an explanation credits, removed together (planned once the others have run). */
  kind: VariantKind | 'original' | 'faithfulness';
  /** Source ids shown, in the order shown. */
  present: string[];
  /** For kind "position": the 0-based position the answer-bearing source was moved to. */
  position?: number;
  /** For kind "instruction": the template section left out ("system", "user#2"). */
  removedSection?: string;
}

/** What a variant run came to. `pass: null` is undetermined: a model error, a judge error or no verdict. */
export interface VariantOutcome {
  variantId: string;
  pass: boolean | null;
  /**
   * A continuous signal where the method gives one: the mean of the verdict-bearing scores' values (an RGB or IF-RAG
   * 0/1, a needle judge score 1–10, an LLM-Eval 1–5 rating, a RAGAS 0–1 score). Null when undetermined.
   */
  signal: number | null;
  /** Why it is undetermined ("judge error: …"), when it is. */
  undeterminedBecause?: string;
  /** The response the variant got (given responses are the dataset's own, unchanged). */
  response?: string;
  /** True when the model's answer came from the response cache. */
  cached: boolean;
}

/**
 * What a source does to the verdict (for a method with ratings only, LLM-Eval, "flips" reads "moves the rating by at
 * least a fifth of its scale").
 * - decisive: the case passes, and leaving this source out makes it fail (the answer rests on it);
 * - harms: leaving it out makes a failing case pass (the distractor that misled the model), or the surrogate gives it
 *   a clearly negative weight;
 * - helps: no single removal flips the verdict, but the surrogate gives it a clearly positive weight;
 * - inert: neither;
 * - undetermined: the variants that would decide it ended in an error (a judge error is never read as a flip).
 */
export type SourceEffect = 'decisive' | 'helps' | 'harms' | 'inert' | 'undetermined';

export interface SourceAttribution {
  sourceId: string;
  role: string;
  answerBearing: boolean;
  effect: SourceEffect;
  /** Verdict without this source (leave-one-out); null when undetermined, not run, or the method gives ratings only. */
  withoutIt: boolean | null;
  /**
   * How leaving it out moves the outcome: the verdict as 1/0 (−1: removing it breaks a pass; +1: removing it fixes a
   * failure), or for a method with ratings only (LLM-Eval) the change in the rating's share of its scale.
   */
  change: number | null;
  /** Signed weight from the sparse linear surrogate over the subsets: > 0 its presence raises the pass rate. */
  attribution: number | null;
  /** How many variants inform this source: the leave-one-out run, subsets with it and without it. */
  support: { leaveOneOut: number; subsetsWith: number; subsetsWithout: number };
}

/** The LASSO fit from "which sources were present" to the verdict, and how well it explains the subsets. */
export interface SurrogateFit {
  /** Subsets that were determined (the fit's rows). */
  samples: number;
  lambda: number;
  intercept: number;
  /** Coefficient of determination on the subsets (1 = every outcome explained). */
  r2: number;
  /** Share of subsets whose verdict the fit predicts on the right side of ½. */
  accuracy: number;
  /** Share of sources whose sign agrees with leave-one-out where leave-one-out flipped (null: nothing flipped). */
  agreementWithLeaveOneOut: number | null;
}

/** One point of the position curve: the answer-bearing source at `position` (0 = first). */
export interface PositionPoint {
  position: number;
  pass: boolean | null;
  signal: number | null;
}

export interface InstructionEffect {
  section: string;
  /** Verdict with the section removed; null when undetermined. */
  pass: boolean | null;
  /** True when the verdict differs from the original's. */
  flips: boolean;
  response?: string;
}

/** A sentence of the original response and the sources whose removal makes it disappear from the answer. */
export interface SentenceLink {
  sentence: string;
  sourceIds: string[];
}

/**
 * Does the explanation hold? The sources it credits with the outcome (a pass: decisive and helping ones; a failure:
 * harming ones; a rating: those it rests on, else those lowering it) are removed together, and the outcome must flip
 * the predicted way. Attribution methods can mislead (long contexts, position effects), so this is checked, not assumed.
 */
export interface FaithfulnessCheck {
  /** The credited sources, removed together (none when nothing is credited). */
  removed: string[];
  /** What the attributions predict without them. */
  predicted: 'fails' | 'passes' | 'rating drops' | 'rating rises' | null;
  /**
   * flips: as predicted; does-not-flip: the attributions do not account for the outcome (may mislead);
   * undetermined: the check's run ended in an error; not-run: cancelled or left out by --max-calls;
   * nothing-to-check: no source is credited, or the original is undetermined.
   */
  status: 'flips' | 'does-not-flip' | 'undetermined' | 'not-run' | 'nothing-to-check';
  /** The variant that answers it: its own run (`faithfulness:d0+d2`) or a planned one showing the same sources. */
  variantId?: string;
  outcome?: VariantOutcome;
  /** One sentence for a person. */
  note: string;
}

/** The explanation of one (case, model). */
export interface CaseExplanation {
  caseId: string;
  modelKey: string;
  suiteId: string;
  method: string;
  /** What explaining means for this case (e.g. RAGAS with given responses: the fixed answer is re-judged). */
  meaning: string;
  /** "verdict": pass/fail compared; "rating": a method with ratings only (LLM-Eval), their share of the scale compared. */
  basis: 'verdict' | 'rating';
  sources: ExplainSource[];
  original: VariantOutcome;
  variants: VariantOutcome[];
  attributions: SourceAttribution[];
  surrogate?: SurrogateFit;
  /** Answer-bearing source moved through every position; absent when the case has none or one source. */
  positionCurve?: { sourceId: string; points: PositionPoint[] };
  instructions: InstructionEffect[];
  sentences: SentenceLink[];
  /** One line a person can act on. */
  summary: string;
  /** Variants that did not finish (cancelled): the explanation is partial until it is resumed. */
  missingVariants: number;
  /** Whether removing the credited sources together flips the outcome as predicted (absent in explanations made before it existed). */
  faithfulness?: FaithfulnessCheck;
}

/** Per suite, across its explained cases (one model at a time). */
export interface SuiteExplanation {
  suiteId: string;
  modelKey: string;
  cases: number;
  /** Accuracy by position of the answer-bearing source ("lost in the middle" on the user's own data). */
  accuracyByPosition: { position: number; passed: number; n: number; accuracy: number | null }[];
  /** Sources (by the dataset row's passage, source text preview) that most often harm answers. */
  mostHarmful: { preview: string; role: string; cases: number }[];
  /** Of the cases with a decisive source, how often it is one the dataset labels answer-bearing. */
  decisiveIsLabelled: { agree: number; n: number };
}

/** Everything an explanation of a run holds; stored as `.rag-inspector/explanations/<run-id>.json`. */
export interface RunExplanation {
  format: 1;
  runId: string;
  /** The run log the explained cases came from. */
  runLog: string;
  /** The log of the variant cases (same format as a run log; each variant case marked with `params.explainVariant`). */
  variantLog: string;
  createdAt: string;
  status: 'complete' | 'cancelled';
  cases: CaseExplanation[];
  suites: SuiteExplanation[];
  /** Model calls this explanation made and answers it took from the cache. */
  calls: { model: number; cached: number; judge: number; costUsd?: number };
}

/** What an explanation will cost, before anything is spent. */
export interface ExplainPlan {
  cases: { caseId: string; modelKey: string; variants: number; fromCache: number }[];
  /** Variant runs planned in all (the original of each case included). */
  variants: number;
  /** Of those, already in the variant log (a resumed explanation): not run again. */
  alreadyDone: number;
  /** Of the rest, answered by the response cache: no call, no cost. */
  fromCache: number;
  /**
   * Model calls to make: the variants left, identical ones once, and the faithfulness checks that may need one; given
   * responses make none (their judge calls are not counted).
   */
  calls: number;
  /**
   * Of `calls`, the faithfulness checks' (at most one a case; none when every subset runs, since one of them already
   * shows the sources a check leaves in). An upper bound: a check a leave-one-out run already answers makes no call.
   */
  checks: number;
  /** Upper bound on USD for those calls (output at maxTokens); judge calls not included. */
  estimatedUsd: number;
  /** Models with no known price: their calls are not in estimatedUsd. */
  unpriced: string[];
  /** True when --max-calls cut variants off (the explanation is partial by design). */
  truncated: boolean;
}

/** Options every entry point takes (CLI flags, the eval file's `explain:` block, the inspector). */
export interface ExplainOptions {
  /** Variant kinds to run; all by default. */
  variants?: VariantKind[];
  /** Subsets per case; by default chosen from the number of sources (see defaultSubsetCount). */
  subsets?: number;
  /** Needle and LLM-Eval: how many segments to cut the haystack or context into. */
  segments?: number;
  /** Stop planning new model calls past this many (cache hits are free and not counted). */
  maxCalls?: number;
  /** LASSO penalty. */
  lambda?: number;
}

/**
 * Progress, for a bar and live-filled cards: `explain-started` (the plan, after `confirm` accepted it), then
 * `variant-finished` per run, `case-explained` per completed case, and `explain-finished` (also after a cancel, with
 * status 'cancelled' and the explanations as far as they got).
 */
export type ExplainEvent =
  | { type: 'explain-started'; plan: ExplainPlan; variantLog: string }
  /**
   * One variant run finished (logged). `variantIds` are every variant it stands for (identical variants run once);
   * `outcome` is theirs. A leave-one-out outcome compared with the original already gives that document's effect,
   * so a UI can fill in bars before the case is done.
   */
  | {
    type: 'variant-finished'; caseId: string; modelKey: string; variantIds: string[]; outcome: VariantOutcome; done: number; total: number;
    /** Its outcome differs from the original's (a verdict flipped, a rating moved by a fifth of its scale); false when either is undetermined or the original has not run yet. */
    flipped: boolean;
  }
  /** Every variant of a case has finished: its explanation, final unless the run is cancelled. */
  | { type: 'case-explained'; explanation: CaseExplanation }
  | { type: 'explain-finished'; explanation: RunExplanation; file: string };
