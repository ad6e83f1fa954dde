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
