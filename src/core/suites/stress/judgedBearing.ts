// params.answerBearing: judge — before a row's cases are built, the judge decides for each retrieved passage whether
// it contains the reference answer, word for word or paraphrased (Suite.prepareRow), and checks the row's distractor
// candidates by the same question: a passage that paraphrases the row's answer is no distractor for it. Its verdicts
// are what the cases are built from and are recorded on them; a verdict that cannot be read leaves the row reported
// at its line.
import { InputError } from '../../errors.js';
import type { DatasetRow } from '../../model.js';
import type { Judge, JudgeOutcome } from '../judging.js';
import type { PrepareContext } from '../contract.js';
import type { AnswerParts } from '../rgb/rows.js';
import { bearingOf } from './bearing.js';
import { distractorsNeeded } from './budget.js';
import { rowDrawSeed } from './cases.js';
import type { StressParams } from './params.js';
import { distractorCandidates } from './pool.js';
import type { Distractor, DistractorPool } from './pool.js';
import { readStressRow } from './rows.js';
import type { StressRow } from './rows.js';

export const BEARING_PROMPT = 'stress/judge-answer-bearing.prompt';

/** OpenAI strict-mode compatible: every property required, no others. */
const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    reason: { type: 'string', description: 'Why the passage does or does not state the reference answer' },
    verdict: { type: 'string', enum: ['yes', 'no'], description: 'yes: the passage contains the reference answer' },
  },
  required: ['reason', 'verdict'],
  additionalProperties: false,
} as const;

interface VerdictAnswer {
  reason: string;
  verdict: 'yes' | 'no';
}

/** One passage's verdict, as recorded on the row's cases: why it was (not) taken as answer-bearing. */
export interface PassageVerdict {
  /** Index in the row's contexts. */
  index: number;
  verdict: 'yes' | 'no';
  reason: string;
}

/** A distractor candidate the judge found to state the row's answer: not drawn, the next one is asked instead. */
export interface PassedOverDistractor {
  /** Where it came from: "rows[7].contexts[2]" or "corpus:facts.txt#3". */
  source: string;
  reason: string;
}

/** The row's distractors as the judge cleared them, in the row's rank order, and the candidates it passed over. */
export interface JudgedDistractors {
  drawn: Distractor[];
  passedOver: PassedOverDistractor[];
}

/**
 * What preparation gives case building. `judged`: the judge's verdict on every passage (none when the row's own
 * answer_bearing column names them) and the distractors it cleared. `assumed`: the plan is only counted or priced (no
 * judge may be called then), so every passage is taken as answer-bearing and distractors are drawn by the match rule:
 * the row gives the cases it will give when judged, with as many passages, and is never run like this.
 */
export type StressPrepared =
  | { kind: 'judged'; judge: string; verdicts?: PassageVerdict[]; distractors: JudgedDistractors }
  | { kind: 'assumed' };

/**
 * How many candidates beyond those a row needs the judge may turn down before the row takes fewer distractors: the
 * judge's cost stays a small multiple of the row's own (its passages plus its distractors), even in a pool where many
 * passages state the answer. Recorded: the row's cases then show fewer distractors drawn than requested.
 */
const SPARE_CANDIDATES = 4;

/** The reference as the judge reads it: alternatives joined by "or", parts by "and". */
export function referenceText(answer: AnswerParts): string {
  return answer.map((alternatives) => alternatives.join(' or ')).join(' and ');
}

/** One verdict: does this passage state the row's reference answer? The same question for its passages and distractors. */
function askBearing(judge: Judge, stressRow: StressRow, passage: string): Promise<JudgeOutcome<VerdictAnswer>> {
  return judge.ask<VerdictAnswer>(BEARING_PROMPT, {
    question: stressRow.question,
    reference: referenceText(stressRow.answer),
    passage,
    output_schema: JSON.stringify(VERDICT_SCHEMA),
  }, { schema: { name: 'answer_bearing', schema: VERDICT_SCHEMA } });
}

function unreadableError(row: DatasetRow, judge: Judge, unread: string[], what: string): InputError {
  return new InputError({ file: row.ref.file, line: row.ref.line }, `stress row: the judge ${judge.key} gave no readable answer-bearing verdict for ${unread.join('; ')}; the row is not built, since ${what}`, `check the judge model and ${BEARING_PROMPT}; the judge must answer {"reason": …, "verdict": "yes" or "no"}`);
}

/** The judge's verdict on each of the row's own passages; every one must be readable, and one at least "yes". */
async function judgeOwnPassages(row: DatasetRow, stressRow: StressRow, judge: Judge): Promise<PassageVerdict[]> {
  const outcomes = await Promise.all(stressRow.contexts.map((passage) => askBearing(judge, stressRow, passage)));
  const unread = outcomes.flatMap((outcome, index) => (outcome.ok ? [] : [`passage ${index} (${outcome.error})`]));
  if (unread.length > 0) throw unreadableError(row, judge, unread, 'those passages are neither answer-bearing nor distractors');
  const verdicts = outcomes.map((outcome, index): PassageVerdict => {
    const { verdict, reason } = (outcome as { value: VerdictAnswer }).value;
    return { index, verdict, reason };
  });
  if (!verdicts.some((v) => v.verdict === 'yes')) {
    throw new InputError({ file: row.ref.file, line: row.ref.line }, `stress row: the judge ${judge.key} found none of the ${verdicts.length} retrieved passages to contain the reference answer "${referenceText(stressRow.answer)}"; the row cannot be stressed`, 'check the reference answer, or name the passages that bear it: answer_bearing: [0] (the column wins over the judge)');
  }
  return verdicts;
}

/**
 * The row's distractors under the judge: candidates in the row's rank order (those stating the answer word for word
 * already left out), asked in waves of as many as are still missing, so exactly the first `count` the judge clears
 * are drawn, whatever the order its answers arrive in. Why ask rather than draw only from passages the judge found
 * bearing nothing for their own row: a passage can state this row's answer without stating its own row's (two
 * questions with one answer), and a corpus paragraph has no row at all; only this row's answer decides.
 */
async function judgeDistractors(row: DatasetRow, stressRow: StressRow, judge: Judge, pool: DistractorPool, count: number, seed: number): Promise<JudgedDistractors> {
  const drawn: Distractor[] = [];
  const passedOver: PassedOverDistractor[] = [];
  if (count <= 0) return { drawn, passedOver };
  const candidates = distractorCandidates(pool, { seed, rowIndex: row.ref.index, answer: stressRow.answer, own: stressRow.contexts });
  let budget = count + SPARE_CANDIDATES;
  while (drawn.length < count && budget > 0) {
    const want = Math.min(count - drawn.length, budget);
    const wave: Distractor[] = [];
    while (wave.length < want) {
      const next = candidates.next();
      if (next.done) break;
      wave.push(next.value);
    }
    if (wave.length === 0) break;
    budget -= wave.length;
    const outcomes = await Promise.all(wave.map((candidate) => askBearing(judge, stressRow, candidate.text)));
    const unread = outcomes.flatMap((outcome, i) => (outcome.ok ? [] : [`distractor ${(wave[i] as Distractor).source} (${outcome.error})`]));
    if (unread.length > 0) throw unreadableError(row, judge, unread, 'a distractor the judge has not cleared may state the answer');
    outcomes.forEach((outcome, i) => {
      const candidate = wave[i] as Distractor;
      const { verdict, reason } = (outcome as { value: VerdictAnswer }).value;
      if (verdict === 'no') drawn.push(candidate);
      else passedOver.push({ source: candidate.source, reason });
    });
  }
  return { drawn, passedOver };
}

/**
 * Suite.prepareRow for stress: nothing unless answerBearing is judge. One judge call per passage of the row (none when
 * its answer_bearing column names them), and one per distractor candidate, through the judge step (rendered prompt,
 * schema-checked JSON with one repair, the run's cache); cancellation is rethrown by it. A row with an unreadable
 * verdict, or with no passage the judge finds answer-bearing, is an InputError at its line.
 */
export async function prepareStressRow(row: DatasetRow, params: StressParams, context: PrepareContext, pool: DistractorPool): Promise<StressPrepared | undefined> {
  if (params.answerBearing !== 'judge') return undefined;
  const judge = context.judge;
  if (!judge) return { kind: 'assumed' };
  const stressRow = readStressRow(row);
  // The row's own answer_bearing column wins over any rule: the user has said which passages bear the answer.
  const verdicts = stressRow.answerBearing ? undefined : await judgeOwnPassages(row, stressRow, judge);
  const judged = { kind: 'judged' as const, judge: judge.key, ...(verdicts ? { verdicts } : {}) };
  const { bearing } = bearingOf(stressRow, { ...judged, distractors: { drawn: [], passedOver: [] } });
  const count = distractorsNeeded(bearing.length, params);
  const distractors = await judgeDistractors(row, stressRow, judge, pool, count, rowDrawSeed(row, stressRow, context));
  return { ...judged, distractors };
}
