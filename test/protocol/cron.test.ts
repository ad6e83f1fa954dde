/** robfig/cron's schedules as protocol/cron.ts reads them: the next activation, in UTC and in a zone. */
import { describe, expect, it } from 'vitest';
import { parseCronSchedule } from '../../src/protocol/cron.js';

const at = (s: string) => Date.parse(s);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('parseCronSchedule', () => {
  it.each([
    ['* * * * *', '2026-03-10T10:00:30Z', '2026-03-10T10:01:00.000Z'],
    ['*/15 * * * *', '2026-03-10T10:01:00Z', '2026-03-10T10:15:00.000Z'],
    ['0 9 * * 1-5', '2026-03-13T10:00:00Z', '2026-03-16T09:00:00.000Z'],
    ['30 2 1 * *', '2026-03-10T00:00:00Z', '2026-04-01T02:30:00.000Z'],
    ['0 0 13 * 5', '2026-03-01T00:00:00Z', '2026-03-06T00:00:00.000Z'],
    ['0 0 29 2 *', '2026-03-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['@hourly', '2026-03-10T10:00:00Z', '2026-03-10T11:00:00.000Z'],
    ['@weekly', '2026-03-10T10:00:00Z', '2026-03-15T00:00:00.000Z'],
    ['@every 90s', '2026-03-10T10:00:00.500Z', '2026-03-10T10:01:30.000Z'],
    ['TZ=Asia/Tokyo 0 9 * * *', '2026-03-10T01:00:00Z', '2026-03-11T00:00:00.000Z'],
    ['CRON_TZ=America/New_York 30 1 * * *', '2026-03-10T00:00:00Z', '2026-03-10T05:30:00.000Z'],
  ])('%s after %s is %s', (spec, from, next) => {
    expect(iso(parseCronSchedule(spec).next(at(from)))).toBe(next);
  });

  it('skips to the next day across a daylight-saving change in the zone', () => {
    // New York springs forward at 02:00 on 2026-03-08: 03:30 local is 07:30Z that day.
    expect(iso(parseCronSchedule('TZ=America/New_York 30 3 * * *').next(at('2026-03-07T09:00:00Z')))).toBe(
      '2026-03-08T07:30:00.000Z',
    );
  });

  it.each([
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['61 * * * *', 'end of range (61) above maximum (59): 61'],
    ['@every 1x', 'failed to parse duration @every 1x: time: unknown unit "x" in duration "1x"'],
    ['TZ=Mars/Base * * * * *', 'provided bad location Mars/Base: unknown time zone Mars/Base'],
  ])('refuses %j with the parser’s words', (spec, message) => {
    expect(() => parseCronSchedule(spec)).toThrow(message);
  });
});
