/**
 * A built-in object's resource.Quantity is stored and answered in the text kube-apiserver's Go
 * types write back (k8s.io/apimachinery/pkg/api/resource/quantity.go `ParseQuantity`, then
 * `MarshalJSON`/`String`): `cpu: "0.5"` reads back `"500m"`. The unit tables are upstream's
 * (quantity_test.go, v1.33), ported as data; the HTTP tests run every write path, protobuf and
 * kubectl; a custom resource keeps what it was sent (it is unstructured JSON).
 */
import { describe, expect, it } from 'vitest';
import { canonicalQuantityText } from '../../../src/server/schema/quantity-syntax.js';

/**
 * quantity_test.go `TestQuantityString`: each canonical text parses to itself (the string kept
 * on parse), each alternate parses and prints as the canonical one. The rows whose Quantity is
 * built in Go beyond what a parse reaches (2^70 BinarySI) keep only their round trip.
 */
const STRING_TABLE: ReadonlyArray<[expect: string, alternate: string]> = [
  ['1Gi', '1024Mi'],
  ['300Mi', '307200Ki'],
  ['6Ki', ''],
  ['1001Gi', '1025024Mi'],
  ['1Ti', '1024Gi'],
  ['5', '5000m'],
  ['500m', '0.5'],
  ['1G', '1000M'],
  ['1G', '0.001T'],
  ['1m', '1000u'],
  ['80m', ''],
  ['1080m', '1.08'],
  ['1080m', '1080000000n'],
  ['300M', ''],
  ['1T', ''],
  ['1E', ''],
  ['1e21', ''],
  ['5e21', ''],
  ['1e24', ''],
  ['10e69', ''],
  ['20e69', ''],
  ['1e72', ''],
  ['1234567M', ''],
  ['1234567m', ''],
  ['3k', ''],
  ['1025', ''],
  ['0', ''],
  ['1e9', '.001e12'],
  ['1e-3', '0.001e0'],
  ['1e-9', '1000e-12'],
  ['80e-3', ''],
  ['300e6', ''],
  ['1e12', ''],
  ['1e3', ''],
  ['3e3', ''],
  ['0', '00'],
  ['1n', ''],
  ['80n', ''],
  ['1080n', ''],
  ['1u', ''],
  ['80u', ''],
  ['1080u', ''],
];

/** quantity_test.go `TestQuantityParseEmit` (and its negative run). */
const PARSE_EMIT: ReadonlyArray<[string, string]> = [
  ['1Ki', '1Ki'],
  ['1Mi', '1Mi'],
  ['1Gi', '1Gi'],
  ['1024Mi', '1Gi'],
  ['1000M', '1G'],
  ['.001Ki', '1024m'],
  ['.000001Ki', '1024u'],
  ['.000000001Ki', '1024n'],
  ['.000000000001Ki', '2n'],
];

/**
 * quantity_test.go `TestQuantityParse`: its inputs, with the amount and format it expects written
 * out as `CanonicalizeBytes` prints them (or the input itself where the fast path keeps it).
 */
const PARSE_TABLE: ReadonlyArray<[string, string]> = [
  ['0n', '0'],
  ['0Ki', '0'],
  ['0Mi', '0'],
  ['0T', '0'],
  ['1', '1'],
  ['8Ki', '8Ki'],
  ['7Mi', '7Mi'],
  ['3Ei', '3Ei'],
  ['100Ti', '100Ti'],
  ['5n', '5n'],
  ['50k', '50k'],
  ['300T', '300T'],
  ['1E', '1E'],
  ['1E-3', '1E-3'],
  ['1e14', '100e12'],
  ['1e13', '10e12'],
  ['100.035k', '100.035k'],
  ['0.001', '1m'],
  ['0.0005k', '500m'],
  ['0.00050k', '500m'],
  ['0.05000', '50m'],
  ['0.5e0', '500e-3'],
  ['0.5e-2', '5e-3'],
  ['1.2e3', '1200'],
  ['1.3E+6', '1300e3'],
  ['1.7E18', '1700e15'],
  ['9.01', '9010m'],
  ['8.1k', '8100'],
  ['40.1T', '40100G'],
  ['2.5P', '2500T'],
  ['1.01E', '1010P'],
  ['3.001n', '4n'],
  ['1.1E-9', '2e-9'],
  ['0.0000000001', '1n'],
  ['0.5e-9', '1e-9'],
  ['0.9n', '1n'],
  ['0.00000012345', '124n'],
  ['9Ei', '9223372036854775807'],
  ['9223372036854775807Ki', '9223372036854775807'],
  ['12E', '12E'],
  ['100.035Ki', '102435840m'],
  ['0.5Mi', '512Ki'],
  ['0.05Gi', '53687091200m'],
  ['0.025Ti', '27487790694400m'],
  ['0.000000000001Ki', '2n'],
  ['.001', '1m'],
  ['.0001k', '100m'],
  ['1.', '1.'],
  ['1.G', '1.G'],
];

describe('canonicalQuantityText (ParseQuantity, then String)', () => {
  it.each(STRING_TABLE)('TestQuantityString: %s (alternate %j)', (expected, alternate) => {
    expect(canonicalQuantityText(expected)).toBe(expected);
    if (alternate !== '') expect(canonicalQuantityText(alternate)).toBe(expected);
    if (expected !== '0' && alternate !== '')
      expect(canonicalQuantityText(`-${alternate}`)).toBe(`-${expected}`);
  });

  it.each(PARSE_EMIT)('TestQuantityParseEmit: %s → %s, and negated', (input, expected) => {
    expect(canonicalQuantityText(input)).toBe(expected);
    expect(canonicalQuantityText(`-${input}`)).toBe(`-${expected}`);
  });

  it.each(PARSE_TABLE)('TestQuantityParse: %s → %s', (input, expected) => {
    expect(canonicalQuantityText(input)).toBe(expected);
  });

  it('TestJSONWhitespace and TestQuantityParseZero: spaces trimmed, zero is "0"', () => {
    expect(canonicalQuantityText(' 1')).toBe('1');
    expect(canonicalQuantityText('1 ')).toBe('1');
    expect(canonicalQuantityText('10')).toBe('10');
    expect(canonicalQuantityText(' -1')).toBe('-1');
    expect(canonicalQuantityText('0')).toBe('0');
    expect(canonicalQuantityText('-0.0Gi')).toBe('0');
  });

  it('TestNegativeValueRoundsAwayFromZero: a tiny amount rounds up to one nano, either sign', () => {
    expect(canonicalQuantityText('.484785E-7466')).toBe('1e-9');
    expect(canonicalQuantityText('-.484785E-7466')).toBe('-1e-9');
    expect(canonicalQuantityText('-0.0005')).toBe('-500u');
  });

  it('the fast path keeps the text it took as canonical, sign and all', () => {
    // quantity.go `ParseQuantity` returns `s: str` for these: a kept `+` or leading zero is
    // what kube-apiserver answers too.
    expect(canonicalQuantityText('+1')).toBe('+1');
    expect(canonicalQuantityText('0100m')).toBe('0100m');
    expect(canonicalQuantityText('1025Mi')).toBe('1025Mi');
    expect(canonicalQuantityText('1000m')).toBe('1');
    expect(canonicalQuantityText('1000')).toBe('1k');
  });

  it('v1.33 has no DecimalSI suffix past E and writes the digits alone (later releases: 1e21)', () => {
    // suffix.go `constructBytes` misses for 10^21 and CanonicalizeBytes ignores its ok.
    expect(canonicalQuantityText('1000E')).toBe('1');
    expect(canonicalQuantityText('5000E')).toBe('5');
  });

  it('refuses what ParseQuantity refuses', () => {
    for (const bad of ['', '1.1.M', '1+1.0M', '0.1mi', 'aoeu', '.5i', '1i', '-3.01e-']) {
      expect(canonicalQuantityText(bad), bad).toBeUndefined();
    }
  });

  it('a huge decimal exponent is not expanded', () => {
    expect(canonicalQuantityText('1e2147483646')).toBe('1e2147483646');
    expect(canonicalQuantityText('1e-2147483647')).toBe('1e-9');
  });
});
