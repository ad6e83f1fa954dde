/**
 * Custom-object validation: each keyword with kube-apiserver's field path and message
 * (kube-openapi pkg/validation/errors/schema.go wording, converted by apiextensions-apiserver
 * validation.go `kubeOpenAPIResultToFieldErrors`, printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { errorsOf } from './validate-fixture.js';

describe('CRD schema patterns: RE2 syntax read as Go reads it', () => {
  const matches = (pattern: string, value: string) =>
    errorsOf({ type: 'string', pattern }, value).length === 0;
  const table: Array<[string, string, boolean]> = [
    ['^(?i)(abort|warn)?$', 'ABORT', true],
    ['(?i)^[a-z]+$', 'MiXeD', true],
    ['\\Afoo\\z', 'foo', true],
    ['\\Afoo\\z', 'foo\n', false],
    ['^(?P<major>\\d+)\\.(?P<minor>\\d+)$', '1.22', true],
    ['^[[:alpha:]][[:alnum:]_-]*$', 'a_b-1', true],
    ['^[[:alpha:]][[:alnum:]_-]*$', '1ab', false],
    ['^[[:xdigit:]]{4}$', 'beEF', true],
    ['^\\p{L}+$', 'héllo', true],
  ];
  it.each(table)('%s against %j: %s', (pattern, value, ok) => {
    expect(matches(pattern, value)).toBe(ok);
  });

  it('fails every value of a pattern that does not compile, saying why', () => {
    const [text] = errorsOf({ type: 'string', pattern: '([a-z' }, 'abc');
    expect(text).toMatch(
      /^spec\.f: Invalid value: "abc": spec\.f in body should match '\(\[a-z, but pattern is invalid: .+'$/,
    );
  });
});
