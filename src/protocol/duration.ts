/**
 * Go `time.Duration` text (`1h30m`, `1.5s`, `500ms`), as Kubernetes components
 * and kubectl flags (`--timeout`, `--request-timeout`) write it. Parsing follows
 * `time.ParseDuration` to the nanosecond, including its int64 range and its float
 * arithmetic for fractions, so a value means here what it means to a Go peer.
 */

/** A string that is not a Go duration, or a number that cannot be printed as one. */
export class DurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DurationError';
  }
}

const nanosecond = 1n;
const microsecond = 1000n * nanosecond;
const millisecond = 1000n * microsecond;
const second = 1000n * millisecond;
const minute = 60n * second;
const hour = 60n * minute;

// Both micro signs are accepted, as in Go: U+00B5 (what Go prints) and U+03BC (Greek mu).
const units: ReadonlyMap<string, bigint> = new Map([
  ['ns', nanosecond],
  ['us', microsecond],
  ['\u00b5s', microsecond],
  ['\u03bcs', microsecond],
  ['ms', millisecond],
  ['s', second],
  ['m', minute],
  ['h', hour],
]);

const int64Max = 2n ** 63n - 1n;
/** The largest magnitude: |min int64|, reachable only by a negative duration. */
const magnitudeMax = 2n ** 63n;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * Parses Go duration text into nanoseconds: an optional sign, then one or more
 * `<number><unit>` terms (`-1.5h`, `2h45m`, `.5s`). A bare `0` is the only number
 * allowed without a unit. Throws {@link DurationError}.
 */
export function parseDurationNs(text: string): bigint {
  const fail = (reason: string): never => {
    const shown = typeof text === 'string' ? JSON.stringify(text) : String(text);
    throw new DurationError(`invalid duration ${shown}: ${reason}`);
  };
  if (typeof text !== 'string') fail('not a string');
  let i = 0;
  const negative = text[0] === '-';
  if (text[0] === '-' || text[0] === '+') i++;
  if (text.slice(i) === '0') return 0n;
  if (i === text.length) fail('empty');

  let total = 0n;
  while (i < text.length) {
    if (text[i] !== '.' && !isDigit(text[i]))
      fail(`expected a number at ${JSON.stringify(text.slice(i, i + 10))}`);
    // Integer part, exact; Go rejects one that overflows int64 outright.
    const intStart = i;
    while (isDigit(text[i])) i++;
    const intDigits = text.slice(intStart, i);
    // Strip leading zeros before measuring, so BigInt never sees a hostile megabyte of digits.
    const significant = intDigits.replace(/^0+/, '');
    if (significant.length > 19 || (significant !== '' && BigInt(significant) > magnitudeMax)) {
      fail('number out of range');
    }
    let whole = significant === '' ? 0n : BigInt(significant);
    // Fraction: Go keeps digits while they fit in 63 bits and ignores the rest.
    let fraction = 0n;
    let scale = 1;
    let hasFraction = false;
    if (text[i] === '.') {
      i++;
      const fracStart = i;
      let overflow = false;
      for (; isDigit(text[i]); i++) {
        if (overflow) continue;
        if (fraction > int64Max / 10n) {
          overflow = true;
          continue;
        }
        const next = fraction * 10n + BigInt(text.charCodeAt(i) - 48);
        if (next > magnitudeMax) {
          overflow = true;
          continue;
        }
        fraction = next;
        scale *= 10;
      }
      hasFraction = i > fracStart;
    }
    if (intDigits === '' && !hasFraction) fail('a number needs at least one digit');
    // The unit runs to the next digit or '.', so `1h30m` reads as `1h` then `30m`.
    const unitStart = i;
    while (i < text.length && text[i] !== '.' && !isDigit(text[i])) i++;
    const unitText = text.slice(unitStart, i);
    if (unitText === '') fail('missing unit (only 0 may have none; e.g. "5s")');
    const unit = units.get(unitText);
    if (unit === undefined) fail(`unknown unit ${JSON.stringify(unitText)} (valid: ns, us, µs, ms, s, m, h)`);
    whole *= unit as bigint;
    if (whole > magnitudeMax) fail('out of range (about ±292 years)');
    if (fraction > 0n) {
      // float64, as Go: exact enough to the nanosecond even for fractions of hours.
      whole += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)));
      if (whole > magnitudeMax) fail('out of range (about ±292 years)');
    }
    total += whole;
    if (total > magnitudeMax) fail('out of range (about ±292 years)');
  }
  if (negative) return -total;
  if (total > int64Max) fail('out of range (about ±292 years)');
  return total;
}

/**
 * Parses Go duration text into milliseconds (a float: `1ns` is 0.000001). Throws
 * {@link DurationError} on anything `time.ParseDuration` rejects, e.g.
 * `invalid duration "5x": unknown unit "x"`, or a bare number other than 0.
 */
export function parseDuration(text: string): number {
  return Number(parseDurationNs(text)) / 1e6;
}

/** `.123` for the low `digits` decimal digits of `v` without trailing zeros ("" when they are all 0), and `v` scaled down. */
function fraction(v: bigint, digits: number): [string, bigint] {
  const scale = 10n ** BigInt(digits);
  const frac = (v % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return [frac === '' ? '' : `.${frac}`, v / scale];
}

/**
 * Prints nanoseconds as Go's `Duration.String` does: `0s`, `1.5µs`, `500ms`,
 * `1m0s`, `2h0m0s`, `-1.5s`. Hours are the largest unit, since days vary in length.
 */
export function formatDurationNs(ns: bigint): string {
  if (ns < -magnitudeMax || ns > int64Max)
    throw new DurationError(`duration ${ns}ns is out of the int64 range`);
  const sign = ns < 0n ? '-' : '';
  const u = ns < 0n ? -ns : ns;
  if (u === 0n) return '0s';
  if (u < second) {
    // Below a second Go switches to the largest unit that keeps an integer part.
    if (u < microsecond) return `${sign}${u}ns`;
    if (u < millisecond) {
      const [frac, whole] = fraction(u, 3);
      return `${sign}${whole}${frac}µs`;
    }
    const [frac, whole] = fraction(u, 6);
    return `${sign}${whole}${frac}ms`;
  }
  const [frac, seconds] = fraction(u, 9);
  const minutes = seconds / 60n;
  const hours = minutes / 60n;
  let out = `${seconds % 60n}${frac}s`;
  if (minutes > 0n) out = `${minutes % 60n}m${out}`;
  if (hours > 0n) out = `${hours}h${out}`;
  return sign + out;
}

/**
 * Prints milliseconds as Go duration text (`60000` -> `1m0s`, `0.5` -> `500µs`),
 * rounded to the nanosecond. Throws {@link DurationError} for NaN, infinities and
 * values beyond Go's int64 nanosecond range.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) throw new DurationError(`duration ${ms}ms is not a finite number`);
  const ns = Math.round(ms * 1e6);
  if (ns > 2 ** 63 || ns < -(2 ** 63)) throw new DurationError(`duration ${ms}ms is out of the int64 range`);
  // A float cannot hold 2^63 - 1; the max duration rounds up to 2^63, so bring it back into range.
  return formatDurationNs(ns === 2 ** 63 ? int64Max : BigInt(ns));
}
