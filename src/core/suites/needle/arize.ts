// The Arize variant: a fresh 7-digit number and a city per cell, and Phoenix's rail matching of the answer.
import { mulberry32 } from '../../random.js';

/** Arize's RANDOM_NEEDLE_CITIES, duplicates kept: they weight the draw the way the reference's random.choice does. */
export const NEEDLE_CITIES: readonly string[] = [
  'Chicago', 'Yangon', 'Antananarivo', 'Colombo', 'Almaty', 'Sydney', 'Chicago', 'Mexico City',
  'Seattle', 'Lagos', 'Amsterdam', 'Belgrade', 'Cairo', 'Baghdad', 'Damascus', 'Kigali', 'Dakar',
  'Dakar', 'Sofia', 'Kigali', 'Victoria', 'Tashkent', 'Mumbai', 'Barcelona', 'Almaty', 'Amman',
  'Toronto', 'Bratislava', 'Johannesburg', 'Thimphu', 'Bangkok', 'Santiago', 'Cairo', 'San Francisco',
  'Lagos', 'Amsterdam', 'Paris', 'Rabat', 'Santiago', 'Copenhagen', 'Madrid', 'Kigali',
  'Ho Chi Minh City', 'Sarajevo', 'Delhi', 'Istanbul', 'Ho Chi Minh City', 'Khartoum', 'Helsinki',
  'Doha', 'Istanbul', 'Kuala Lumpur', 'Budapest', 'Shanghai', 'Moscow', 'Los Angeles', 'Oslo',
  'Johannesburg', 'Berlin', 'Bangalore', 'Tokyo', 'Melbourne', 'Barcelona', 'Chicago', 'Port Louis',
  'Lisbon', 'Nairobi', 'Kampala', 'Lima', 'Maputo', 'Vancouver', 'Dubai', 'Khartoum', 'Jakarta',
  'Madrid', 'Yerevan', 'Beirut', 'Athens', 'Chicago', 'Paris', 'Bucharest', 'Copenhagen', 'Brussels',
  'Damascus', 'Seattle', 'Los Angeles', 'Yerevan', 'Victoria', 'Tunis', 'Astana', 'Seoul',
  'Buenos Aires', 'Bangkok', 'Colombo', 'Brussels', 'Khartoum', 'Doha', 'San Francisco', 'Vienna', 'Jakarta',
];

export const ARIZE_NEEDLE = '\nThe special magic {city} number is: {number}\n';
export const ARIZE_QUESTION = 'What is the special magic {city} number?';

/** The reference's rnd_number_digits. */
const DIGITS = 7;

export interface ArizeDraw {
  city: string;
  /** A 7-digit number as text, as the reference compares it. */
  number: string;
}

/**
 * One cell's city and number from its own seed, so a rerun or --resume asks the same thing and no two cells share
 * a cached answer. The reference's `random.randint(10**6, 10**7 - 1)` range, inclusive.
 */
export function drawCell(seed: number): ArizeDraw {
  const random = mulberry32(seed);
  const city = NEEDLE_CITIES[Math.floor(random() * NEEDLE_CITIES.length)] as string;
  const low = 10 ** (DIGITS - 1);
  const number = low + Math.floor(random() * (10 ** DIGITS - low));
  return { city, number: String(number) };
}

/** Fills `{city}` and `{number}` (the reference's str.format fields). */
export function fillPlaceholders(template: string, draw: ArizeDraw): string {
  return template.replaceAll('{city}', draw.city).replaceAll('{number}', draw.number);
}

export const NOT_PARSABLE = 'NOT_PARSABLE';

/**
 * Phoenix `snap_to_rail`: lowercase the output and the rails, try the rails longest first, remove each one found;
 * exactly one found → that rail (lowercased), else NOT_PARSABLE. Empty output is NOT_PARSABLE too.
 */
export function snapToRail(output: string, rails: readonly string[]): string {
  if (!output) return NOT_PARSABLE;
  let text = output.toLowerCase();
  const lowered = [...new Set(rails.map((rail) => rail.toLowerCase()))].sort((a, b) => b.length - a.length);
  const found: string[] = [];
  for (const rail of lowered) {
    if (text.includes(rail)) {
      found.push(rail);
      text = text.replaceAll(rail, '');
    }
  }
  return found.length === 1 ? (found[0] as string) : NOT_PARSABLE;
}

export type RailLabel = 'pass' | 'refusal' | 'miss';

export interface RailVerdict {
  rail: string;
  label: RailLabel;
  pass: boolean;
  /** The Arize notebook's number for the same outcome (lower is better): kept for comparison, never shown as the score. */
  referenceScore: 1 | 5 | 10;
}

/**
 * Arize `check_row`: with a needle, the number → 1, unanswerable → 10, anything else → 5; without one (negative
 * test), unanswerable → 1, anything else → 10. Shown as labels: the expected outcome is a pass.
 */
export function railVerdict(rail: string, answer: string, negative: boolean): RailVerdict {
  const refused = rail === 'unanswerable';
  if (negative) return refused ? { rail, label: 'refusal', pass: true, referenceScore: 1 } : { rail, label: 'miss', pass: false, referenceScore: 10 };
  if (rail === answer.toLowerCase()) return { rail, label: 'pass', pass: true, referenceScore: 1 };
  if (refused) return { rail, label: 'refusal', pass: false, referenceScore: 10 };
  return { rail, label: 'miss', pass: false, referenceScore: 5 };
}
