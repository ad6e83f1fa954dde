import { describe, expect, it } from 'vitest';
import { humanDuration, parseTimestamp, translateTimestampSince } from '../../../src/server/kinds/age.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

describe('humanDuration (apimachinery duration.HumanDuration)', () => {
  it.each([
    [-3 * s, '<invalid>'],
    [-2 * s, '<invalid>'],
    [-1500, '0s'],
    [-999, '0s'],
    [0, '0s'],
    [999, '0s'],
    [1 * s, '1s'],
    [59 * s, '59s'],
    [60 * s, '60s'],
    [119 * s, '119s'],
    [120 * s, '2m'],
    [125 * s, '2m5s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m, '10m'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 20 * m, '3h20m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h, '8h'],
    [47 * h + 59 * m, '47h'],
    [2 * d, '2d'],
    [3 * d + 4 * h, '3d4h'],
    [7 * d + 23 * h, '7d23h'],
    [8 * d, '8d'],
    [8 * d + 5 * h, '8d'],
    [200 * d, '200d'],
    [2 * y - d, '729d'],
    [2 * y, '2y'],
    [2 * y + 100 * d, '2y100d'],
    [7 * y + 364 * d, '7y364d'],
    [8 * y, '8y'],
    [9 * y + 100 * d, '9y'],
  ])('%i ms -> %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe('translateTimestampSince', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');

  it('is <unknown> without a timestamp', () => {
    expect(translateTimestampSince(undefined, now)).toBe('<unknown>');
    expect(translateTimestampSince('', now)).toBe('<unknown>');
    expect(translateTimestampSince('not a time', now)).toBe('<unknown>');
    expect(translateTimestampSince(42, now)).toBe('<unknown>');
  });

  it('ages RFC 3339 and MicroTime stamps', () => {
    expect(translateTimestampSince('2024-05-01T11:55:00Z', now)).toBe('5m');
    expect(translateTimestampSince('2024-05-01T11:59:30.123456Z', now)).toBe('29s');
    expect(parseTimestamp('2024-05-01T11:59:30.123456Z')).toBe(now - 29_877);
  });
});
