/**
 * A CronJob's schedule as github.com/robfig/cron/v3 reads it (`ParseStandard`, which
 * kube-apiserver's validation and kube-controller-manager's CronJob controller both call through
 * pkg/util/parsers `ParseCronScheduleWithPanicRecovery`): five fields or a descriptor (`@daily`,
 * `@every 1h`), an optional `TZ=`/`CRON_TZ=` prefix; a parse error carries the parser's own
 * words. `next` is `SpecSchedule.Next`: the first whole second after a time whose wall clock, in
 * the schedule's zone, matches every field (day of month or of week: either, unless one of them
 * is `*`). Wall clocks in a zone come from Intl; a time inside a daylight-saving gap or overlap
 * resolves to the zone's offset just before the change, where Go's `time.Date` may pick the other.
 */

/** A parsed schedule. */
export interface CronSchedule {
  /** The first activation strictly after `ms` (epoch milliseconds); undefined when none within five years. */
  next(ms: number): number | undefined;
}

/** How the parser quotes text in its messages (Go's `strconv.Quote`; the server passes its exact one). */
export type Quote = (s: string) => string;

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

/** A field's values as a bit set; `star` when written `*` or `?` (with no step above 1). */
interface Field {
  bits: bigint;
  star: boolean;
}

const one = (n: number) => 1n << BigInt(n);

function all(r: Bounds): Field {
  return { bits: bitsBetween(r.min, r.max, 1), star: true };
}

function bitsBetween(min: number, max: number, step: number): bigint {
  let b = 0n;
  for (let i = min; i <= max; i += step) b |= one(i);
  return b;
}

/** Go's `strings.Fields`: split on runs of Unicode white space. */
function goFields(s: string): string[] {
  return s.split(/[\s\u0085\u00a0]+/u).filter((f) => f !== '');
}

/** `strconv.Atoi`'s errors, as `mustParseInt` wraps them. */
function parseUint(expr: string, quote: Quote): number {
  if (!/^[+-]?[0-9]+$/.test(expr)) {
    throw new Error(`failed to parse int from ${expr}: strconv.Atoi: parsing ${quote(expr)}: invalid syntax`);
  }
  const n = Number(expr);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63 - 1) {
    throw new Error(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${quote(expr)}: value out of range`,
    );
  }
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, r: Bounds, quote: Quote): number {
  return r.names?.[expr.toLowerCase()] ?? parseUint(expr, quote);
}

/** cron's `getRange`: one `a`, `a-b`, `*`, each with an optional `/step`. */
function getRange(expr: string, r: Bounds, quote: Quote): Field {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r, quote);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r, quote);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseUint(rangeAndStep[1]!, quote);
    // `N/step` means `N-max/step`.
    if (lowAndHigh.length === 1) end = r.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < r.min) throw new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
  return { bits: bitsBetween(start, end, step), star };
}

function getField(field: string, r: Bounds, quote: Quote): Field {
  const out: Field = { bits: 0n, star: false };
  for (const expr of field.split(',').filter((e) => e !== '')) {
    const f = getRange(expr, r, quote);
    out.bits |= f.bits;
    out.star ||= f.star;
  }
  return out;
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

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** `time.ParseDuration` of `@every`'s duration, in milliseconds, as the parser words a failure. */
function parseDuration(descriptor: string, text: string, quote: Quote): number {
  const fail = (why: string): never => {
    throw new Error(`failed to parse duration ${descriptor}: time: ${why}`);
  };
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s.startsWith('-')) sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') fail(`invalid duration ${quote(text)}`);
  let total = 0;
  while (s !== '') {
    const m = /^([0-9]*)(\.[0-9]*)?/.exec(s)!;
    if (m[0] === '' || m[0] === '.') fail(`invalid duration ${quote(text)}`);
    s = s.slice(m[0].length);
    const u = /^[^0-9.]*/.exec(s)![0];
    if (u === '') fail(`missing unit in duration ${quote(text)}`);
    const scale = DURATION_UNITS[u];
    if (scale === undefined) fail(`unknown unit ${quote(u)} in duration ${quote(text)}`);
    total += Number(m[0]) * scale!;
    s = s.slice(u.length);
  }
  return sign * total;
}

/**
 * Parses a schedule (`ParseStandard`); throws an Error with the parser's message. A `TZ=` prefix
 * without a space after it is the panic `ParseCronScheduleWithPanicRecovery` reports.
 */
export function parseCronSchedule(input: string, quote: Quote = JSON.stringify): CronSchedule {
  let spec = input;
  let zone = 'UTC';
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
    zone = spec.slice(eq + 1, space);
    const bad = loadLocationError(zone);
    if (bad) throw new Error(`provided bad location ${zone}: ${bad}`);
    if (zone === '' || zone === 'Local') zone = 'UTC';
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) return descriptor(spec, zone, quote);
  const fields = goFields(spec);
  if (fields.length !== 5)
    throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  return specSchedule(
    {
      second: { bits: one(0), star: false },
      minute: getField(fields[0]!, MINUTES, quote),
      hour: getField(fields[1]!, HOURS, quote),
      dom: getField(fields[2]!, DOM, quote),
      month: getField(fields[3]!, MONTHS, quote),
      dow: getField(fields[4]!, DOW, quote),
    },
    zone,
  );
}

function descriptor(spec: string, zone: string, quote: Quote): CronSchedule {
  const at = (minute: Field, hour: Field, dom: Field, month: Field, dow: Field) =>
    specSchedule({ second: { bits: one(0), star: false }, minute, hour, dom, month, dow }, zone);
  const zero: Field = { bits: one(0), star: false };
  const first: Field = { bits: one(1), star: false };
  switch (spec) {
    case '@yearly':
    case '@annually':
      return at(zero, zero, first, first, all(DOW));
    case '@monthly':
      return at(zero, zero, first, all(MONTHS), all(DOW));
    case '@weekly':
      return at(zero, zero, all(DOM), all(MONTHS), zero);
    case '@daily':
    case '@midnight':
      return at(zero, zero, all(DOM), all(MONTHS), all(DOW));
    case '@hourly':
      return at(zero, all(HOURS), all(DOM), all(MONTHS), all(DOW));
  }
  if (!spec.startsWith('@every ')) throw new Error(`unrecognized descriptor: ${spec}`);
  // `Every`: at least a second, whole seconds; `Next` adds it to the time with its fraction dropped.
  const delay = Math.max(
    1000,
    Math.floor(parseDuration(spec, spec.slice('@every '.length), quote) / 1000) * 1000,
  );
  return { next: (ms) => Math.floor(ms / 1000) * 1000 + delay };
}

interface Spec {
  second: Field;
  minute: Field;
  hour: Field;
  dom: Field;
  month: Field;
  dow: Field;
}

/** Wall-clock fields in a zone (`month` 1-12, `weekday` 0 = Sunday). */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function formatter(zone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
}

function wallOf(fmt: Intl.DateTimeFormat, ms: number): Wall {
  const p: Record<string, number> = {};
  for (const part of fmt.formatToParts(new Date(ms)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}

/** The instant a wall time in the zone names (the offset in force just before it, for a gap). */
function instantOf(fmt: Intl.DateTimeFormat, w: Wall): number {
  const naive = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const offsetAt = (ms: number) => {
    const x = wallOf(fmt, ms);
    return Date.UTC(x.year, x.month - 1, x.day, x.hour, x.minute, x.second) - ms;
  };
  const first = naive - offsetAt(naive);
  const second = naive - offsetAt(first);
  return Math.min(first, second);
}

/** `SpecSchedule.Next`, walking wall-clock fields (see the module comment). */
function specSchedule(s: Spec, zone: string): CronSchedule {
  const fmt = formatter(zone);
  const has = (f: Field, n: number) => (f.bits & one(n)) !== 0n;
  const dayMatches = (w: Wall) => {
    const dow = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
    const domMatch = has(s.dom, w.day);
    const dowMatch = has(s.dow, dow);
    return s.dom.star || s.dow.star ? domMatch && dowMatch : domMatch || dowMatch;
  };
  return {
    next(ms) {
      // Walk on a naive UTC calendar holding the zone's wall clock.
      const start = wallOf(fmt, Math.floor(ms / 1000) * 1000 + 1000);
      let t = new Date(
        Date.UTC(start.year, start.month - 1, start.day, start.hour, start.minute, start.second),
      );
      const yearLimit = start.year + 5;
      let added = false;
      const set = (y: number, mo: number, d: number, h: number, mi: number, sec: number) => {
        t = new Date(Date.UTC(y, mo, d, h, mi, sec));
      };
      wrap: for (;;) {
        if (t.getUTCFullYear() > yearLimit) return undefined;
        while (!has(s.month, t.getUTCMonth() + 1)) {
          if (!added) {
            added = true;
            set(t.getUTCFullYear(), t.getUTCMonth(), 1, 0, 0, 0);
          }
          set(t.getUTCFullYear(), t.getUTCMonth() + 1, 1, 0, 0, 0);
          if (t.getUTCMonth() === 0) continue wrap;
        }
        while (
          !dayMatches({
            year: t.getUTCFullYear(),
            month: t.getUTCMonth() + 1,
            day: t.getUTCDate(),
            hour: 0,
            minute: 0,
            second: 0,
          })
        ) {
          if (!added) {
            added = true;
            set(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), 0, 0, 0);
          }
          set(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() + 1, 0, 0, 0);
          if (t.getUTCDate() === 1) continue wrap;
        }
        while (!has(s.hour, t.getUTCHours())) {
          if (!added) {
            added = true;
            set(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours(), 0, 0);
          }
          t = new Date(t.getTime() + 3_600_000);
          if (t.getUTCHours() === 0) continue wrap;
        }
        while (!has(s.minute, t.getUTCMinutes())) {
          if (!added) {
            added = true;
            t = new Date(Math.floor(t.getTime() / 60_000) * 60_000);
          }
          t = new Date(t.getTime() + 60_000);
          if (t.getUTCMinutes() === 0) continue wrap;
        }
        while (!has(s.second, t.getUTCSeconds())) {
          if (!added) added = true;
          t = new Date(t.getTime() + 1000);
          if (t.getUTCSeconds() === 0) continue wrap;
        }
        return instantOf(fmt, {
          year: t.getUTCFullYear(),
          month: t.getUTCMonth() + 1,
          day: t.getUTCDate(),
          hour: t.getUTCHours(),
          minute: t.getUTCMinutes(),
          second: t.getUTCSeconds(),
        });
      }
    },
  };
}
