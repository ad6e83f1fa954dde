/**
 * Go's `time.Duration.String()` (src/time/time.go), which meta/v1 `Duration.MarshalJSON` writes:
 * "1h2m3.5s", "1.5ms", "0s". Durations of a day or more stay in hours ("72h0m0s").
 */

const UNITS: readonly [number, string][] = [
  [1e6, 'ms'],
  [1e3, 'µs'],
  [1, 'ns'],
];

/** A decimal with trailing zeros of the fraction dropped: 1500 / 1000 → "1.5". */
function decimal(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const fraction = value % unit;
  if (fraction === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(fraction).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** A nanosecond count (int64 as a JSON number) as Go prints a time.Duration. */
export function goDuration(nanoseconds: number): string {
  if (nanoseconds === 0) return '0s';
  const sign = nanoseconds < 0 ? '-' : '';
  const ns = Math.abs(nanoseconds);
  if (ns < 1e9) {
    const [unit, suffix] = UNITS.find(([u]) => ns >= u) ?? [1, 'ns'];
    return `${sign}${decimal(ns, unit)}${suffix}`;
  }
  const hours = Math.floor(ns / 3.6e12);
  const minutes = Math.floor((ns % 3.6e12) / 6e10);
  const seconds = decimal(ns % 6e10, 1e9);
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

const UNIT_NANOS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 6e10,
  h: 3.6e12,
};

/**
 * Go's `time.ParseDuration` (src/time/format.go), which meta/v1 `Duration.UnmarshalJSON` reads:
 * "1h2m3.5s" → nanoseconds. A string it cannot read is 0 (the JSON was checked when written).
 */
export function parseGoDuration(text: string): number {
  const match = /^([-+]?)((?:\d*\.?\d+(?:ns|us|µs|μs|ms|s|m|h))+|0)$/.exec(text);
  if (!match) return 0;
  let total = 0;
  for (const [, amount, unit] of match[2].matchAll(/(\d*\.?\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Math.round(Number(amount) * UNIT_NANOS[unit]);
  }
  return match[1] === '-' ? -total : total;
}
