import { describe, expect, it } from 'vitest';
import {
  formatLabelSelector,
  type LabelSelectorObject,
  labelSelectorFromObject,
  parseLabelSelector,
  SelectorError,
} from '../../src/protocol/labels.js';
import { mulberry32 } from '../helpers/random.js';
import { tryParse } from './labels-fixture.js';

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
