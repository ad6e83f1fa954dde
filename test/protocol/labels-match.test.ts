import { describe, expect, it } from 'vitest';
import {
  everythingSelector,
  isEverything,
  matchesLabels,
  nothingSelector,
  parseLabelSelector,
} from '../../src/protocol/labels.js';

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
