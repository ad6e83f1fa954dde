/**
 * Whether a resource.Quantity parses, and kube's error when not: `ParseQuantity` in
 * k8s.io/apimachinery/pkg/api/resource/quantity.go, which `Quantity.UnmarshalJSON` calls on the
 * string (quotes removed, spaces trimmed) or on a number's literal text. Its three errors are
 * `ErrFormatWrong` (the scanner `parseQuantityString` found no number and suffix shape),
 * `ErrSuffix` (no such suffix) and `ErrNumeric` (a digitless number on the slow path).
 */

import { canonicalQuantity, type QuantityFormat, type QuantityParts } from '../kinds/quantity-canonical.js';

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
/** `ErrFormatWrong`'s text. */
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${SPLIT_RE}'`;
/** `ErrSuffix`'s text. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";
/** `ErrNumeric`'s text. */
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';

const DECIMAL_SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SUFFIX_LETTERS = 'eEinumkKMGTP';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** The scanner's parts of `str`, or undefined for ErrFormatWrong (quantity.go `parseQuantityString`). */
function scan(str: string): { value: string; num: string; denom: string; suffix: string } | undefined {
  let pos = 0;
  const end = str.length;
  if (str[0] === '-' || str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  const num = str.slice(pos, i) || '0';
  if (i >= end) return { value: str, num, denom: '', suffix: '' };
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_LETTERS.includes(str[pos])) pos++;
  if (pos >= end) return { value, num, denom, suffix: str.slice(suffixStart) };
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  return pos >= end ? { value, num, denom, suffix: str.slice(suffixStart) } : undefined;
}

interface Suffix {
  base: 10 | 2;
  exponent: number;
  format: QuantityFormat;
}

const DECIMAL_EXPONENTS: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** The suffix's base-10 exponent or binary exponent (`suffixHandler.interpret`); undefined: ErrSuffix. */
function interpret(suffix: string): Suffix | undefined {
  if (DECIMAL_SUFFIXES.has(suffix)) {
    return { base: 10, exponent: DECIMAL_EXPONENTS[suffix] ?? 0, format: 'DecimalSI' };
  }
  if (suffix in BINARY_SUFFIXES) return { base: 2, exponent: BINARY_SUFFIXES[suffix], format: 'BinarySI' };
  if (
    suffix.length > 1 &&
    (suffix[0] === 'e' || suffix[0] === 'E') &&
    /^[+-]?[0-9]+$/.test(suffix.slice(1))
  ) {
    const exponent = BigInt(suffix.slice(1));
    // strconv.ParseInt(..., 10, 64): beyond int64 is an error, hence ErrSuffix; v1.33 then keeps
    // the exponent as an int32 (`int32(parsed)`), wrapping what does not fit.
    if (exponent >= INT64_MIN && exponent <= INT64_MAX) {
      return { base: 10, exponent: Number(BigInt.asIntN(32, exponent)), format: 'DecimalExponent' };
    }
  }
  return undefined;
}

const ZERO: QuantityParts = {
  text: '0',
  negative: false,
  num: '0',
  denom: '',
  format: 'DecimalSI',
  exponent: 0,
};

/**
 * A Quantity written as `text` taken apart as `ParseQuantity` does, or kube's error (a string)
 * when it does not parse.
 */
export function parseQuantityText(text: string): QuantityParts | string {
  const str = text.trim();
  if (str.length === 0) return QUANTITY_FORMAT_ERROR;
  if (str === '0') return ZERO;
  const parts = scan(str);
  if (!parts) return QUANTITY_FORMAT_ERROR;
  const suffix = interpret(parts.suffix);
  if (!suffix) return QUANTITY_SUFFIX_ERROR;
  // The int64 fast path takes every number of at most 18 digits at nano scale or coarser; the
  // arbitrary-precision path after it fails only on a number part without a digit.
  const digits = parts.num.length + parts.denom.length;
  const fast =
    suffix.base === 10
      ? 18 - digits >= 0 && suffix.exponent - parts.denom.length >= -9
      : parts.denom.length === 0 && 15 - parts.num.length - Math.trunc((suffix.exponent * 3) / 10) - 1 >= 0;
  if (!fast && !/[0-9]/.test(parts.value)) return QUANTITY_NUMERIC_ERROR;
  return {
    text: str,
    negative: str[0] === '-',
    num: parts.num,
    denom: parts.denom,
    format: suffix.format,
    exponent: suffix.exponent,
  };
}

/** kube's error for a Quantity written as `text`, or undefined when it parses. */
export function quantityError(text: string): string | undefined {
  const parsed = parseQuantityText(text);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** What kube-apiserver writes back for a Quantity written as `text`; undefined when it does not parse. */
export function canonicalQuantityText(text: string): string | undefined {
  const parsed = parseQuantityText(text);
  return typeof parsed === 'string' ? undefined : canonicalQuantity(parsed);
}
