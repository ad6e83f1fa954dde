import { describe, expect, it } from 'vitest';
import { re2SyntaxError } from '../../../../src/server/crd/definition/schema-structural.js';
import { REAL_CRDS } from '../../../../support/fixtures/crds/index.js';
import { crdOf } from './real-crds-fixture.js';

/**
 * re2SyntaxError against Go's regexp/syntax parse.go (`parse`, `parsePerlFlags`, `parseEscape`,
 * `parseClass`, `parseNamedClass`, `repeat`): the error code's text and the expression it quotes.
 */
describe('re2SyntaxError: what Go refuses that JavaScript compiles', () => {
  it.each([
    ['^(?=a)b$', 'invalid or unsupported Perl syntax', '(?='],
    ['(?!x)', 'invalid or unsupported Perl syntax', '(?!'],
    ['(?P=name)', 'invalid or unsupported Perl syntax', '(?P'],
    ['(?i-)', 'invalid or unsupported Perl syntax', '(?i-)'],
    // A lookbehind reads as a named group whose name is not [A-Za-z0-9_]+; without `>` the rest is quoted.
    ['(?<=a)b', 'invalid named capture', '(?<=a)b'],
    ['(?<=a)b>', 'invalid named capture', '(?<=a)b>'],
    ['(a)\\1', 'invalid escape sequence', '\\1'],
    ['\\k<n>', 'invalid escape sequence', '\\k'],
    ['\\u0041', 'invalid escape sequence', '\\u'],
    ['\\C', 'invalid escape sequence', '\\C'],
    ['[\\b]', 'invalid escape sequence', '\\b'],
    ['\\x4', 'invalid escape sequence', '\\x4'],
    ['\\x{}', 'invalid escape sequence', '\\x{}'],
    ['a\\', 'trailing backslash at end of expression', ''],
    ['[^]', 'missing closing ]', '[^]'],
    ['[]', 'missing closing ]', '[]'],
    ['[[:foo:]]', 'invalid character class range', '[:foo:]'],
    ['[z-a]', 'invalid character class range', 'z-a'],
    ['\\p{L', 'invalid character class range', '\\p{L'],
    ['a{1001}', 'invalid repeat count', '{1001}'],
    ['a{2,1}', 'invalid repeat count', '{2,1}'],
    ['a*??', 'invalid nested repetition operator', '*??'],
    ['a{2}{3}', 'invalid nested repetition operator', '{2}{3}'],
    ['(*)', 'missing argument to repetition operator', '*'],
    ['(a', 'missing closing )', '(a'],
    ['a)', 'unexpected )', 'a)'],
  ])('%s', (pattern, code, expr) => {
    expect(re2SyntaxError(pattern)).toEqual({ error: `error parsing regexp: ${code}: \`${expr}\`` });
  });

  it('takes what RE2 takes: inline flags, named groups, octal and hex escapes, POSIX and Perl classes, literal braces', () => {
    const fine = [
      '^(?i)(abort|warn)?$',
      '(?i-s:a)(?U)b+',
      '(?P<name>a)(?<other>b)',
      '\\0\\12\\x41\\x{1F600}',
      '[]a][[:^alpha:]x][\\d-z][a-z-]',
      '\\pL\\p{Greek}\\Qa.b\\E+',
      'x{,3}x{3a{1000}^*\\_\\/',
    ];
    expect(fine.map((p) => [p, re2SyntaxError(p)])).toEqual(fine.map((p) => [p, {}]));
  });

  it('takes every pattern of the real CRDs', () => {
    const patterns = new Set<string>();
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (typeof x === 'object' && x !== null)
        for (const [k, v] of Object.entries(x)) {
          if (k === 'pattern' && typeof v === 'string') patterns.add(v);
          else walk(v);
        }
    };
    for (const entry of REAL_CRDS) walk(crdOf(entry.file));
    expect(patterns.size).toBeGreaterThan(15);
    expect([...patterns].filter((p) => re2SyntaxError(p).error !== undefined)).toEqual([]);
  });
});
