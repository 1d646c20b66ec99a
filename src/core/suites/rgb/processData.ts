// Chooses the passages of one RGB case, step for step as the reference `processdata` does, with our seeded PRNG.
import type { DocumentRole } from '../../model.js';
import { sample, shuffled } from '../../random.js';
import type { Random } from '../../random.js';
import type { CounterfactualRow, IntegrationRow, PlainRow, RgbRow } from './rows.js';

export interface SelectedPassage {
  text: string;
  role: DocumentRole;
  /** Where it came from in the row, e.g. "positive[2]" or "positive[1][0]". */
  source: string;
}

export interface Selection {
  /** In the final (shuffled) order the model sees. */
  passages: SelectedPassage[];
  positives: number;
  negatives: number;
  counterfactuals: number;
  /** negatives / passages actually used; null with no passages at all. */
  effectiveNoiseRate: number | null;
}

export interface SelectionOptions {
  noiseRate: number;
  passageNum: number;
  correctRate: number;
}

/** `neg_num = ceil(passage_num * noise_rate)`: the same double arithmetic as Python, so 5 × 0.6 rounds alike. */
function negativeCount(passageNum: number, noiseRate: number): number {
  return Math.ceil(passageNum * noiseRate);
}

function negatives(row: RgbRow, count: number): SelectedPassage[] {
  return row.negative.slice(0, Math.max(0, count)).map((text, i) => ({ text, role: 'negative', source: `negative[${i}]` }));
}

/** Plain rows: first N positives + first M negatives; when one side runs short the other side grows. */
function plainPassages(row: PlainRow, { noiseRate, passageNum }: SelectionOptions): SelectedPassage[] {
  let negNum = negativeCount(passageNum, noiseRate);
  let posNum = passageNum - negNum;
  if (noiseRate === 1) {
    negNum = passageNum;
    posNum = 0;
  } else if (negNum > row.negative.length) {
    negNum = row.negative.length;
    posNum = passageNum - negNum;
  } else if (posNum > row.positive.length) {
    posNum = row.positive.length;
    negNum = passageNum - posNum;
  }
  const positives = row.positive.slice(0, posNum).map((text, i): SelectedPassage => ({ text, role: 'positive', source: `positive[${i}]` }));
  return [...positives, ...negatives(row, negNum)];
}

/**
 * Integration rows: shuffle each answer part's passages, take the first of every part (even past pos_num, as the
 * reference does), then round-robin the 2nd, 3rd… of each part until pos_num; negatives fill the rest.
 */
function integrationPassages(row: IntegrationRow, { noiseRate, passageNum }: SelectionOptions, random: Random): SelectedPassage[] {
  const posNum = passageNum - negativeCount(passageNum, noiseRate);
  const groups = row.positive.map((group, g) =>
    shuffled(group.map((text, i): SelectedPassage => ({ text, role: 'positive', source: `positive[${g}][${i}]` })), random));
  const docs = groups.map((group) => group[0] as SelectedPassage);
  const longest = Math.max(...groups.map((group) => group.length));
  roundRobin: for (let i = 1; i < longest && docs.length < posNum; i++) {
    for (const group of groups) {
      const passage = group[i];
      if (passage === undefined) continue;
      docs.push(passage);
      if (docs.length === posNum) break roundRobin;
    }
  }
  return [...docs, ...negatives(row, passageNum - docs.length)];
}

/**
 * Counterfactual rows: positive_wrong at pos_num sampled indices, true positives sampled from the other indices
 * (correct_rate), then the first negatives.
 */
function counterfactualPassages(row: CounterfactualRow, { noiseRate, passageNum, correctRate }: SelectionOptions, random: Random): SelectedPassage[] {
  const negNum = negativeCount(passageNum, noiseRate);
  const correctNum = Math.ceil(passageNum * correctRate);
  const posNum = passageNum - negNum - correctNum;
  const indexes = row.positive.map((_, i) => i);
  const selected = sample(indexes, posNum, random);
  const docs = selected.map((i): SelectedPassage => ({ text: row.positiveWrong[i] as string, role: 'counterfactual', source: `positive_wrong[${i}]` }));
  const remain = indexes.filter((i) => !selected.includes(i));
  if (correctNum > 0 && remain.length > 0) {
    for (const i of sample(remain, correctNum, random)) docs.push({ text: row.positive[i] as string, role: 'positive', source: `positive[${i}]` });
  }
  return [...docs, ...negatives(row, negNum)];
}

function countRoles(passages: readonly SelectedPassage[]): Omit<Selection, 'passages'> {
  const count = (role: DocumentRole) => passages.filter((p) => p.role === role).length;
  const negativesUsed = count('negative');
  return {
    positives: count('positive'),
    negatives: negativesUsed,
    counterfactuals: count('counterfactual'),
    effectiveNoiseRate: passages.length === 0 ? null : negativesUsed / passages.length,
  };
}

/** The reference `processdata`: choose by data kind, then shuffle the whole list once. */
export function selectPassages(row: RgbRow, options: SelectionOptions, random: Random): Selection {
  const chosen = row.kind === 'plain' ? plainPassages(row, options)
    : row.kind === 'integration' ? integrationPassages(row, options, random)
    : counterfactualPassages(row, options, random);
  const passages = shuffled(chosen, random);
  return { passages, ...countRoles(passages) };
}
