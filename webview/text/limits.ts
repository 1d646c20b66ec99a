// Size limits the views render within (pure, so the tests can import them).

/**
 * Past this many characters a document shows only its start until asked: the browser lays out all of a text
 * even inside a collapsed box, and a 1 MB haystack would otherwise add seconds to every case switch.
 */
export const RENDER_LIMIT = 100_000;
