/** Small numeric and text helpers for benchmark reports. */

/** Percentiles of a latency sample (nearest rank), in the sample's unit. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Summarizes `values` (sorted in place); undefined when empty. */
export function summarize(values: number[]): LatencySummary | undefined {
  if (values.length === 0) return undefined;
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)];
  return {
    count: values.length,
    p50: round(at(0.5), 2),
    p90: round(at(0.9), 2),
    p99: round(at(0.99), 2),
    max: round(values[values.length - 1], 2),
  };
}

/** `value` rounded to `digits` decimals. */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Renders rows as a fixed-width text table; numeric columns right-aligned, others left; absent cells as '-'. */
export function table(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = rows.map((r) => r.map((c) => (c === undefined || c === null ? '-' : String(c))));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const numeric = header.map((_, i) =>
    rows.every((r) => r[i] === undefined || r[i] === null || typeof r[i] === 'number'),
  );
  const line = (r: string[]) =>
    r.map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** The median (the mean of the middle two for an even count); NaN for none. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** This process's CPU time so far (user + system, every thread), in ms. */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
