import { describe, expect, it } from 'vitest';
import {
  DurationError,
  formatDuration,
  formatDurationNs,
  parseDuration,
  parseDurationNs,
} from '../../src/protocol/duration.js';
import { mulberry32 } from '../helpers/random.js';

const ns = 1n;
const us = 1000n;
const ms = 1000n * us;
const s = 1000n * ms;
const m = 60n * s;
const h = 60n * m;

describe('parseDurationNs: Go time.ParseDuration test table', () => {
  const cases: [string, bigint][] = [
    ['0', 0n],
    ['5s', 5n * s],
    ['30s', 30n * s],
    ['1478s', 1478n * s],
    ['-5s', -5n * s],
    ['+5s', 5n * s],
    ['-0', 0n],
    ['+0', 0n],
    ['5.0s', 5n * s],
    ['5.6s', 5n * s + 600n * ms],
    ['5.s', 5n * s],
    ['.5s', 500n * ms],
    ['1.0s', s],
    ['1.00s', s],
    ['1.004s', s + 4n * ms],
    ['1.0040s', s + 4n * ms],
    ['100.00100s', 100n * s + ms],
    ['10ns', 10n * ns],
    ['11us', 11n * us],
    ['12\u00b5s', 12n * us],
    ['12\u03bcs', 12n * us],
    ['13ms', 13n * ms],
    ['14s', 14n * s],
    ['15m', 15n * m],
    ['16h', 16n * h],
    ['3h30m', 3n * h + 30n * m],
    ['10.5s4m', 4n * m + 10n * s + 500n * ms],
    ['-2m3.4s', -(2n * m + 3n * s + 400n * ms)],
    ['1h2m3s4ms5us6ns', h + 2n * m + 3n * s + 4n * ms + 5n * us + 6n],
    ['39h9m14.425s', 39n * h + 9n * m + 14n * s + 425n * ms],
    ['52763797000ns', 52763797000n],
    ['0.3333333333333333333h', 20n * m],
    ['9007199254740993ns', 2n ** 53n + 1n],
    ['9223372036854775807ns', 2n ** 63n - 1n],
    ['9223372036854775.807us', 2n ** 63n - 1n],
    ['9223372036s854ms775us807ns', 2n ** 63n - 1n],
    ['-9223372036854775808ns', -(2n ** 63n)],
    ['-9223372036854775.808us', -(2n ** 63n)],
    ['-9223372036s854ms775us808ns', -(2n ** 63n)],
    ['-2562047h47m16.854775808s', -(2n ** 63n)],
    ['0.100000000000000000000h', 6n * m],
    ['0.830103483285477580700h', 49n * m + 48n * s + 372539827n],
    ['1h1h', 2n * h],
  ];
  it.each(cases)('%j is %sns', (text, expected) => {
    expect(parseDurationNs(text)).toBe(expected);
  });
});

describe('parseDuration: invalid input', () => {
  const cases: [string, string][] = [
    ['', 'invalid duration "": empty'],
    ['3', 'invalid duration "3": missing unit'],
    ['-', 'empty'],
    ['+', 'empty'],
    ['s', 'expected a number'],
    ['.', 'a number needs at least one digit'],
    ['-.', 'a number needs at least one digit'],
    ['.s', 'a number needs at least one digit'],
    ['+.s', 'a number needs at least one digit'],
    ['1d', 'unknown unit "d"'],
    ['5x', 'invalid duration "5x": unknown unit "x"'],
    ['1 s', 'unknown unit " s"'],
    ['1S', 'unknown unit "S"'],
    ['1h 30m', 'unknown unit "h "'],
    ['1e3s', 'unknown unit "e"'],
    ['00', 'missing unit'],
    ['1s2', 'missing unit'],
    ['--1s', 'expected a number'],
    ['\x85\x85', 'expected a number'],
    ['\uFFFD hello', 'expected a number'],
    ['9223372036854775810ns', 'out of range'],
    ['9223372036854775808ns', 'out of range'],
    ['9223372036854775.808us', 'out of range'],
    ['9223372036854ms775us808ns', 'out of range'],
    ['-9223372036854775809ns', 'out of range'],
    ['3000000h', 'out of range'],
  ];
  it.each(cases)('%j is rejected with %j', (text, message) => {
    expect(() => parseDuration(text)).toThrow(DurationError);
    expect(() => parseDuration(text)).toThrow(message);
  });

  it('handles hostile runs of digits in linear time', () => {
    expect(parseDurationNs(`${'0'.repeat(100_000)}1s`)).toBe(s);
    expect(parseDurationNs(`1.${'0'.repeat(100_000)}1s`)).toBe(s);
    expect(() => parseDuration(`${'9'.repeat(100_000)}s`)).toThrow('number out of range');
  });

  it('rejects a non-string with a DurationError', () => {
    expect(() => parseDuration(5 as unknown as string)).toThrow(DurationError);
  });
});

describe('parseDuration (milliseconds)', () => {
  const cases: [string, number][] = [
    ['0', 0],
    ['500ms', 500],
    ['1.5s', 1500],
    ['1m', 60_000],
    ['1h30m', 5_400_000],
    ['-2s', -2000],
    ['250us', 0.25],
    ['1ns', 0.000001],
  ];
  it.each(cases)('%j is %sms', (text, expected) => {
    expect(parseDuration(text)).toBe(expected);
  });
});

describe('formatDuration', () => {
  const goCases: [string, bigint][] = [
    ['0s', 0n],
    ['1ns', 1n],
    ['1.1µs', 1100n],
    ['2.2ms', 2200n * us],
    ['3.3s', 3300n * ms],
    ['4m5s', 4n * m + 5n * s],
    ['4m5.001s', 4n * m + 5001n * ms],
    ['5h6m7.001s', 5n * h + 6n * m + 7001n * ms],
    ['8m0.000000001s', 8n * m + 1n],
    ['2562047h47m16.854775807s', 2n ** 63n - 1n],
    ['-2562047h47m16.854775808s', -(2n ** 63n)],
    ['-1.5s', -1500n * ms],
    ['1h0m0s', h],
  ];
  it.each(goCases)('formatDurationNs gives %j', (text, value) => {
    expect(formatDurationNs(value)).toBe(text);
    expect(parseDurationNs(text)).toBe(value);
  });

  const msCases: [number, string][] = [
    [0, '0s'],
    [-0, '0s'],
    [500, '500ms'],
    [1500, '1.5s'],
    [60_000, '1m0s'],
    [7_200_000, '2h0m0s'],
    [5_400_000, '1h30m0s'],
    [0.5, '500µs'],
    [0.1, '100µs'],
    [0.000001, '1ns'],
    [-250, '-250ms'],
    [9223372036854.775, '2562047h47m16.854775807s'],
  ];
  it.each(msCases)('formatDuration(%s) is %j', (value, text) => {
    expect(formatDuration(value)).toBe(text);
  });

  it('rejects what Go cannot hold', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 1e13, -1e13]) {
      expect(() => formatDuration(bad)).toThrow(DurationError);
    }
    expect(() => formatDurationNs(2n ** 63n)).toThrow(DurationError);
  });
});

describe('duration fuzz', () => {
  it('random strings only ever throw DurationError; valid ones round-trip', () => {
    const rand = mulberry32(31337);
    const alphabet = [...'0123456789..+-nsuµμmh x', 'ms', 'ns', 'us'];
    let ok = 0;
    for (let n = 0; n < 3000; n++) {
      const pick = (list: readonly string[]): string => list[Math.floor(rand() * list.length)];
      let text = '';
      if (rand() < 0.5) {
        // Mostly-valid shapes: [sign] (digits [. digits] unit)+, then maybe one stray character.
        text = pick(['', '', '-', '+']);
        for (let t = 1 + Math.floor(rand() * 3); t > 0; t--) {
          text += String(Math.floor(rand() * 1000)) + pick(['', '', '.', `.${Math.floor(rand() * 1000)}`]);
          text += pick(['ns', 'us', 'µs', 'ms', 's', 'm', 'h']);
        }
        if (rand() < 0.3) text += pick(alphabet);
      } else {
        for (let i = Math.floor(rand() * 12); i > 0; i--) text += pick(alphabet);
      }
      let value: bigint;
      try {
        value = parseDurationNs(text);
      } catch (err) {
        if (!(err instanceof DurationError)) throw new Error(`non-DurationError for ${JSON.stringify(text)}`);
        continue;
      }
      ok++;
      const printed = formatDurationNs(value);
      expect(parseDurationNs(printed), `${JSON.stringify(text)} via ${printed}`).toBe(value);
      // Milliseconds are floats: exact to the nanosecond well below 2^53 ns (about 104 days).
      if (value < 2n ** 50n && value > -(2n ** 50n))
        expect(formatDuration(parseDuration(printed))).toBe(printed);
    }
    expect(ok).toBeGreaterThan(900);
  });
});
