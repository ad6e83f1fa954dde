/**
 * A CronJob's schedule as kube-apiserver parses it (pkg/util/parsers
 * `ParseCronScheduleWithPanicRecovery`, which runs github.com/robfig/cron/v3 `ParseStandard`):
 * five fields or a descriptor (`@daily`, `@every 1h`), an optional `TZ=`/`CRON_TZ=` prefix.
 * Only whether it parses matters here, and the parser's own error text, which validation
 * reports; the schedule itself is the CronJob controller's business.
 */

import { goQuote } from '../field-value.js';

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = {
  min: 1,
  max: 12,
  names: {
    jan: 1,
    feb: 2,
    mar: 3,
    apr: 4,
    may: 5,
    jun: 6,
    jul: 7,
    aug: 8,
    sep: 9,
    oct: 10,
    nov: 11,
    dec: 12,
  },
};
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

const DESCRIPTORS = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
]);

/** Go's `strings.Fields`: split on runs of Unicode white space. */
function goFields(s: string): string[] {
  return s.split(/[\s\u0085\u00a0]+/u).filter((f) => f !== '');
}

/** `strconv.Atoi`'s errors, as `mustParseInt` wraps them. */
function parseUint(expr: string): number {
  if (!/^[+-]?[0-9]+$/.test(expr)) {
    throw new Error(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`,
    );
  }
  const n = Number(expr);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63 - 1) {
    throw new Error(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: value out of range`,
    );
  }
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, r: Bounds): number {
  const named = r.names?.[expr.toLowerCase()];
  return named ?? parseUint(expr);
}

/** cron's `getRange`: one `a`, `a-b`, `*`, each with an optional `/step`. */
function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseUint(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < r.min) throw new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

/** Go's `time.LoadLocation` as far as names go: "" and UTC, and the IANA names the zone database has. */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    // Intl matches names in any case; Go opens the zoneinfo file, whose name is case-sensitive.
    if (resolved.toLowerCase() === name.toLowerCase() && resolved !== name) throw new RangeError(name);
    return undefined;
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return `unknown time zone ${name}`;
  }
}

/** `time.ParseDuration`'s verdict on `@every`'s duration, as the parser words a failure. */
function checkDuration(descriptor: string, text: string): void {
  const units = ['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h'];
  const fail = (why: string) => {
    throw new Error(`failed to parse duration ${descriptor}: time: ${why}`);
  };
  let s = text;
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return;
  if (s === '') fail(`invalid duration ${goQuote(text)}`);
  while (s !== '') {
    const m = /^([0-9]*)(\.[0-9]*)?/.exec(s)!;
    if (m[0] === '' || m[0] === '.') fail(`invalid duration ${goQuote(text)}`);
    s = s.slice(m[0].length);
    const u = /^[^0-9.]*/.exec(s)![0];
    if (u === '') fail(`missing unit in duration ${goQuote(text)}`);
    if (!units.includes(u)) fail(`unknown unit ${goQuote(u)} in duration ${goQuote(text)}`);
    s = s.slice(u.length);
  }
}

/**
 * The error `cron.ParseStandard(schedule)` returns, or undefined when it parses. A panic of the
 * parser (a `TZ=` prefix without a space after it) is reported as the recovery words it.
 */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    parseStandard(schedule);
    return undefined;
  } catch (err) {
    if (err instanceof Error) return err.message;
    throw err;
  }
}

function parseStandard(input: string): void {
  let spec = input;
  if (spec.length === 0) throw new Error('empty spec string');
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    if (space < 0) throw new Error('invalid schedule format: runtime error: slice bounds out of range [:-1]');
    if (space < eq + 1) {
      throw new Error(
        `invalid schedule format: runtime error: slice bounds out of range [${eq + 1}:${space}]`,
      );
    }
    const zone = spec.slice(eq + 1, space);
    const bad = loadLocationError(zone);
    if (bad) throw new Error(`provided bad location ${zone}: ${bad}`);
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    if (DESCRIPTORS.has(spec)) return;
    if (!spec.startsWith('@every ')) throw new Error(`unrecognized descriptor: ${spec}`);
    checkDuration(spec, spec.slice('@every '.length));
    return;
  }
  const fields = goFields(spec);
  if (fields.length !== 5)
    throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const bounds = [MINUTES, HOURS, DOM, MONTHS, DOW];
  fields.forEach((field, i) => {
    for (const expr of field.split(',').filter((e) => e !== '')) checkRange(expr, bounds[i]!);
  });
}
