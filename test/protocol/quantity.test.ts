import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../../src/protocol/quantity.js';

describe('parseQuantity', () => {
  it.each([
    ['100m', 0.1],
    ['0.5', 0.5],
    ['1k', 1000],
    ['1e3', 1000],
    ['110', 110],
    ['128Mi', 128 * 2 ** 20],
    ['1G', 1e9],
    [110, 110],
  ])('%s is %d', (text, amount) => {
    expect(parseQuantity(text)).toBeCloseTo(amount);
  });

  it('a node\'s canonical allocatable pods ("1k") is a number the scheduler can compare', () => {
    expect(3 >= (parseQuantity('1k') ?? 110)).toBe(false);
    expect(Number('1k')).toBeNaN();
  });

  it.each(['', 'abc', '1kk', null])('%s is no quantity', (text) => {
    expect(parseQuantity(text)).toBeUndefined();
  });
});
