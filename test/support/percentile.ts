/** The p-th percentile (0–100) of ascending values (at least one), by nearest rank. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
