/**
 * RE2 patterns (Go's regexp, which kube-openapi validate/values.go `Pattern` and cel-go's
 * `matches` compile) as JavaScript RegExps that match the same strings. Go's syntax is read
 * with its own rules (regexp/syntax parse.go with the Perl flags: `parse`, `parsePerlFlags`,
 * `parseClass`, `parseEscape`, `parseUnicodeClass`, `parseNamedClass`, perl_groups.go) and
 * written out in a JavaScript form whose meaning does not hang on JavaScript's flags: `.` is
 * `[^\n]` (Go's `.` takes `\r`), `\s` `\d` `\w` and POSIX classes are their ASCII sets,
 * `(?i)` is expanded into case-folded classes (re2-fold.ts), `(?m)` anchors are lookarounds
 * on `\n` alone, `(?U)` swaps greedy and lazy repetition, `\Q...\E` are literals, `\p{Greek}`
 * is `\p{Script=Greek}`. Without `(?m)`, Go's `^` and `$` are the text's ends (`OneLine`), as
 * JavaScript's are without its `m` flag. The source is read with the `u` flag (runes, as Go).
 *
 * Unicode class names are Go 1.24's (the Go of Kubernetes 1.33): `Any`, unicode.Categories
 * (not `LC` or `Cn`) and unicode.Scripts, spelled exactly; Go 1.25's aliases and loose
 * spelling (`\p{Letter}`, `\p{greek}`) are refused, as 1.24 refuses them. Not the same as Go:
 * JavaScript also takes a script's short alias (`\p{Grek}`), which Go refuses; the two follow
 * their own Unicode versions; `\x{D800}` (a surrogate) matches a lone surrogate here, nothing
 * in Go, whose strings are UTF-8.
 */
import { setFlagsFromString } from 'node:v8';
import { bracketClass, classSource, escapedRune, PERL, rangesSource, unicodeClass } from './re2-class.js';
import { escapeRune, orbitOf } from './re2-fold.js';
import { re2SyntaxError } from './re2-syntax.js';

/** A pattern in JavaScript (`new RegExp(body, flags)`), or Go's reason for refusing it. */
export type Re2Translation = { body: string; flags: string } | { error: string };

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

/** A literal rune; under `(?i)` the class of its case-folding orbit. */
function literal(cp: number, fold: boolean): string {
  const orbit = fold ? orbitOf(cp) : [cp];
  return orbit.length > 1 ? `[${orbit.map((c) => escapeRune(c, true)).join('')}]` : escapeRune(cp);
}

/**
 * `source` (Go's RE2 syntax) as a JavaScript pattern for the `u` flag, or Go's refusal in
 * `regexp.Compile`'s words (re2-syntax.ts, and unknown Unicode class names here).
 */
export function re2ToJs(source: string): Re2Translation {
  const syntax = re2SyntaxError(source);
  if (syntax.error !== undefined) return { error: syntax.error };
  const re = source;
  let out = '';
  let flags: Flags = { i: false, m: false, s: false, U: false };
  const groups: Array<{ flags: Flags; start: number }> = [];
  let atom = -1; // where in `out` the atom a repetition applies to starts
  let assertion = false; // that atom is an assertion, which JavaScript repeats only in a group
  const push = (src: string, isAssertion = false): void => {
    atom = out.length;
    assertion = isAssertion;
    out += src;
  };
  let i = 0;
  while (i < re.length) {
    const c = re[i]!;
    if (c === '(') {
      const named = /^\(\?P?<[A-Za-z0-9_]+>/.exec(re.slice(i));
      const flagGroup = named ? null : /^\(\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(re.slice(i));
      i += named ? named[0].length : flagGroup ? flagGroup[0].length : 1;
      const inner = { ...flags };
      for (const f of flagGroup?.[1] ?? '') inner[f as keyof Flags] = true;
      for (const f of flagGroup?.[2] ?? '') inner[f as keyof Flags] = false;
      // `(?i)` changes the flags to the end of the enclosing group; `(?i:` only inside its own.
      if (flagGroup?.[3] === ')') {
        flags = inner;
        continue;
      }
      groups.push({ flags, start: out.length });
      flags = inner;
      // Names are Go's business only; a capture is a capture (JavaScript refuses names like `1a`).
      out += flagGroup ? '(?:' : '(';
      atom = -1;
    } else if (c === ')') {
      const group = groups.pop()!;
      flags = group.flags;
      out += ')';
      atom = group.start;
      assertion = false;
      i++;
    } else if (c === '|') {
      out += '|';
      atom = -1;
      i++;
    } else if (c === '^' || c === '$') {
      // parse.go: `^`/`$` are the text's ends (OneLine) unless `(?m)`, then also at a `\n`.
      push(flags.m ? (c === '^' ? '(?<![^\\n])' : '(?![^\\n])') : c, true);
      i++;
    } else if (c === '.') {
      push(flags.s ? '[^]' : '[^\\n]');
      i++;
    } else if ('*+?{'.includes(c)) {
      const count = c === '{' ? /^\{(0|[1-9][0-9]*)(,(0|[1-9][0-9]*)?)?\}/.exec(re.slice(i)) : [c];
      if (count === null) {
        push(literal(0x7b, false)); // a `{` that starts no count is a literal
        i++;
        continue;
      }
      i += count[0].length;
      let lazy = re[i] === '?';
      if (lazy) i++;
      if (flags.U) lazy = !lazy;
      if (assertion) out = `${out.slice(0, atom)}(?:${out.slice(atom)})`;
      assertion = false;
      out += count[0] + (lazy ? '?' : '');
    } else if (c === '[') {
      const cls = bracketClass(re, i, flags.i);
      if ('error' in cls) return cls;
      push(cls.source);
      i = cls.end;
    } else if (c === '\\') {
      const next = re[i + 1]!;
      if ('AzbB'.includes(next)) {
        // `\b` is an ASCII word boundary in Go, as in JavaScript without `i`.
        push(next === 'A' ? '^' : next === 'z' ? '$' : `\\${next}`, true);
        i += 2;
      } else if (next === 'Q') {
        const close = re.indexOf('\\E', i + 2);
        const text = re.slice(i + 2, close < 0 ? re.length : close);
        for (const ch of text) push(literal(ch.codePointAt(0)!, flags.i));
        i = close < 0 ? re.length : close + 2;
      } else if (/[dswDSW]/.test(next)) {
        const set = PERL[next.toLowerCase()]!;
        push(classSource([rangesSource(set)], next !== next.toLowerCase(), flags.i, true));
        i += 2;
      } else if (next === 'p' || next === 'P') {
        const u = unicodeClass(re, i);
        if ('error' in u) return u;
        push(classSource([u.items], u.negated, flags.i, false));
        i = u.end;
      } else {
        const e = escapedRune(re, i);
        push(literal(e.rune, flags.i));
        i = e.end;
      }
    } else {
      const cp = re.codePointAt(i)!;
      push(literal(cp, flags.i));
      i += String.fromCodePoint(cp).length;
    }
  }
  return { body: out, flags: 'u' };
}

/**
 * Whether V8's linear-time regexp engine is available: the `l` flag, behind
 * `--enable-experimental-regexp-engine` (which only makes that flag available; no other
 * RegExp changes). Go's regexp, like RE2, matches in linear time; JavaScript's default engine
 * backtracks, so `^(a+)+$` on 30 characters takes seconds and each more doubles it.
 */
export const LINEAR_REGEXP_ENGINE: boolean = (() => {
  try {
    setFlagsFromString('--enable-experimental-regexp-engine');
    // A variable flag: a literal `/a/l` would not parse where the engine is absent.
    const linear = 'l';
    return new RegExp('a', linear).test('a');
  } catch {
    return false;
  }
})();

/**
 * `body` on the linear-time engine, when it takes the pattern (no Unicode property classes or
 * astral runes, which need `u`, which that engine lacks; no lookarounds, which `(?m)` anchors
 * use); it reads code units, so use it only where {@link readsAsRunes} says the input reads the
 * same. The translation's source otherwise reads the same with and without `u`.
 */
export function linearVariant(body: string, flags: string): RegExp | undefined {
  if (!LINEAR_REGEXP_ENGINE || !/^[\x20-\x7e]*$/.test(body) || /\\[pP]|\\u\{/.test(body)) return undefined;
  try {
    return new RegExp(body, `${flags.replace('u', '')}l`);
  } catch {
    return undefined;
  }
}

/** Whether a pattern without `u` reads `input` as with `u`: no surrogate pairs to split. */
export function readsAsRunes(input: string, flags: string): boolean {
  return !flags.includes('u') || !/[\uD800-\uDFFF]/.test(input);
}

/** A compiled pattern: `test` runs on the linear-time engine where it can. */
export function compileRe2(source: string): { regexp: RegExp } | { error: string } {
  const js = re2ToJs(source);
  if ('error' in js) return js;
  let regexp: RegExp;
  try {
    regexp = new RegExp(js.body, js.flags);
  } catch (err) {
    return { error: (err as Error).message };
  }
  const linear = linearVariant(js.body, js.flags);
  if (linear !== undefined) {
    const backtracking = regexp.test.bind(regexp);
    regexp.test = (input: string): boolean =>
      readsAsRunes(input, js.flags) ? linear.test(input) : backtracking(input);
  }
  return { regexp };
}
