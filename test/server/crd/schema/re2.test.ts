/**
 * CRD `pattern`s and CEL's `matches` read as Go's regexp reads them (regexp/syntax, the Perl
 * flags `regexp.Compile` uses: ClassNL, OneLine, PerlX, UnicodeGroups). Go's answers follow the
 * regexp/syntax documentation: `.` is any rune but `\n` (any with `s`); `\d` `\s` `\w` `\b` and
 * POSIX classes are ASCII (`\s` is `[\t\n\f\r ]`); `^`/`$` are the text's ends unless `m`, then
 * also at `\n`; `i` folds case by Unicode simple folding, also inside classes and before a class
 * is negated; `U` swaps `x*` and `x*?`; `\pN`, `\p{Greek}`, `\p{^Greek}`, `\PN` are Unicode
 * categories and scripts; `\Q...\E` is literal text; `{` that starts no count is a literal.
 */
import { describe, expect, it } from 'vitest';
import { re2 } from '../../../../src/server/crd/cel/regex.js';
import { validateCustomResourceDefinition } from '../../../../src/server/crd/definition/validation.js';
import { compileCrdSchema } from '../../../../src/server/crd/schema/engine.js';
import {
  compileRe2,
  LINEAR_REGEXP_ENGINE,
  linearVariant,
  re2ToJs,
} from '../../../../src/server/crd/schema/re2.js';
import { minimalWidgetCrd } from '../../../helpers/widget.js';

/** Whether kube-apiserver accepts `{f: value}` under `{f: {type: string, pattern}}`. */
function accepts(pattern: string, value: string): boolean {
  const schema = compileCrdSchema({ type: 'object', properties: { f: { type: 'string', pattern } } });
  return schema.validate({ f: value }).length === 0;
}

/** The errors of writing a CRD whose one field has `pattern`. */
function definitionErrors(pattern: string): string[] {
  const schema = { type: 'object', properties: { f: { type: 'string', pattern } } };
  return validateCustomResourceDefinition(minimalWidgetCrd(schema)).map((e) => `${e.field}: ${e.message}`);
}

const matches = (pattern: string, value: string): boolean => {
  const c = compileRe2(pattern);
  if ('error' in c) throw new Error(c.error);
  return c.regexp.test(value);
};

describe('patterns JavaScript could not compile, which Go takes', () => {
  it.each([
    ['^[a-z]+(?i:abc)$', 'xyzABC', true],
    ['^[a-z]+(?i:abc)$', 'XYZabc', false],
    ['(?U)a+', 'aaa', true],
    ['^a.(?s:.)$', 'ab\n', true],
    ['^a.(?s:.)$', 'a\nb', false],
  ])('%s against %j: %s', (pattern, value, ok) => {
    expect(definitionErrors(pattern)).toEqual([]);
    expect(accepts(pattern, value)).toBe(ok);
  });

  it('leaves Unicode classes, astral runes and multi-line anchors to the backtracking engine', () => {
    for (const pattern of ['^\\pL+$', '^\\x{1F600}$', '(?m)^a$']) {
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(js.error);
      expect([pattern, linearVariant(js.body, js.flags)]).toEqual([pattern, undefined]);
    }
  });
});

describe("patterns JavaScript's looser mode read otherwise", () => {
  it.each([
    ['^\\pL+$', 'abc'],
    ['^\\x{41}$', 'A'],
    ['^\\Q.\\E$', '.'],
    ['^[]a]+$', 'a]'],
    ['^\\p{Greek}$', 'α'],
  ])('%s accepts %j', (pattern, value) => {
    expect(accepts(pattern, value)).toBe(true);
  });

  it('leaves Unicode classes, astral runes and multi-line anchors to the backtracking engine', () => {
    for (const pattern of ['^\\pL+$', '^\\x{1F600}$', '(?m)^a$']) {
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(js.error);
      expect([pattern, linearVariant(js.body, js.flags)]).toEqual([pattern, undefined]);
    }
  });
});

describe("Go's classes, not JavaScript's", () => {
  it.each([
    ['^.$', '\r', true],
    ['^\\s$', '\v', false],
    ['^\\s$', '\u00a0', false],
  ])('%s against %j: %s', (pattern, value, ok) => {
    expect(accepts(pattern, value)).toBe(ok);
  });

  it('leaves Unicode classes, astral runes and multi-line anchors to the backtracking engine', () => {
    for (const pattern of ['^\\pL+$', '^\\x{1F600}$', '(?m)^a$']) {
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(js.error);
      expect([pattern, linearVariant(js.body, js.flags)]).toEqual([pattern, undefined]);
    }
  });
});

/** (pattern, value, whether Go's `MatchString` finds a match). */
const GO: Array<[string, string, boolean]> = [
  // `.`: any rune but `\n`; one rune, even outside the BMP.
  ['^.$', '\n', false],
  ['^.$', '😀', true],
  ['^..$', '😀', false],
  ['(?s)^a.b$', 'a\nb', true],
  ['^a.b$', 'a\nb', false],
  // Perl classes are ASCII.
  ['^\\s$', '\t', true],
  ['^\\s$', '\f', true],
  ['^\\s$', ' ', true],
  ['^\\S$', '\v', true],
  ['^\\d$', '3', true],
  ['^\\d$', '\u0663', false],
  ['^\\w+$', 'a_1', true],
  ['^\\w$', 'é', false],
  ['^\\D$', '\n', true],
  ['^[^\\d]$', '\n', true],
  ['^[\\d\\s]+$', '1 2', true],
  ['^[\\d-z]$', '-', true],
  ['a\\b', 'aé', true],
  ['\\bfoo\\b', 'é foo', true],
  ['a\\B', 'ab', true],
  // POSIX classes are ASCII; `space` has `\v`.
  ['^[[:alpha:]]+$', 'abc', true],
  ['^[[:alpha:]]$', 'é', false],
  ['^[[:^alpha:]]$', '1', true],
  ['^[[:^alpha:]]$', 'a', false],
  ['^[[:space:]]$', '\v', true],
  ['^[[:punct:]]$', '`', true],
  ['^[[:word:]]+$', 'a_1', true],
  // Unicode classes: categories, scripts, negations.
  ['^\\pL+$', 'héllo', true],
  ['^\\pL+$', 'a1', false],
  ['^\\PL$', '1', true],
  ['^\\PL$', 'a', false],
  ['^\\pN$', '\u0663', true],
  ['^\\p{Lu}$', 'A', true],
  ['^\\p{Lu}$', 'a', false],
  ['^\\p{Greek}$', 'a', false],
  ['^\\p{^Greek}$', 'a', true],
  ['^\\P{^Greek}$', 'α', true],
  ['^\\p{Any}$', '\n', true],
  ['^[\\p{Greek}\\d]+$', 'α1', true],
  ['^\\p{So}$', '😀', true],
  ['^\\PC$', '\u0378', true],
  ['^[\\PC]$', '\u0378', true],
  ['^[\\PC]$', '\u0000', false],
  ['^[\\PL\\d]$', '1', true],
  ['^[\\PL\\d]$', 'a', false],
  ['^[\\P{Any}a]$', 'b', false],
  // Escapes and literal text.
  ['^\\x41$', 'A', true],
  ['^\\101$', 'A', true],
  ['^\\0$', '\0', true],
  ['^\\x{1F600}$', '😀', true],
  ['^[😀-😂]$', '😁', true],
  ['^\\Q.\\E$', 'a', false],
  ['^\\Qa.b', 'a.b', true],
  ['^\\Qa+\\E+$', 'a+++', true],
  ['^[^]a]$', 'b', true],
  ['^[^]a]$', ']', false],
  ['^[a-]$', '-', true],
  ['^a{,2}$', 'a{,2}', true],
  ['^a{2}$', 'aa', true],
  ['^a{01}$', 'a{01}', true],
  ['^*a', 'a', true],
  // Groups: named (Go allows names JavaScript does not), non-capturing.
  ['^(?P<x>a)(?<y>b)$', 'ab', true],
  ['^(?P<1a>a)$', 'a', true],
  ['^(?:ab)+$', 'abab', true],
  // Case folding: Unicode simple folding, scoped flags, classes folded before negation.
  ['(?i)k', '\u212a', true],
  ['(?i)^[\\x{212A}]$', 'k', true],
  ['(?i)^\\x{17F}$', 'S', true],
  ['(?i)^[^\\x{17F}]$', 's', false],
  ['(?i)^[a-z]+$', 'MiXeD\u212a', true],
  ['(?i)^straße$', 'STRAẞE', true],
  ['(?i)^i$', 'I', true],
  ['(?i)^i$', 'ı', false],
  ['(?i)^σ$', 'ς', true],
  ['(?i)a(?-i)b', 'Ab', true],
  ['(?i)a(?-i)b', 'AB', false],
  ['^(?i:a)b$', 'AB', false],
  ['(a(?i)b)c', 'aBc', true],
  ['(a(?i)b)c', 'aBC', false],
  ['^(?i)(abort|warn)?$', 'Warn', true],
  ['^(?i)[^a]$', 'A', false],
  ['^(?i)\\w$', '\u212a', true],
  ['^(?i)\\W$', '\u212a', false],
  ['^(?i)\\p{Lu}$', 'a', true],
  ['^(?i)\\P{Lu}$', 'a', false],
  ['^(?i)[\\P{Lu}]$', 'a', false],
  ['^(?i)[\\PL\\d]$', '1', true],
  ['^(?i)[\\PL\\d]$', '\u212a', false],
  ['^(?i)\\Qab\\E$', 'AB', true],
  // Anchors: the text's ends, or with `m` also at `\n` (and only `\n`).
  ['a$', 'a\n', false],
  ['^b', 'a\nb', false],
  ['\\Aa\\z', 'a', true],
  ['(?m)^b$', 'a\nb\nc', true],
  ['(?m)^b$', 'a\rb', false],
  ['(?m)a$', 'a\r\n', false],
  ['(?m)^$', '', true],
  ['^b$', 'a\nb\nc', false],
  ['(?m:^b)c$', 'a\nbc', true],
];

describe("a table of Go's answers", () => {
  it.each(GO)('%s against %j: %s', (pattern, value, ok) => {
    expect(matches(pattern, value)).toBe(ok);
  });

  it('gives the same answers through a CRD schema', () => {
    expect(GO.map(([p, v]) => [p, v, accepts(p, v)])).toEqual(GO);
  });

  it('gives the same answers to CEL rules', () => {
    expect(GO.map(([p, v]) => [p, v, re2(p, v).test(v)])).toEqual(GO);
  });

  it('leaves Unicode classes, astral runes and multi-line anchors to the backtracking engine', () => {
    for (const pattern of ['^\\pL+$', '^\\x{1F600}$', '(?m)^a$']) {
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(js.error);
      expect([pattern, linearVariant(js.body, js.flags)]).toEqual([pattern, undefined]);
    }
  });
});

describe('repetition', () => {
  const match = (pattern: string, value: string): string | undefined => {
    const c = compileRe2(pattern);
    if ('error' in c) throw new Error(c.error);
    return c.regexp.exec(value)?.[0];
  };
  it.each([
    ['a+', 'aaa', 'aaa'],
    ['a+?', 'aaa', 'a'],
    ['(?U)a+', 'aaa', 'a'],
    ['(?U)a+?', 'aaa', 'aaa'],
    ['(?U:a{1,3})a*', 'aaa', 'aaa'],
    ['(?U:a{1,3})', 'aaa', 'a'],
    ['a{2,}', 'aaaa', 'aaaa'],
  ])('%s in %j finds %j', (pattern, value, found) => {
    expect(match(pattern, value)).toBe(found);
  });

  it('leaves Unicode classes, astral runes and multi-line anchors to the backtracking engine', () => {
    for (const pattern of ['^\\pL+$', '^\\x{1F600}$', '(?m)^a$']) {
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(js.error);
      expect([pattern, linearVariant(js.body, js.flags)]).toEqual([pattern, undefined]);
    }
  });
});

describe("Go's refusals", () => {
  it.each([
    ['\\p{Foo}', 'invalid character class range: `\\p{Foo}`'],
    ['[\\p{Foo}]', 'invalid character class range: `\\p{Foo}`'],
    ['\\pX', 'invalid character class range: `\\pX`'],
    ['\\p{Letter}', 'invalid character class range: `\\p{Letter}`'],
    ['\\p{greek}', 'invalid character class range: `\\p{greek}`'],
    ['\\p{LC}', 'invalid character class range: `\\p{LC}`'],
    ['\\p{Script=Greek}', 'invalid character class range: `\\p{Script=Greek}`'],
    ['([a-z', 'missing closing ]: `[a-z`'],
    ['(?<=a)b', 'invalid named capture: `(?<=a)b`'],
  ])('%s', (pattern, error) => {
    expect(re2ToJs(pattern)).toEqual({ error: `error parsing regexp: ${error}` });
    expect(definitionErrors(pattern)).toEqual([
      `spec.validation.openAPIV3Schema.properties[f].pattern: Invalid value: ${JSON.stringify(pattern)}: must be a valid regular expression, but isn't: error parsing regexp: ${error}`,
    ]);
  });

  it('leaves Unicode classes, astral runes and multi-line anchors to the backtracking engine', () => {
    for (const pattern of ['^\\pL+$', '^\\x{1F600}$', '(?m)^a$']) {
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(js.error);
      expect([pattern, linearVariant(js.body, js.flags)]).toEqual([pattern, undefined]);
    }
  });
});

describe('linear-time matching', () => {
  it.skipIf(!LINEAR_REGEXP_ENGINE)('keeps ASCII and case-folded patterns on the linear engine', () => {
    for (const pattern of [
      '^(a+)+$',
      '(?i)^(a+)+$',
      '^(?U)(\\w+)+$',
      '^([[:alpha:]]+[0-9])+$',
      '^(?P<n>a+)+$',
    ]) {
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(js.error);
      expect([pattern, linearVariant(js.body, js.flags)?.flags]).toEqual([pattern, 'l']);
      // Backtracking, 2^40 steps: the test's timeout would catch it.
      expect([pattern, accepts(pattern, `${'a'.repeat(40)}!`)]).toEqual([pattern, false]);
    }
  });

  it('leaves Unicode classes, astral runes and multi-line anchors to the backtracking engine', () => {
    for (const pattern of ['^\\pL+$', '^\\x{1F600}$', '(?m)^a$']) {
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(js.error);
      expect([pattern, linearVariant(js.body, js.flags)]).toEqual([pattern, undefined]);
    }
  });
});

describe('the translation reads the same with and without `u`', () => {
  // A generated set (fixed seed): the linear engine (code units, no `u`) and the backtracking
  // engine (runes, `u`) find the same match on inputs without surrogate pairs.
  it.skipIf(!LINEAR_REGEXP_ENGINE)('on 500 generated patterns', () => {
    let seed = 42;
    const pick = <T>(xs: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return xs[seed % xs.length]!;
    };
    const atoms = [
      'a',
      'k',
      'K',
      's',
      '.',
      '\\s',
      '\\w',
      '\\W',
      '\\d',
      '[a-c]',
      '[^a]',
      '[[:alpha:]]',
      '\\b',
    ];
    const more = [
      '^',
      '$',
      '(?i:ab)',
      '(?s:.)',
      '\\x{17F}',
      'ſ',
      'é',
      '\\n',
      '\\r',
      '(?U:a+)',
      '\\Q.+\\E',
      '-',
    ];
    const quantifiers = ['', '', '*', '+', '?', '{1,2}', '*?'];
    const inputs = [
      '',
      'a',
      'AB',
      'K',
      '\u212a',
      'ſ',
      'S',
      '\n',
      '\r',
      'a\nb',
      'é',
      'É',
      'k s',
      '.+',
      'abc-',
    ];
    const differ: string[] = [];
    for (let n = 0; n < 500; n++) {
      let pattern = pick(['', '', '(?i)', '(?U)']);
      for (let j = 0; j < 4; j++) pattern += pick([...atoms, ...more]) + pick(quantifiers);
      const js = re2ToJs(pattern);
      if ('error' in js) throw new Error(`${pattern}: ${js.error}`);
      const linear = linearVariant(js.body, js.flags);
      if (linear === undefined) throw new Error(`${pattern} is not linear`);
      const full = new RegExp(js.body, js.flags);
      for (const input of inputs)
        if (full.exec(input)?.[0] !== linear.exec(input)?.[0])
          differ.push(`${pattern} on ${JSON.stringify(input)}`);
    }
    expect(differ).toEqual([]);
  });
});
