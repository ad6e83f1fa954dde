/**
 * The string formats kube-apiserver checks in custom objects (apiextensions formats.go
 * `supportedVersionedFormats`, checked by kube-openapi strfmt's default registry).
 */
import { describe, expect, it } from 'vitest';
import { formatChecker } from '../../../../src/server/crd/schema/formats.js';
import { compileStructural } from '../../../../src/server/crd/schema/structural.js';

describe('CRD string formats', () => {
  const table: Array<[string, string[], string[]]> = [
    ['bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901', 'zz7f1f77bcf86cd799439011']],
    ['uri', ['https://example.com/a?b=c', '/just/a/path'], ['example.com', 'not a uri']],
    ['email', ['a@example.com', 'Alice <alice@example.com>'], ['a.example.com', 'a@']],
    [
      'hostname',
      ['example.com', 'localhost', 'a-b.example.org'],
      ['-bad.example.com', 'example.123', `${'a'.repeat(64)}.com`],
    ],
    ['ipv4', ['10.0.0.1', '010.0.0.1', '::ffff:10.0.0.1'], ['256.0.0.1', '10.0.0', '::1']],
    ['ipv6', ['::1', '2001:db8::8a2e:370:7334'], ['10.0.0.1', '2001:db8:::1']],
    ['cidr', ['10.0.0.0/8', '2001:db8::/32'], ['10.0.0.0/33', '10.0.0.0', 'x/8']],
    ['mac', ['00:1a:2b:3c:4d:5e', '00-1A-2B-3C-4D-5E', '001a.2b3c.4d5e'], ['00:1a:2b:3c:4d', '001a2b3c4d5e']],
    [
      'uuid',
      ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'],
      ['123e4567-e89b-12d3-a456'],
    ],
    ['uuid4', ['123e4567-e89b-42d3-a456-426614174000'], ['123e4567-e89b-12d3-a456-426614174000']],
    ['isbn10', ['0321751043', '0-321-75104-3'], ['0321751044']],
    ['isbn13', ['978-0321751041'], ['978-0321751042']],
    ['isbn', ['0321751043', '9780321751041'], ['123']],
    ['creditcard', ['4111 1111 1111 1111'], ['4111 1111 1111 1112']],
    ['ssn', ['123-45-6789', '123 45 6789'], ['123456789', '12-345-6789']],
    ['hexcolor', ['#fff', 'A0B1C2'], ['#ffff', 'ggg']],
    ['rgbcolor', ['rgb(255,0, 10)'], ['rgb(256,0,0)', 'rgb(1,2)']],
    ['byte', ['aGVsbG8=', 'YWJj'], ['', 'a', 'aGVsbG8']],
    ['password', ['anything at all', ''], []],
    ['date', ['2024-02-29'], ['2023-02-29', '2024-13-01', '2024-1-01']],
    [
      'date-time',
      ['2024-01-02T03:04:05Z', '2024-01-02t03:04:05.123+02:00'],
      ['2024-01-02T03:04:05', '2024-01-02T24:00:00Z', '2024-01-02'],
    ],
    ['duration', ['1h30m', '250ms', '0', '5 minutes', '3 days'], ['soon', '5', '']],
    ['k8s-short-name', ['my-name'], ['My-Name', 'a.b', `${'a'.repeat(64)}`]],
    ['k8s-long-name', ['my.name-1'], ['My.Name', '-a']],
  ];
  it.each(table)('%s', (format, good, bad) => {
    const check = formatChecker(format)!;
    expect(
      good.filter((v) => !check(v)),
      'refused but valid',
    ).toEqual([]);
    expect(
      bad.filter((v) => check(v)),
      'accepted but invalid',
    ).toEqual([]);
  });

  it('keeps only the formats kube-apiserver checks (StripUnsupportedFormatsPostProcessor)', () => {
    const formatOf = (type: string | undefined, format: string) => compileStructural({ type, format }).format;
    expect(formatOf('string', 'date-time')).toBe('date-time');
    expect(formatOf(undefined, 'uuid')).toBe('uuid');
    expect(formatOf('string', 'int-or-string')).toBeUndefined();
    expect(formatOf('integer', 'int32')).toBe('int32');
    expect(formatOf('integer', 'uint8')).toBeUndefined();
    expect(formatOf('number', 'double')).toBe('double');
    expect(formatOf('number', 'int64')).toBeUndefined();
    expect(formatOf('boolean', 'date')).toBeUndefined();
  });
});
