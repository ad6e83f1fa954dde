/**
 * Go's character classes in JavaScript: bracketed classes (regexp/syntax parse.go
 * `parseClass`), Perl and POSIX classes (perl_groups.go, ASCII only), Unicode classes
 * (`parseUnicodeClass`) and escaped runes (`parseEscape`), each as a class that means the same
 * with JavaScript's `u` flag. Under `(?i)` a class is folded before it is negated, as Go does
 * (re2-fold.ts). The pattern around them is re2.ts's.
 */
import { escapeRune, foldExtras } from './re2-fold.js';
import { re2Error } from './re2-syntax.js';

export type Ranges = ReadonlyArray<readonly [number, number]>;
const r = (s: string): Ranges =>
  s.split(' ').map((p) => [p.codePointAt(0)!, p.codePointAt(p.length - 1)!] as const);
/** perl_groups.go `perlGroup` and `posixGroup`: ASCII only, whatever the input's runes. */
export const PERL: Record<string, Ranges> = {
  d: r('09'),
  s: [
    [0x09, 0x0a],
    [0x0c, 0x0d],
    [0x20, 0x20],
  ],
  w: r('09 AZ __ az'),
};
const POSIX: Record<string, Ranges> = {
  alnum: r('09 AZ az'),
  alpha: r('AZ az'),
  ascii: [[0, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: r('09'),
  graph: r('!~'),
  lower: r('az'),
  print: [[0x20, 0x7e]],
  punct: r('!/ :@ [` {~'),
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: r('AZ'),
  word: r('09 AZ __ az'),
  xdigit: r('09 AF af'),
};
/** Go's unicode.Categories: JavaScript's General_Category values, but `C` leaves out Cn. */
const CATEGORIES = new Set(
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(
    ' ',
  ),
);

function complement(ranges: Ranges): Ranges {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

export const rangesSource = (ranges: Ranges): string =>
  ranges.map(([lo, hi]) => escapeRune(lo, true) + (hi > lo ? `-${escapeRune(hi, true)}` : '')).join('');

/**
 * A class of `items` (class-body sources), folded under `(?i)` before it is negated, as Go
 * does; `ascii`: the items hold ASCII runes only.
 */
export function classSource(items: string[], negated: boolean, fold: boolean, ascii: boolean): string {
  let body = items.join('');
  if (fold) {
    const member = new RegExp(`^[${body}]$`, 'u');
    body += foldExtras((cp) => member.test(String.fromCodePoint(cp)), ascii)
      .map((cp) => escapeRune(cp, true))
      .join('');
  }
  return `[${negated ? '^' : ''}${body}]`;
}

/** parse.go `parseEscape` on a pattern Go takes: the rune an escape stands for. */
export function escapedRune(re: string, at: number): { rune: number; end: number } {
  const c = re[at + 1]!;
  const octal = /^[0-7]{1,3}/.exec(re.slice(at + 1))?.[0] ?? '';
  if (octal !== '' && (c === '0' || octal.length > 1))
    return { rune: Number.parseInt(octal, 8), end: at + 1 + octal.length };
  if (c === 'x') {
    const braced = /^\{([0-9A-Fa-f]+)\}/.exec(re.slice(at + 2));
    if (braced) return { rune: Number.parseInt(braced[1]!, 16), end: at + 2 + braced[0].length };
    return { rune: Number.parseInt(re.slice(at + 2, at + 4), 16), end: at + 4 };
  }
  const i = 'afnrtv'.indexOf(c);
  if (i >= 0) return { rune: [7, 12, 10, 13, 9, 11][i]!, end: at + 2 };
  const rune = re.codePointAt(at + 1)!;
  return { rune, end: at + 1 + String.fromCodePoint(rune).length };
}

/** parse.go `parseUnicodeClass` at `\p`/`\P`: the positive set's class-body source, and its sign. */
export function unicodeClass(
  re: string,
  at: number,
): { end: number; items: string; negated: boolean } | { error: string } {
  let negated = re[at + 1] === 'P';
  let end: number;
  let name: string;
  if (re[at + 2] === '{') {
    end = re.indexOf('}', at) + 1;
    name = re.slice(at + 3, end - 1);
  } else {
    name = String.fromCodePoint(re.codePointAt(at + 2)!);
    end = at + 2 + name.length;
  }
  if (name.startsWith('^')) {
    negated = !negated;
    name = name.slice(1);
  }
  const items =
    name === 'Any'
      ? '\\u0000-\\u{10ffff}'
      : name === 'C'
        ? '\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}'
        : CATEGORIES.has(name)
          ? `\\p{${name}}`
          : `\\p{Script=${name}}`;
  try {
    if (name === '' || !/^[A-Za-z_]+$/.test(name)) throw new Error(name);
    new RegExp(`[${items}]`, 'u');
  } catch {
    return re2Error('invalid character class range', re.slice(at, end));
  }
  return { end, items, negated };
}

/**
 * The complement of a Unicode class's items, inside brackets: `\P{X}`; Go's `C` (Cc, Cf, Co,
 * Cs) is JavaScript's `C` without Cn, so its complement is `\P{C}` and Cn. Under `(?i)` Go
 * folds the class before it negates it (parse.go `parseUnicodeClass`), which a JavaScript class
 * cannot say without set subtraction: that complement is spelled out as ranges, from a scan of
 * all runes (some 100 ms, for a construct as rare as `(?i)[\PL]`).
 */
function negatedItems(items: string, fold: boolean): string {
  if (fold) {
    const member = new RegExp(`^[${items}]$`, 'u');
    const extras = new Set(foldExtras((cp) => member.test(String.fromCodePoint(cp))));
    const ranges: Array<[number, number]> = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (extras.has(cp) || member.test(String.fromCodePoint(cp))) continue;
      const last = ranges[ranges.length - 1];
      if (last !== undefined && last[1] === cp - 1) last[1] = cp;
      else ranges.push([cp, cp]);
    }
    return rangesSource(ranges);
  }
  if (items.startsWith('\\u0000')) return '';
  if (items.startsWith('\\p{Cc}')) return '\\P{C}\\p{Cn}';
  return items.replace('\\p', '\\P');
}

/** parse.go `parseClass` on a pattern Go takes: `[...]` at `start` in JavaScript. */
export function bracketClass(
  re: string,
  start: number,
  fold: boolean,
): { end: number; source: string } | { error: string } {
  let t = start + 1;
  const negated = re[t] === '^';
  if (negated) t++;
  const items: string[] = [];
  let ascii = true;
  for (let first = true; first || re[t] !== ']'; first = false) {
    const posix = re.startsWith('[:', t) ? re.indexOf(':]', t + 2) : -1;
    if (posix >= 0) {
      const name = re.slice(t + 2, posix);
      const set = POSIX[name.replace(/^\^/, '')]!;
      ascii &&= !name.startsWith('^');
      items.push(rangesSource(name.startsWith('^') ? complement(set) : set));
      t = posix + 2;
      continue;
    }
    const perl = re[t] === '\\' ? PERL[re[t + 1]!.toLowerCase()] : undefined;
    if (perl !== undefined && /[dswDSW]/.test(re[t + 1]!)) {
      const negatedPerl = re[t + 1] === re[t + 1]!.toUpperCase();
      ascii &&= !negatedPerl;
      items.push(rangesSource(negatedPerl ? complement(perl) : perl));
      t += 2;
      continue;
    }
    if (re[t] === '\\' && (re[t + 1] === 'p' || re[t + 1] === 'P')) {
      const u = unicodeClass(re, t);
      if ('error' in u) return u;
      ascii = false;
      items.push(u.negated ? negatedItems(u.items, fold) : u.items);
      t = u.end;
      continue;
    }
    const rune = (at: number) =>
      re[at] === '\\'
        ? escapedRune(re, at)
        : { rune: re.codePointAt(at)!, end: at + String.fromCodePoint(re.codePointAt(at)!).length };
    const lo = rune(t);
    ascii &&= lo.rune < 0x80;
    if (re[lo.end] === '-' && re[lo.end + 1] !== ']') {
      const hi = rune(lo.end + 1);
      ascii &&= hi.rune < 0x80;
      items.push(`${escapeRune(lo.rune, true)}-${escapeRune(hi.rune, true)}`);
      t = hi.end;
    } else {
      items.push(escapeRune(lo.rune, true));
      t = lo.end;
    }
  }
  return { end: t + 1, source: classSource(items, negated, fold, ascii) };
}
