// Exact percentiles over every value kept (no histogram buckets).

/**
 * The q-quantile of values sorted ascending (nearest rank); NaN when there are none.
 * @param {ArrayLike<number>} sorted
 * @param {number} q
 * @returns {number}
 */
export function percentile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  return /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]);
}

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return percentile(sorted, 0.5);
}
