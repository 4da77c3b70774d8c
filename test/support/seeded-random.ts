/**
 * A seeded pseudo-random generator (mulberry32): the same numbers in [0, 1) on every run, for
 * tests that generate inputs, stores or model weights.
 * @example
 * const next = seededRandom(42);
 * const pick = words[Math.floor(next() * words.length)];
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
