/**
 * Go's `time.Parse` for the two layouts metav1's times decode with, reduced to what the schema
 * engine needs: whether a string parses, and when not, Go's `*time.ParseError` text, which
 * kube-apiserver answers with as is (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot
 * parse "x" as "2006"`).
 *
 * metav1.Time.UnmarshalJSON parses with `time.Parse(time.RFC3339, s)` and metav1.MicroTime's with
 * `time.Parse("2006-01-02T15:04:05.000000Z07:00", s)` (k8s.io/apimachinery/pkg/apis/meta/v1
 * time.go, micro_time.go). Go's Parse tries a fast RFC 3339 path and, when that fails, runs the
 * general layout parser (time/format.go `parse`), whose rules and messages are followed here one
 * layout element at a time: each element is skipped as a literal prefix or read as a number, a
 * value out of range reports `<element> out of range`, and the day is checked against the month
 * only at the end.
 */

/** Go's `time.RFC3339`. */
export const RFC3339 = '2006-01-02T15:04:05Z07:00';
/** metav1's `RFC3339Micro`. */
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

type Element = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'fraction6' | 'zone';

/** A layout as Go's `nextStdChunk` splits it: the literal before each element, and the element. */
interface Chunk {
  prefix: string;
  element: Element;
  text: string;
}

const DATE_TIME: readonly Chunk[] = [
  { prefix: '', element: 'year', text: '2006' },
  { prefix: '-', element: 'month', text: '01' },
  { prefix: '-', element: 'day', text: '02' },
  { prefix: 'T', element: 'hour', text: '15' },
  { prefix: ':', element: 'minute', text: '04' },
  { prefix: ':', element: 'second', text: '05' },
];
const LAYOUTS: Readonly<Record<string, readonly Chunk[]>> = {
  [RFC3339]: [...DATE_TIME, { prefix: '', element: 'zone', text: 'Z07:00' }],
  [RFC3339_MICRO]: [
    ...DATE_TIME,
    { prefix: '', element: 'fraction6', text: '.000000' },
    { prefix: '', element: 'zone', text: 'Z07:00' },
  ],
};

const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's `getnum`: one or two digits (exactly two when `fixed`). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 48, s.slice(1)];
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

/** Go's `atoi` as the parser uses it: an optional sign, then only digits. */
function atoi(s: string): number | undefined {
  return /^[+-]?[0-9]+$/.test(s) ? Number.parseInt(s, 10) : undefined;
}

/** Go's `quote` in time/format.go: `"` and `\` escaped, bytes outside printable ASCII as `\xNN`. */
export function timeQuote(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, 'utf8')) {
    if (byte >= 0x80 || byte < 0x20) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else {
      const c = String.fromCharCode(byte);
      out += c === '"' || c === '\\' ? `\\${c}` : c;
    }
  }
  return `${out}"`;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
}

/** The form every server writes (`2026-12-03T02:18:23Z`, fractions allowed as Go allows them). */
const UTC_RFC3339 = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d{1,9})?Z$/;

/**
 * A quick yes for the common case, checked with the same ranges as the general parser below
 * (month, day of that month, hour, minute, second); anything else goes the long way, which
 * alone words the errors.
 */
export function parsesAsUtcRfc3339(value: string): boolean {
  const m = UTC_RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(month, year) &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}

/**
 * Why `value` does not parse in `layout` ({@link RFC3339} or {@link RFC3339_MICRO}), as Go's
 * `ParseError.Error()` says it; undefined when it parses.
 */
export function goTimeParseError(layout: string, value: string): string | undefined {
  if (layout === RFC3339 && parsesAsUtcRfc3339(value)) return undefined;
  return generalParseError(layout, value);
}

/** {@link goTimeParseError} without the quick path: Go's general layout parser. Exported for tests. */
export function generalParseError(layout: string, value: string): string | undefined {
  const chunks = LAYOUTS[layout];
  if (!chunks) throw new Error(`goTimeParseError: unsupported layout ${layout}`);
  const head = `parsing time ${timeQuote(value)}`;
  const cannot = (valueElem: string, layoutElem: string) =>
    `${head} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`;
  const outOfRange = (what: string) => `${head}: ${what} out of range`;
  let rest = value;
  let year = 0;
  let month = -1;
  let day = -1;
  for (let c = 0; c < chunks.length; c++) {
    const { prefix, element, text } = chunks[c];
    if (!rest.startsWith(prefix)) {
      // skip() stops at the first byte that differs; Go reports what is left of the value from
      // there, against the whole literal.
      let i = 0;
      while (i < prefix.length && rest[i] === prefix[i]) i++;
      return cannot(rest.slice(i), prefix);
    }
    rest = rest.slice(prefix.length);
    const hold = rest;
    let bad = false;
    let range = '';
    switch (element) {
      case 'year': {
        const y = rest.length >= 4 && isDigit(rest, 0) ? atoi(rest.slice(0, 4)) : undefined;
        if (y === undefined) bad = true;
        else [year, rest] = [y, rest.slice(4)];
        break;
      }
      case 'month':
      case 'day':
      case 'minute':
      case 'second':
      case 'hour': {
        const n = getnum(rest, element !== 'hour');
        if (!n) {
          bad = true;
          break;
        }
        rest = n[1];
        if (element === 'month') {
          month = n[0];
          if (month <= 0 || month > 12) range = 'month';
        } else if (element === 'day') day = n[0];
        else if (element === 'hour' && n[0] >= 24) range = 'hour';
        else if (element === 'minute' && n[0] >= 60) range = 'minute';
        else if (element === 'second') {
          if (n[0] >= 60) range = 'second';
          else if (chunks[c + 1]?.element !== 'fraction6' && rest.length >= 2 && /^[.,][0-9]/.test(rest)) {
            // A fraction the layout does not name is accepted after the seconds.
            let end = 2;
            while (isDigit(rest, end)) end++;
            rest = rest.slice(end);
          }
        }
        break;
      }
      case 'fraction6': {
        // stdFracSecond0 wants exactly the layout's digits after a '.' or ','.
        const digits = rest.slice(1, 7);
        const ns = rest.length >= 7 && /^[.,]/.test(rest) ? atoi(digits) : undefined;
        if (ns === undefined) bad = true;
        else if (ns < 0) range = 'fractional second';
        else rest = rest.slice(7);
        break;
      }
      case 'zone': {
        if (rest.startsWith('Z')) {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':') {
          bad = true;
          break;
        }
        const [sign, hh, mm] = [rest[0], rest.slice(1, 3), rest.slice(4, 6)];
        rest = rest.slice(6);
        const hr = getnum(hh, true);
        const mn = hr ? getnum(mm, true) : undefined;
        if (!hr || !mn) bad = true;
        if (hr && hr[0] > 24) range = 'time zone offset hour';
        if (mn && mn[0] > 60) range = 'time zone offset minute';
        if (sign !== '+' && sign !== '-') bad = true;
        break;
      }
    }
    if (range) return outOfRange(range);
    if (bad) return cannot(hold, text);
  }
  if (rest.length > 0) return `${head}: extra text: ${timeQuote(rest)}`;
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  return undefined;
}

/** Date, clock, fraction and zone of a text that parsed as RFC 3339 (Go accepts `t` and `z` too). */
const RFC3339_PARTS = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?(?:[Zz]|([+-])(\d\d):(\d\d))$/;
const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const CANONICAL_MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/**
 * What kube-apiserver writes back for a time it parsed: metav1.Time's `MarshalJSON` is
 * `t.UTC().Format(time.RFC3339)` (whole seconds, in UTC), MicroTime's the same with six
 * fractional digits (apimachinery/pkg/apis/meta/v1/time.go, micro_time.go), and the zero time
 * (`0001-01-01T00:00:00Z`) is `null`. `value` must already parse ({@link goTimeParseError}).
 */
export function canonicalTimeText(value: string, micro: boolean): string | null {
  if ((micro ? CANONICAL_MICRO_TIME : CANONICAL_TIME).test(value)) {
    return value.startsWith('0001-01-01T00:00:00') ? null : value;
  }
  const m = RFC3339_PARTS.exec(value);
  if (!m) return value;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const offsetMinutes = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const fraction = (m[7] ?? '').slice(1);
  const nanos = Number((fraction + '000000000').slice(0, 9));
  const seconds = date.toISOString().slice(0, 19);
  if (isZeroTime(date, nanos)) return null;
  if (!micro) return `${seconds}Z`;
  // MicroTime keeps microseconds (Go truncates the nanoseconds when formatting .000000).
  return `${seconds}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

/** Go's zero time, 0001-01-01 00:00:00 UTC: what `IsZero` tests. */
function isZeroTime(date: Date, nanos: number): boolean {
  return nanos === 0 && date.toISOString() === '0001-01-01T00:00:00.000Z';
}
