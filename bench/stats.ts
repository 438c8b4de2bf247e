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
