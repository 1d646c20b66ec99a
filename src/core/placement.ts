// One item placed at a chosen position among others: the position sweep shared by "Explain a failure" (the
// answer-bearing source moved through a case) and the stress method's position testbed (lost in the middle).

/** `others` with `item` inserted before `others[position]` (position 0 = first, others.length = last). */
export function placeAt<T>(others: readonly T[], item: T, position: number): T[] {
  if (!Number.isInteger(position) || position < 0 || position > others.length) {
    throw new RangeError(`position ${position} is outside 0..${others.length}`);
  }
  return [...others.slice(0, position), item, ...others.slice(position)];
}

/** Every placement of `item` among `others`, first to last: others.length + 1 orders. */
export function everyPlacement<T>(others: readonly T[], item: T): T[][] {
  return Array.from({ length: others.length + 1 }, (_, position) => placeAt(others, item, position));
}
