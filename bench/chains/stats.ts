/** Percentiles by the nearest-rank rule (as bench/background.ts), in the samples' unit. */
export type Quantiles = { p50: number; p99: number; min: number; max: number; mean: number };

export function quantiles(values: number[]): Quantiles {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return { p50: NaN, p99: NaN, min: NaN, max: NaN, mean: NaN };
  const at = (p: number) => v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
  const round = (x: number) => Math.round(x * 10) / 10;
  return { p50: round(at(50)), p99: round(at(99)), min: round(v[0]), max: round(v[v.length - 1]), mean: round(v.reduce((a, b) => a + b, 0) / v.length) };
}

export const median = (values: number[]) => quantiles(values).p50;
