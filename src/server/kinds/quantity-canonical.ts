/**
 * A resource.Quantity's canonical text: what kube-apiserver writes back for a Quantity it parsed
 * (k8s.io/apimachinery/pkg/api/resource, v1.33). `UnmarshalJSON` calls `ParseQuantity`, and
 * `MarshalJSON` emits the string it kept or else `CanonicalizeBytes`. So a built-in object's
 * `cpu: "0.5"` is stored and answered as `"500m"`, `"1024Mi"` as `"1Gi"`.
 *
 * The rules, in the order quantity.go applies them:
 * - `ParseQuantity` keeps the text as sent when its int64 fast path finds it canonical already:
 *   a decimal number of at most 18 digits at a scale that is a multiple of 3 (and not finer than
 *   nano) whose digits neither start with 0 nor end in 000 (`100m`, `1e3`, `+1`); a binary
 *   suffix on a whole number whose value is not a multiple of 8 (`1Mi`, `-3Gi`).
 * - Otherwise the amount is exact, then rounded up (away from zero) to nano; a BinarySI amount
 *   is capped at 2^63-1, and a BinarySI amount between 0 and 1 becomes DecimalSI.
 * - `CanonicalizeBytes`: zero is `0`. BinarySI below 1024 in magnitude, or not a whole number,
 *   is written as DecimalSI; otherwise the largest binary suffix that divides it exactly
 *   (amount.go `AsCanonicalBase1024Bytes`). DecimalSI and DecimalExponent move every factor of
 *   ten into the exponent, then bring the exponent down to a multiple of 3 (amount.go
 *   `AsCanonicalBytes`): `5e4` is `50e3`. DecimalSI names that exponent with its suffix
 *   (suffix.go); past `E` (10^18) v1.33 has no suffix and writes the digits alone (`1000E` → `1`;
 *   kubernetes/kubernetes#140459, merged after v1.33, falls back to `1e21`). Exponents are int32
 *   in Go; this keeps them exact, so only texts near 10^±2147483647 could answer differently.
 */

/** The three ways a Quantity is written (quantity.go `Format`). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A quantity's text as `parseQuantityString` and `suffixer.interpret` take it apart. */
export interface QuantityParts {
  /** The text parsed (spaces trimmed): Go keeps it as the Quantity's string when canonical. */
  text: string;
  negative: boolean;
  /** The integer digits without leading zeros, `0` when there are none. */
  num: string;
  /** The digits after the point. */
  denom: string;
  format: QuantityFormat;
  /** The suffix's power: of 10 (DecimalSI, DecimalExponent, as an int32) or of 2 (BinarySI). */
  exponent: number;
}

const INT64_MAX = (1n << 63n) - 1n;
const NANO = -9;
const DECIMAL_SUFFIX: Readonly<Record<number, string>> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;

/** What kube-apiserver writes back for a Quantity parsed from `parts` (`ParseQuantity` then `String`). */
export function canonicalQuantity(parts: QuantityParts): string {
  if (parts.text === '0') return '0';
  if (keepsText(parts)) return parts.text;
  const digits = parts.num + parts.denom;
  // The amount is mantissa × 10^exponent, mantissa ≥ 0: never expanded by a decimal exponent,
  // which may be as large as an int32 allows.
  let mantissa: bigint;
  let exponent: number;
  if (parts.format === 'BinarySI') {
    mantissa = BigInt(digits) << BigInt(parts.exponent);
    exponent = -parts.denom.length;
  } else {
    mantissa = BigInt(digits);
    exponent = parts.exponent - parts.denom.length;
  }
  if (mantissa === 0n) return '0';
  if (exponent < NANO) {
    mantissa = divideRoundingUp(mantissa, NANO - exponent);
    exponent = NANO;
  }
  let format = parts.format;
  if (format === 'BinarySI') {
    // Binary amounts have no positive decimal exponent: exponent ≤ 0 here.
    const unit = 10n ** BigInt(-exponent);
    if (mantissa > INT64_MAX * unit) {
      mantissa = INT64_MAX;
      exponent = 0;
    } else if (mantissa < unit) format = 'DecimalSI';
  }
  const sign = parts.negative ? '-' : '';
  if (format === 'BinarySI') {
    const binary = binaryText(mantissa, exponent);
    if (binary !== undefined) return sign + binary;
    format = 'DecimalSI';
  }
  return sign + decimalText(mantissa, exponent, format);
}

/** `ParseQuantity`'s fast path returning the text itself (its "reuse the string" branches). */
function keepsText(p: QuantityParts): boolean {
  if (p.format === 'BinarySI') {
    if (p.denom !== '') return false;
    const precision = 15 - p.num.length - Math.trunc((p.exponent * 3) / 10) - 1;
    // Within that precision value << exponent always fits an int64, and num (at most 14 digits)
    // is exact as a double: `value&0x07 != 0` is its remainder by 8.
    return precision >= 0 && Number(p.num) % 8 !== 0;
  }
  const shifted = p.num + p.denom;
  const scale = p.exponent - p.denom.length;
  return (
    18 - shifted.length >= 0 &&
    scale >= NANO &&
    scale % 3 === 0 &&
    !shifted.endsWith('000') &&
    shifted[0] !== '0'
  );
}

/** ⌈m / 10^places⌉ for m > 0, without building 10^places when m is far below it. */
function divideRoundingUp(m: bigint, places: number): bigint {
  if (places > m.toString().length) return 1n;
  const unit = 10n ** BigInt(places);
  return (m + unit - 1n) / unit;
}

/** BinarySI's text, or undefined when CanonicalizeBytes writes the amount as DecimalSI. */
function binaryText(mantissa: bigint, exponent: number): string | undefined {
  const unit = 10n ** BigInt(-exponent);
  if (mantissa < 1024n * unit || mantissa % unit !== 0n) return undefined;
  let whole = mantissa / unit;
  let times = 0;
  while (whole >= 1024n && whole % 1024n === 0n) {
    whole /= 1024n;
    times++;
  }
  return `${whole}${BINARY_SUFFIX[times]}`;
}

/** DecimalSI's or DecimalExponent's text (amount.go `AsCanonicalBytes`, suffix.go `constructBytes`). */
function decimalText(mantissa: bigint, exponent: number, format: QuantityFormat): string {
  let m = mantissa;
  let e = exponent;
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  while (((e % 3) + 3) % 3 !== 0) {
    m *= 10n;
    e--;
  }
  if (format === 'DecimalExponent') return e === 0 ? `${m}` : `${m}e${e}`;
  return `${m}${DECIMAL_SUFFIX[e] ?? ''}`;
}
