/** Small statistics over samples, for figures measured in one run (never asserted in tests). */

/** The value at quantile `q` (0…1) of `samples`, nearest-rank; NaN when empty. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The median of `samples` (the mean of the two middle values for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/**
 * Median and quartiles of `ours[i] / floor[i]` over the rounds; for a loop timed by one run
 * alone (too slow for rounds), that run over each of the floor's.
 */
export function pairedRatio(
  ours: readonly number[],
  floor: readonly number[],
): { median: number; low: number; high: number } {
  if (ours.length === 1 && floor.length > 1) ours = floor.map(() => ours[0] ?? Number.NaN);
  const ratios = ours.map((value, index) => value / (floor[index] ?? Number.NaN));
  return { median: median(ratios), low: quantile(ratios, 0.25), high: quantile(ratios, 0.75) };
}
