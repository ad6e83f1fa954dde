import { describe, expect, it } from 'vitest';
import { formatLabelSelector, parseLabelSelector, SelectorError } from '../../src/protocol/labels.js';
import { tryParse } from './labels-fixture.js';

describe('parseLabelSelector: valid input', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['   \t\r\n ', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a==b'],
    ['a!=b', 'a!=b'],
    ['a', 'a'],
    ['!a', '!a'],
    ['! a', '!a'],
    ['a=', 'a='],
    ['a==', 'a=='],
    ['a!=', 'a!='],
    ['a=,b', 'a=,b'],
    ['x in (a,b)', 'x in (a,b)'],
    ['x in (b,a,b)', 'x in (a,b)'],
    ['x notin (a)', 'x notin (a)'],
    ['x in(a)', 'x in (a)'],
    ['x  in  ( a , b )', 'x in (a,b)'],
    ['x in (a,)', 'x in (,a)'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['x in (,)', 'x in (,)'],
    // apimachinery reads `()` as `("")` (selector.go `parseValues`), as kube-apiserver 1.37 does.
    ['a in ()', 'a in (,)'],
    ['a notin ( )', 'a notin (,)'],
    ['x notin (,)', 'x notin (,)'],
    ['b=1,a=2', 'a=2,b=1'],
    [' a = b , c != d ', 'a=b,c!=d'],
    ['z,!y,x=1', 'x=1,!y,z'],
    ['in', 'in'],
    ['notin', 'notin'],
    ['in in (in,notin)', 'in in (in,notin)'],
    ['a=in', 'a=in'],
    ['a>5', 'a>5'],
    ['a<10', 'a<10'],
    ['a > 5', 'a>5'],
    ['a>9223372036854775807', 'a>9223372036854775807'],
    ['example.com/app=web', 'example.com/app=web'],
    ['app.kubernetes.io/name in (web,db)', 'app.kubernetes.io/name in (db,web)'],
    ['a-b_c.d=E-f_G.h', 'a-b_c.d=E-f_G.h'],
    [`${'k'.repeat(63)}=${'v'.repeat(63)}`, `${'k'.repeat(63)}=${'v'.repeat(63)}`],
    [`${'a'.repeat(253)}/k`, `${'a'.repeat(253)}/k`],
    ['a=b,a=c', 'a=b,a=c'],
    ['app=web,tier in (a,b)', 'app=web,tier in (a,b)'],
    ['1=2', '1=2'],
  ];
  it.each(cases)('%j formats as %j', (text, canonical) => {
    const sel = parseLabelSelector(text);
    expect(formatLabelSelector(sel)).toBe(canonical);
    expect(parseLabelSelector(canonical)).toEqual(sel);
  });

  it('keeps the operator and sorted, de-duplicated values', () => {
    expect(parseLabelSelector('t notin (c,a,c), k==v').requirements).toEqual([
      { key: 'k', operator: '==', values: ['v'] },
      { key: 't', operator: 'notin', values: ['a', 'c'] },
    ]);
    expect(parseLabelSelector('!a,b').requirements).toEqual([
      { key: 'a', operator: '!', values: [] },
      { key: 'b', operator: 'exists', values: [] },
    ]);
  });

  it('sorts by key stably, keeping written order for equal keys', () => {
    expect(formatLabelSelector(parseLabelSelector('b=2,a=z,a=y'))).toBe('a=z,a=y,b=2');
  });
});

describe('parseLabelSelector: invalid input', () => {
  const cases: [string, string][] = [
    ['a,', "expected: identifier after ','"],
    // kube-apiserver 1.37's own words (k8s.io/apimachinery/pkg/labels/selector.go).
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['!a in (b)', "found 'in', expected: ',' or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!a', "found '!', expected: identifier"],
    ['a in', "unable to parse requirement: found '' expected: '('"],
    ['a in b', "found 'b' expected: '('"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (b c)', "found 'c', expected: ',' or ')'"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a in ((b))', "found '(', expected: ',', ')' or identifier"],
    ['a=(b)', "found '(', expected: identifier"],
    ['a==!', "found '!', expected: identifier"],
    ['a ! = b', "found '!', expected: in, notin"],
    ['a===b', "found '=', expected: identifier"],
    [')', "found ')', expected: !, identifier, or 'end of string'"],
    ['a/b/c', "at most one '/'"],
    ['/a', 'prefix part must be non-empty'],
    ['a/', 'name part must be non-empty'],
    ['Example.com/a', 'prefix part must be a lowercase RFC 1123 subdomain'],
    ['ex..com/a', 'prefix part must be a lowercase RFC 1123 subdomain'],
    [`${'a'.repeat(254)}/k`, 'prefix part'],
    ['k'.repeat(64), 'name part must be no more than 63 characters'],
    ['-a', 'name part must consist of alphanumeric'],
    ['a-', 'name part must consist of alphanumeric'],
    ['a$b', 'invalid label key "a$b"'],
    ['caf\u00e9=x', 'invalid label key'],
    ['a=-b', 'invalid label value "-b" for key "a"'],
    ['a=b.', 'invalid label value'],
    [`a=${'v'.repeat(64)}`, 'must be no more than 63 characters'],
    ['a in (ok,b$)', 'invalid label value "b$"'],
    ['a>x', "for 'gt', 'lt' operators, the value must be a single integer"],
    ['a>', "for 'gt', 'lt' operators"],
    ['a<9223372036854775808', "for 'gt', 'lt' operators"],
    ['a\u00a0=b', 'invalid label key'],
  ];
  it.each(cases)('%j is rejected with %j', (text, message) => {
    const err = tryParse(text);
    expect(err).toBeInstanceOf(SelectorError);
    expect((err as SelectorError).message).toContain(message);
    expect((err as SelectorError).selector).toBe(text);
  });

  it('prefixes errors inside a requirement as apimachinery does', () => {
    expect(() => parseLabelSelector('a in (b')).toThrow(/^unable to parse requirement: /);
    expect(() => parseLabelSelector('a,')).not.toThrow(/unable to parse requirement/);
  });

  it('quotes huge offending parts only in part', () => {
    const err = tryParse(`${'x'.repeat(100_000)}$`) as SelectorError;
    expect(err).toBeInstanceOf(SelectorError);
    expect(err.message.length).toBeLessThan(400);
  });

  it('rejects a non-string with a SelectorError', () => {
    expect(() => parseLabelSelector(42 as unknown as string)).toThrow(SelectorError);
  });
});
