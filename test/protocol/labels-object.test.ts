import { describe, expect, it } from 'vitest';
import {
  everythingSelector,
  formatLabelSelector,
  isEverything,
  type LabelSelectorObject,
  labelSelectorFromObject,
  matchesLabels,
  nothingSelector,
  parseLabelSelector,
  SelectorError,
} from '../../src/protocol/labels.js';

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
