/** Small statistics for the bench report. Pure functions, no I/O. */

/** The middle value (the mean of the two middle values for an even count). Throws on an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('spread of no values');
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * service ÷ baseline for each round, pairing the two runs of the same round (they ran one after the
 * other, so they saw the same machine). A round where the baseline served nothing has no ratio.
 */
export function roundRatios(service: readonly number[], baseline: readonly number[]): number[] {
  if (service.length !== baseline.length) throw new Error(`${service.length} service runs but ${baseline.length} baseline runs`);
  const out: number[] = [];
  for (let i = 0; i < service.length; i += 1) {
    const b = baseline[i]!;
    if (b > 0) out.push(service[i]! / b);
  }
  return out;
}

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** The nearest-rank percentile (p in 0–100) of unsorted values. Throws on an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  if (!(p >= 0 && p <= 100)) throw new Error(`percentile ${p} is not in 0–100`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** p50, p99 and the maximum of a list of latencies, rounded to 0.1 ms. */
export function latencySummary(values: readonly number[]): { n: number; p50_ms: number; p99_ms: number; max_ms: number } {
  return { n: values.length, p50_ms: round(percentile(values, 50)), p99_ms: round(percentile(values, 99)), max_ms: round(Math.max(...values)) };
}
