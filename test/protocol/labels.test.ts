import { describe, expect, it } from 'vitest';
import {
  everythingSelector,
  formatLabelSelector,
  isEverything,
  type LabelSelector,
  type LabelSelectorObject,
  labelSelectorFromObject,
  matchesLabels,
  nothingSelector,
  parseLabelSelector,
  SelectorError,
} from '../../src/protocol/labels.js';
import { mulberry32 } from '../helpers/random.js';

/** Parses, expecting only success or a SelectorError; anything else fails the test. */
function tryParse(text: string): LabelSelector | SelectorError {
  try {
    return parseLabelSelector(text);
  } catch (err) {
    if (err instanceof SelectorError) return err;
    throw new Error(`non-SelectorError for ${JSON.stringify(text)}: ${String(err)}`);
  }
}

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

describe('matchesLabels', () => {
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['', undefined, true],
    ['', { a: 'b' }, true],
    ['a=b', { a: 'b' }, true],
    ['a==b', { a: 'b', c: 'd' }, true],
    ['a=b', { a: 'c' }, false],
    ['a=b', {}, false],
    ['a=b', undefined, false],
    ['a=', { a: '' }, true],
    ['a=', {}, false],
    ['a!=b', { a: 'c' }, true],
    ['a!=b', { a: 'b' }, false],
    ['a!=b', {}, true],
    ['a in (x,y)', { a: 'y' }, true],
    ['a in (x,y)', { a: 'z' }, false],
    ['a in (x,y)', {}, false],
    ['a notin (x,y)', { a: 'z' }, true],
    ['a notin (x,y)', { a: 'x' }, false],
    ['a notin (x,y)', {}, true],
    ['a', { a: '' }, true],
    ['a', { b: 'a' }, false],
    ['!a', { b: 'a' }, true],
    ['!a', { a: 'x' }, false],
    ['a=b,c', { a: 'b', c: '' }, true],
    ['a=b,c', { a: 'b' }, false],
    ['constructor', {}, false],
    ['!constructor', {}, true],
    ['toString=x', {}, false],
    ['a>5', { a: '6' }, true],
    ['a>5', { a: '5' }, false],
    ['a>5', { a: 'x' }, false],
    ['a>5', {}, false],
    ['a<5', { a: '-7' }, true],
    ['a<5', { a: '05' }, false],
    ['a>9223372036854775806', { a: '9223372036854775807' }, true],
    ['a<1', { a: '-9223372036854775809' }, false],
  ];
  it.each(cases)('%j on %j is %s', (text, labels, expected) => {
    expect(matchesLabels(parseLabelSelector(text), labels)).toBe(expected);
  });

  it('ignores non-string and inherited properties', () => {
    const labels = Object.create({ a: 'b' }) as Record<string, string>;
    expect(matchesLabels(parseLabelSelector('a'), labels)).toBe(false);
    expect(matchesLabels(parseLabelSelector('a'), { a: 5 } as unknown as Record<string, string>)).toBe(false);
  });

  it('nothingSelector matches nothing; everythingSelector everything', () => {
    expect(matchesLabels(nothingSelector, {})).toBe(false);
    expect(matchesLabels(everythingSelector, undefined)).toBe(true);
    expect(isEverything(everythingSelector)).toBe(true);
    expect(isEverything(nothingSelector)).toBe(false);
    expect(isEverything(parseLabelSelector(' '))).toBe(true);
    expect(isEverything(parseLabelSelector('a'))).toBe(false);
  });
});

describe('labelSelectorFromObject', () => {
  it('selects nothing for an absent selector by default, as apimachinery', () => {
    expect(labelSelectorFromObject(undefined)).toBe(nothingSelector);
    expect(labelSelectorFromObject(null)).toBe(nothingSelector);
    expect(labelSelectorFromObject(undefined, { nilSelectsNothing: false })).toBe(everythingSelector);
    expect(formatLabelSelector(nothingSelector)).toBe('');
  });

  it('selects everything for an empty selector', () => {
    expect(isEverything(labelSelectorFromObject({}))).toBe(true);
    expect(isEverything(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }))).toBe(true);
  });

  it('formats as kube prints a Scale status.selector', () => {
    const sel = labelSelectorFromObject({
      matchLabels: { tier: 'front', app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'zone', operator: 'NotIn', values: ['b'] },
        { key: 'gpu', operator: 'Exists', values: [] },
      ],
    });
    const text = formatLabelSelector(sel);
    expect(text).toBe('app=web,!canary,env in (dev,prod),gpu,tier=front,zone notin (b)');
    expect(parseLabelSelector(text)).toEqual(sel);
    expect(matchesLabels(sel, { app: 'web', tier: 'front', env: 'dev', gpu: '1' })).toBe(true);
    expect(matchesLabels(sel, { app: 'web', tier: 'front', env: 'dev', gpu: '1', canary: 'y' })).toBe(false);
  });

  it('writes a lone empty value so it parses back', () => {
    const sel = labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In', values: [''] }] });
    expect(formatLabelSelector(sel)).toBe('a in (,)');
    expect(parseLabelSelector(formatLabelSelector(sel))).toEqual(sel);
  });

  const bad: [string, unknown, string][] = [
    [
      'unknown operator',
      { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] },
      '"Gt" is not a valid',
    ],
    ['In without values', { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, "can't be empty"],
    ['NotIn without values', { matchExpressions: [{ key: 'a', operator: 'NotIn' }] }, "can't be empty"],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      'must be empty',
    ],
    ['bad key', { matchLabels: { 'a b': 'c' } }, 'invalid label key "a b"'],
    ['bad value', { matchLabels: { a: 'b c' } }, 'invalid label value "b c"'],
    ['non-string label', { matchLabels: { a: 1 } }, 'must be a string'],
    ['matchLabels array', { matchLabels: ['a'] }, 'matchLabels must be an object'],
    ['matchExpressions object', { matchExpressions: {} }, 'matchExpressions must be an array'],
    ['missing key', { matchExpressions: [{ operator: 'Exists' }] }, 'key must be a string'],
    ['null expression', { matchExpressions: [null] }, 'key must be a string'],
    [
      'non-string values',
      { matchExpressions: [{ key: 'a', operator: 'In', values: [1] }] },
      'must be strings',
    ],
    ['proto operator', { matchExpressions: [{ key: 'a', operator: 'toString' }] }, 'not a valid'],
    ['not an object', 'a=b', 'must be an object'],
  ];
  it.each(bad)('rejects %s', (_name, input, message) => {
    expect(() => labelSelectorFromObject(input as LabelSelectorObject)).toThrow(SelectorError);
    expect(() => labelSelectorFromObject(input as LabelSelectorObject)).toThrow(message);
  });
});

describe('label selector performance', () => {
  it('parses large hostile input without blowing up', () => {
    const inputs = [
      'a,'.repeat(50_000) + 'a',
      `a in (${'x,'.repeat(50_000)}y)`,
      '('.repeat(1_000_000),
      '!'.repeat(1_000_000),
      '= '.repeat(500_000),
      `a=${'b'.repeat(1_000_000)}`,
      `${'a.'.repeat(500_000)}/b`,
    ];
    // A blow-up (quadratic, backtracking) would run for minutes: the test's timeout catches it; speed is the benchmarks' business.
    for (const text of inputs) tryParse(text);
  });
});

describe('label selector fuzz', () => {
  const alphabet = [...'abcxyz019=!,()/ .-_\\<>\t', 'in', 'notin', 'é', '😀', '\u00a0', 'A', 'Z'];
  const valid = [
    'app=web,tier in (a,b)',
    'a!=b,!c,d',
    'x notin (p,q),y==z',
    'example.com/k in (v1,v2),k2>3',
    'in in (in),notin',
    'a=,b in (,c)',
  ];

  /** Asserts the parse result is canonical: print -> parse -> print is stable and equal. */
  function checkRoundTrip(text: string): boolean {
    const result = tryParse(text);
    if (result instanceof SelectorError) {
      expect(result.message.length).toBeGreaterThan(0);
      return false;
    }
    const printed = formatLabelSelector(result);
    const again = parseLabelSelector(printed);
    expect(again, `round trip of ${JSON.stringify(text)} via ${JSON.stringify(printed)}`).toEqual(result);
    expect(formatLabelSelector(again)).toBe(printed);
    return true;
  }

  it('random strings from the selector alphabet only ever throw SelectorError', () => {
    const rand = mulberry32(0x5eed);
    let ok = 0;
    for (let n = 0; n < 2500; n++) {
      const len = Math.floor(rand() * 24);
      let text = '';
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
      if (checkRoundTrip(text)) ok++;
    }
    expect(ok).toBeGreaterThan(50);
  });

  it('random mutations of valid selectors only ever throw SelectorError', () => {
    const rand = mulberry32(42);
    let ok = 0;
    for (let n = 0; n < 2500; n++) {
      let text = valid[Math.floor(rand() * valid.length)];
      const edits = 1 + Math.floor(rand() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rand() * (text.length + 1));
        const piece = alphabet[Math.floor(rand() * alphabet.length)];
        const kind = rand();
        if (kind < 0.4) text = text.slice(0, at) + piece + text.slice(at);
        else if (kind < 0.7) text = text.slice(0, at) + text.slice(at + 1);
        else text = text.slice(0, at) + piece + text.slice(at + 1);
      }
      if (checkRoundTrip(text)) ok++;
    }
    expect(ok).toBeGreaterThan(200);
  });

  it('grammar-generated selectors with random whitespace always parse and round-trip', () => {
    const rand = mulberry32(11);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
    const ws = (): string => pick(['', '', ' ', '  ', '\t', '\n', '\r\n']);
    const keys = ['a', 'in', 'notin', 'app.kubernetes.io/name', 'x_Y-1.z', '9'];
    const values = ['b', 'in', 'V-1_2.c', '0'];
    for (let n = 0; n < 1000; n++) {
      const terms: string[] = [];
      for (let t = 1 + Math.floor(rand() * 4); t > 0; t--) {
        const key = pick(keys);
        const form = Math.floor(rand() * 6);
        if (form === 0) terms.push(key);
        else if (form === 1) terms.push(`!${ws()}${key}`);
        else if (form === 2)
          terms.push(`${key}${ws()}${pick(['=', '==', '!='])}${ws()}${pick([...values, ''])}`);
        else if (form === 3) terms.push(`${key}${ws()}${pick(['>', '<'])}${ws()}${Math.floor(rand() * 100)}`);
        else {
          const list = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ws() + pick(values) + ws());
          terms.push(`${key} ${ws()}${form === 4 ? 'in' : 'notin'}${ws()}(${list.join(',')})`);
        }
      }
      const text = ws() + terms.join(`${ws()},${ws()}`) + ws();
      const sel = parseLabelSelector(text);
      expect(sel.requirements.length).toBe(terms.length);
      expect(parseLabelSelector(formatLabelSelector(sel))).toEqual(sel);
    }
  });

  it('object selectors round-trip through their text form', () => {
    const rand = mulberry32(7);
    const keys = ['a', 'b', 'example.com/c', 'in'];
    const values = ['', 'x', 'y', 'z-1'];
    const ops = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
    for (let n = 0; n < 1000; n++) {
      const obj: LabelSelectorObject = { matchLabels: {}, matchExpressions: [] };
      for (let i = Math.floor(rand() * 3); i > 0; i--) obj.matchLabels![pick(keys)] = pick(values);
      for (let i = Math.floor(rand() * 3); i > 0; i--) {
        const operator = pick(ops);
        const list = operator === 'In' || operator === 'NotIn' ? [pick(values), pick(values)] : undefined;
        obj.matchExpressions!.push({ key: pick(keys), operator, values: list });
      }
      const sel = labelSelectorFromObject(obj);
      expect(parseLabelSelector(formatLabelSelector(sel))).toEqual(sel);
    }
  });
});
