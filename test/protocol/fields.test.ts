import { describe, expect, it } from 'vitest';
import {
  escapeFieldValue,
  everythingFields,
  exactValue,
  type FieldSelector,
  fieldsOf,
  formatFieldSelector,
  isEverythingFields,
  matchesFields,
  parseFieldSelector,
  unescapeFieldValue,
} from '../../src/protocol/fields.js';
import { SelectorError } from '../../src/protocol/labels.js';
import { mulberry32 } from '../helpers/random.js';

/** Parses, expecting only success or a SelectorError; anything else fails the test. */
function tryParse(text: string): FieldSelector | SelectorError {
  try {
    return parseFieldSelector(text);
  } catch (err) {
    if (err instanceof SelectorError) return err;
    throw new Error(`non-SelectorError for ${JSON.stringify(text)}: ${String(err)}`);
  }
}

describe('parseFieldSelector: valid input', () => {
  const cases: [string, string][] = [
    ['', ''],
    [',', ''],
    [',,a=b,,', 'a=b'],
    ['metadata.name=web', 'metadata.name=web'],
    ['metadata.name==web', 'metadata.name=web'],
    ['status.phase!=Running', 'status.phase!=Running'],
    ['spec.nodeName=', 'spec.nodeName='],
    ['spec.nodeName!=', 'spec.nodeName!='],
    ['b=2,a=1', 'a=1,b=2'],
    ['a=x\\,y', 'a=x\\,y'],
    ['a=x\\=y', 'a=x\\=y'],
    ['a=x\\\\y', 'a=x\\\\y'],
    ['a==\\=', 'a=\\='],
    ['a!=\\,\\,', 'a!=\\,\\,'],
    ['a = b', 'a = b'],
    ['a!b=c', 'a!b=c'],
    ['a=é😀', 'a=é😀'],
    ['a\\=b', 'a\\=b'],
  ];
  it.each(cases)('%j formats as %j', (text, canonical) => {
    const sel = parseFieldSelector(text);
    expect(formatFieldSelector(sel)).toBe(canonical);
    expect(parseFieldSelector(canonical)).toEqual(sel);
  });

  it('unescapes values and reads == as =', () => {
    expect(parseFieldSelector('x==a\\,b\\=c\\\\d,y!=').requirements).toEqual([
      { field: 'x', operator: '=', value: 'a,b=c\\d' },
      { field: 'y', operator: '!=', value: '' },
    ]);
  });

  it('does not trim whitespace, as apimachinery', () => {
    expect(parseFieldSelector(' a = b ').requirements).toEqual([
      { field: ' a ', operator: '=', value: ' b ' },
    ]);
  });

  it('splits on the first operator', () => {
    expect(parseFieldSelector('a!b==c').requirements).toEqual([{ field: 'a!b', operator: '=', value: 'c' }]);
    expect(parseFieldSelector('a\\!=c').requirements).toEqual([{ field: 'a\\', operator: '!=', value: 'c' }]);
  });
});

describe('parseFieldSelector: invalid input', () => {
  const cases: [string, string][] = [
    ['a', '"a" has no operator'],
    ['a=b,c', '"c" has no operator'],
    ['!a', 'has no operator'],
    ['=a', 'empty field name in "=a"'],
    ['==a', 'empty field name'],
    ['!=a', 'empty field name'],
    ['a=b=c', 'unescaped \'=\' in the value of "a=b=c"'],
    ['a!==b', "unescaped '='"],
    ['a=\\q', 'invalid escape sequence "\\\\q"'],
    ['a=\\😀', 'invalid escape sequence'],
    ['a=b\\', "ends with a lone '\\'"],
    ['a=b\\,c\\', "ends with a lone '\\'"],
  ];
  it.each(cases)('%j is rejected with %j', (text, message) => {
    const err = tryParse(text);
    expect(err).toBeInstanceOf(SelectorError);
    expect((err as SelectorError).message).toContain(message);
    expect((err as SelectorError).selector).toBe(text);
  });

  it('rejects a non-string with a SelectorError', () => {
    expect(() => parseFieldSelector(undefined as unknown as string)).toThrow(SelectorError);
  });
});

describe('matching and lookups', () => {
  const pod: Record<string, string | undefined> = {
    'metadata.name': 'web-1',
    'metadata.namespace': 'default',
    'spec.nodeName': undefined,
    'status.phase': 'Pending',
  };
  const get = (field: string): string | undefined => pod[field];
  const cases: [string, boolean][] = [
    ['', true],
    ['metadata.name=web-1', true],
    ['metadata.name==web-1', true],
    ['metadata.name=web-2', false],
    ['metadata.name!=web-2', true],
    ['spec.nodeName=', true],
    ['spec.nodeName!=', false],
    ['spec.nodeName=n1', false],
    ['unknown.field=', true],
    ['metadata.name=web-1,status.phase!=Running', true],
    ['metadata.name=web-1,status.phase=Running', false],
  ];
  it.each(cases)('%j on the pod is %s', (text, expected) => {
    expect(matchesFields(parseFieldSelector(text), get)).toBe(expected);
  });

  it('exactValue finds = and == requirements only', () => {
    const sel = parseFieldSelector('spec.nodeName==n1,metadata.namespace!=kube-system,metadata.name=');
    expect(exactValue(sel, 'spec.nodeName')).toBe('n1');
    expect(exactValue(sel, 'metadata.namespace')).toBeUndefined();
    expect(exactValue(sel, 'metadata.name')).toBe('');
    expect(exactValue(sel, 'status.phase')).toBeUndefined();
    expect(exactValue(everythingFields, 'spec.nodeName')).toBeUndefined();
  });

  it('fieldsOf lists each field once', () => {
    expect(fieldsOf(parseFieldSelector('b=1,a!=2,b!=3'))).toEqual(['a', 'b']);
    expect(fieldsOf(parseFieldSelector(''))).toEqual([]);
  });

  it('isEverythingFields', () => {
    expect(isEverythingFields(parseFieldSelector(',,'))).toBe(true);
    expect(isEverythingFields(parseFieldSelector('a=b'))).toBe(false);
  });

  it('escapeFieldValue and unescapeFieldValue are inverse', () => {
    expect(escapeFieldValue('a,b=c\\d')).toBe('a\\,b\\=c\\\\d');
    expect(unescapeFieldValue('a\\,b\\=c\\\\d')).toBe('a,b=c\\d');
    expect(unescapeFieldValue('plain')).toBe('plain');
  });
});

describe('field selector fuzz', () => {
  const alphabet = [...'abz09.=!,\\ ()/-_', 'metadata.name', '==', '!=', 'é', '😀', '\u00a0'];

  function checkRoundTrip(text: string): boolean {
    const result = tryParse(text);
    if (result instanceof SelectorError) return false;
    const printed = formatFieldSelector(result);
    const again = parseFieldSelector(printed);
    expect(again, `round trip of ${JSON.stringify(text)} via ${JSON.stringify(printed)}`).toEqual(result);
    expect(formatFieldSelector(again)).toBe(printed);
    return true;
  }

  it('random strings only ever throw SelectorError and valid ones round-trip', () => {
    const rand = mulberry32(1234);
    let ok = 0;
    for (let n = 0; n < 2500; n++) {
      const len = Math.floor(rand() * 20);
      let text = '';
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
      if (checkRoundTrip(text)) ok++;
    }
    expect(ok).toBeGreaterThan(200);
  });

  it('random mutations of valid selectors only ever throw SelectorError', () => {
    const rand = mulberry32(99);
    const valid = ['metadata.name=web,spec.nodeName!=', 'a==x\\,y\\=z', 'status.phase!=Running,b=\\\\'];
    let ok = 0;
    for (let n = 0; n < 2000; n++) {
      let text = valid[Math.floor(rand() * valid.length)];
      for (let e = 1 + Math.floor(rand() * 3); e > 0; e--) {
        const at = Math.floor(rand() * (text.length + 1));
        const piece = alphabet[Math.floor(rand() * alphabet.length)];
        text =
          rand() < 0.5 ? text.slice(0, at) + piece + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      }
      if (checkRoundTrip(text)) ok++;
    }
    expect(ok).toBeGreaterThan(300);
  });

  it('any value survives escape then parse', () => {
    const rand = mulberry32(5);
    for (let n = 0; n < 2000; n++) {
      let value = '';
      for (let i = Math.floor(rand() * 12); i > 0; i--)
        value += alphabet[Math.floor(rand() * alphabet.length)];
      expect(unescapeFieldValue(escapeFieldValue(value))).toBe(value);
      expect(exactValue(parseFieldSelector(`f=${escapeFieldValue(value)}`), 'f')).toBe(value);
    }
  });

  it('parses large hostile input without blowing up', () => {
    // A blow-up (quadratic, backtracking) would run for minutes: the test's timeout catches it; speed is the benchmarks' business.
    tryParse('a=b,'.repeat(25_000));
    tryParse('\\'.repeat(500_001));
    tryParse(`a=${'\\,'.repeat(250_000)}`);
    tryParse('x'.repeat(500_000));
  });
});
