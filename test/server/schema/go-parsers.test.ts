/**
 * The Go parsers the schema engine mirrors, against the texts Go prints: time.Parse with metav1's
 * two layouts, encoding/base64's standard decoding, and resource.ParseQuantity.
 */
import { describe, expect, it } from 'vitest';
import { base64ErrorOffset } from '../../../src/server/schema/go-base64.js';
import { goFloat, goQuote, goValue } from '../../../src/server/schema/go-text.js';
import {
  generalParseError,
  goTimeParseError,
  parsesAsUtcRfc3339,
  RFC3339,
  RFC3339_MICRO,
} from '../../../src/server/schema/go-time.js';
import {
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
  quantityError,
} from '../../../src/server/schema/quantity-syntax.js';

describe('time.Parse(time.RFC3339, s)', () => {
  const cannot = (value: string, elem: string, layoutElem: string) =>
    `parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse "${elem}" as "${layoutElem}"`;

  it.each([
    '2024-01-01T00:00:00Z',
    '2024-01-01T00:00:00.123456789Z',
    '2024-01-01T00:00:00+01:00',
    '2024-02-29T23:59:59-08:00',
    // The general parser takes a one-digit hour.
    '2024-01-01T1:00:00Z',
  ])('parses %s', (value) => {
    expect(goTimeParseError(RFC3339, value)).toBeUndefined();
  });

  it.each([
    ['2024-01-01', cannot('2024-01-01', '', 'T')],
    ['2024-01-01T00:00:00', cannot('2024-01-01T00:00:00', '', 'Z07:00')],
    ['2024-01-01 00:00:00Z', cannot('2024-01-01 00:00:00Z', ' 00:00:00Z', 'T')],
    ['24-01-01T00:00:00Z', cannot('24-01-01T00:00:00Z', '24-01-01T00:00:00Z', '2006')],
    ['2024-1-01T00:00:00Z', cannot('2024-1-01T00:00:00Z', '1-01T00:00:00Z', '01')],
    ['2024-01-01T00:00:00+0100', cannot('2024-01-01T00:00:00+0100', '+0100', 'Z07:00')],
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2024-01-01T24:00:00Z', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    ['2024-01-01T00:60:00Z', 'parsing time "2024-01-01T00:60:00Z": minute out of range'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-01-01T00:00:00Zjunk', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    ['é', cannot('\\xc3\\xa9', '\\xc3\\xa9', '2006')],
  ])('refuses %s', (value, error) => {
    expect(goTimeParseError(RFC3339, value)).toBe(error);
  });

  it('the quick path for UTC times says yes only where the general parser does', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    let quick = 0;
    for (const year of [0, 1900, 2000, 2023, 2024, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          for (const [h, m, sec] of [
            [0, 0, 0],
            [23, 59, 59],
            [24, 0, 0],
            [0, 60, 0],
            [0, 0, 60],
          ]) {
            for (const frac of ['', '.5', '.123456789', '.1234567890']) {
              const v = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(h)}:${two(m)}:${two(sec)}${frac}Z`;
              const fast = parsesAsUtcRfc3339(v);
              if (fast) quick++;
              // The quick path may only say yes; the general parser decides every no.
              if (fast) expect(generalParseError(RFC3339, v), v).toBeUndefined();
              else expect(goTimeParseError(RFC3339, v)).toBe(generalParseError(RFC3339, v));
            }
          }
        }
      }
    }
    expect(quick).toBeGreaterThan(5000);
  });

  it('MicroTime wants exactly six fractional digits', () => {
    expect(goTimeParseError(RFC3339_MICRO, '2024-01-01T00:00:00.123456Z')).toBeUndefined();
    expect(goTimeParseError(RFC3339_MICRO, '2024-01-01T00:00:00.123Z')).toBe(
      'parsing time "2024-01-01T00:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"',
    );
  });
});

describe('base64.StdEncoding.Decode', () => {
  it.each([
    ['', -1],
    ['YWJj', -1],
    ['YQ==', -1],
    ['YWI=', -1],
    ['YW\r\nJj', -1],
    ['a!', 1],
    ['YWJ', 0],
    ['YQ=', 3],
    ['Y===', 1],
    ['YQ==YQ==', 4],
    ['YWJjé', 4],
  ])('%j → %d', (text, offset) => {
    expect(base64ErrorOffset(text)).toBe(offset);
  });
});

describe('resource.ParseQuantity', () => {
  it.each(['0', '1', '100m', '1.5Gi', '-1', '+.5', '1e3', '1E', '128Mi', ' 2 ', '1.'])('parses %j', (q) => {
    expect(quantityError(q)).toBeUndefined();
  });
  it.each([
    ['', QUANTITY_FORMAT_ERROR],
    ['abc', QUANTITY_FORMAT_ERROR],
    ['1 core', QUANTITY_FORMAT_ERROR],
    ['1e', QUANTITY_SUFFIX_ERROR],
    ['1ki', QUANTITY_SUFFIX_ERROR],
    ['true', QUANTITY_FORMAT_ERROR],
  ])('refuses %j', (q, error) => {
    expect(quantityError(q)).toBe(error);
  });
});

describe('Go value printing', () => {
  it('prints %v of decoded JSON as fmt does', () => {
    expect(goValue({ b: [1, 'x'], a: { c: null, d: true } })).toBe('map[a:map[c:<nil> d:true] b:[1 x]]');
    expect(goFloat(1.5)).toBe('1.5');
    expect(goFloat(1234567.5)).toBe('1.2345675e+06');
    expect(goFloat(0.00001)).toBe('1e-05');
  });
  it('quotes as strconv.Quote', () => {
    expect(goQuote('a"b\\c\n\u0001é')).toBe('"a\\"b\\\\c\\n\\x01é"');
  });
});
