/**
 * Go's refusals of a CRD schema's `pattern`: `regexp.Compile` (regexp/syntax parse.go with the
 * Perl flags), which apiextensions-apiserver pkg/apiserver/schema/validation.go
 * `validateValueValidation` applies to `pattern` when a CRD is written, and kube-openapi
 * validate/values.go `Pattern` when a value is validated. The translation to JavaScript
 * (re2.ts) runs only on patterns this takes.
 */

const POSIX_NAMES =
  'alnum alpha ascii blank cntrl digit graph lower print punct space upper word xdigit'.split(' ');
const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c);
export const re2Error = (code: string, expr: string): { error: string } => ({
  error: `error parsing regexp: ${code}: \`${expr}\``,
});

/**
 * The error Go's `regexp.Compile` (regexp/syntax parse.go with the Perl flags) reports for a
 * pattern, for the syntax it refuses although JavaScript's RegExp takes it: lookaround groups
 * (`(?=`, `(?<!`), back references and unknown escapes (`\1`, `\k`, `\e`), `\C`, `\b` inside
 * a class, `[^]` and `[]`, unknown POSIX classes, counts above 1000, unbalanced parentheses,
 * stacked repetition. Unicode class names (`\p{Foo}`) are judged by the translation (re2.ts);
 * not checked: the product of nested counts. Returns `{}` when the pattern parses.
 */
export function re2SyntaxError(re: string): { error?: string } {
  let i = 0;
  let depth = 0;
  let canRepeat = false; // something a repetition operator can apply to is on top
  let lastRepeat = -1; // start of the repetition operator just parsed, or -1
  // parse.go `parseEscape` (also inside classes): the rune, or an error.
  const parseEscape = (at: number): { end: number; rune?: number; error?: string } => {
    const c = re[at + 1];
    if (c === undefined) return { end: at + 1, ...re2Error('trailing backslash at end of expression', '') };
    const bad = (end: number) => ({ end, ...re2Error('invalid escape sequence', re.slice(at, end)) });
    const width = String.fromCodePoint(re.codePointAt(at + 1)!).length;
    if (c.charCodeAt(0) < 0x80 && !isAlnum(c)) return { end: at + 2, rune: c.charCodeAt(0) };
    const octal = /^[0-7]{1,3}/.exec(re.slice(at + 1))?.[0] ?? '';
    // `\1`..`\7` alone would be a back reference, which RE2 does not have.
    if (c === '0' || octal.length > 1) return { end: at + 1 + octal.length, rune: Number.parseInt(octal, 8) };
    if ('afnrtv'.includes(c))
      return { end: at + 2, rune: '\x07\f\n\r\t\v'['afnrtv'.indexOf(c)]!.charCodeAt(0) };
    if (c === 'x') {
      const braced = /^\{([0-9A-Fa-f]+)\}/.exec(re.slice(at + 2));
      if (braced && Number.parseInt(braced[1]!, 16) <= 0x10ffff)
        return { end: at + 2 + braced[0].length, rune: Number.parseInt(braced[1]!, 16) };
      if (re[at + 2] === '{') {
        const stop = /[^0-9A-Fa-f]|$/.exec(re.slice(at + 3))!.index;
        return bad(Math.min(re.length, at + 4 + stop));
      }
      const two = /^[0-9A-Fa-f]{2}/.exec(re.slice(at + 2));
      return two ? { end: at + 4, rune: Number.parseInt(two[0], 16) } : bad(Math.min(re.length, at + 4));
    }
    return bad(at + 1 + width);
  };
  const perlClass = (at: number): boolean => /^\\[dDsSwW]/.test(re.slice(at));
  const unicodeClass = (at: number): { end?: number; error?: string } => {
    if (!/^\\[pP]./su.test(re.slice(at))) return {};
    if (re[at + 2] !== '{') return { end: at + 2 + String.fromCodePoint(re.codePointAt(at + 2)!).length };
    const close = re.indexOf('}', at);
    return close < 0 ? re2Error('invalid character class range', re.slice(at)) : { end: close + 1 };
  };
  // parse.go `parseClass`.
  const parseClass = (start: number): { end: number; error?: string } => {
    let t = re[start + 1] === '^' ? start + 2 : start + 1;
    for (let first = true; t >= re.length || re[t] !== ']' || first; first = false) {
      if (t >= re.length) return { end: t, ...re2Error('missing closing ]', re.slice(start)) };
      const named = re.startsWith('[:', t) ? re.indexOf(':]', t + 2) : -1;
      if (named >= 0) {
        const name = re.slice(t, named + 2);
        if (!POSIX_NAMES.includes(name.slice(2, -2).replace(/^\^/, '')))
          return { end: t, ...re2Error('invalid character class range', name) };
        t = named + 2;
        continue;
      }
      const uc = unicodeClass(t);
      if (uc.error) return { end: t, error: uc.error };
      if (uc.end !== undefined || perlClass(t)) {
        t = uc.end ?? t + 2;
        continue;
      }
      const char = (at: number): { end: number; rune?: number; error?: string } => {
        if (at >= re.length) return { end: at, ...re2Error('missing closing ]', re.slice(start)) };
        if (re[at] === '\\') return parseEscape(at);
        const cp = re.codePointAt(at)!;
        return { end: at + String.fromCodePoint(cp).length, rune: cp };
      };
      const lo = char(t);
      if (lo.error) return lo;
      let end = lo.end;
      if (re[end] === '-' && end + 1 < re.length && re[end + 1] !== ']') {
        const hi = char(end + 1);
        if (hi.error) return hi;
        if (hi.rune! < lo.rune!)
          return { end, ...re2Error('invalid character class range', re.slice(t, hi.end)) };
        end = hi.end;
      }
      t = end;
    }
    return { end: t + 1 };
  };
  while (i < re.length) {
    const c = re[i]!;
    let repeatAt = -1;
    if (c === '(' && re[i + 1] === '?') {
      const named =
        (re.length - i > 4 && re.startsWith('(?P<', i)) || (re.length - i > 3 && re[i + 2] === '<');
      if (named) {
        const close = re.indexOf('>', i);
        if (close < 0) return re2Error('invalid named capture', re.slice(i));
        const name = re.slice(i + (re[i + 2] === 'P' ? 4 : 3), close);
        if (!/^[A-Za-z0-9_]+$/.test(name)) return re2Error('invalid named capture', re.slice(i, close + 1));
        depth++;
        canRepeat = false;
        i = close + 1;
      } else {
        const flags = /^\(\?(-?[imsU]*|[imsU]+-[imsU]*)(?=[:)])/.exec(re.slice(i));
        if (!flags || flags[1]!.endsWith('-')) {
          const j = i + 2 + (/^[imsU]*-?[imsU]*/.exec(re.slice(i + 2))?.[0].length ?? 0);
          const stop = j < re.length ? j + String.fromCodePoint(re.codePointAt(j)!).length : re.length;
          return re2Error('invalid or unsupported Perl syntax', re.slice(i, stop));
        }
        if (re[i + flags[0].length] === ':') {
          depth++;
          canRepeat = false;
        }
        i += flags[0].length + 1;
      }
    } else if (c === '(' || c === '|') {
      depth += c === '(' ? 1 : 0;
      canRepeat = false;
      i++;
    } else if (c === ')') {
      if (depth === 0) return re2Error('unexpected )', re);
      depth--;
      canRepeat = true;
      i++;
    } else if (c === '[') {
      const cls = parseClass(i);
      if (cls.error) return { error: cls.error };
      canRepeat = true;
      i = cls.end;
    } else if ('*+?{'.includes(c)) {
      const m = c === '{' ? /^\{(0|[1-9][0-9]*)(,(0|[1-9][0-9]*)?)?\}/.exec(re.slice(i)) : [c];
      if (!m) {
        canRepeat = true; // parse.go: a `{` that starts no count is a literal
        lastRepeat = -1;
        i++;
        continue;
      }
      let after = i + m[0].length;
      if (c === '{') {
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
        if (min > 1000 || max > 1000 || (max >= 0 && min > max))
          return re2Error('invalid repeat count', re.slice(i, after));
      }
      if (re[after] === '?') after++;
      if (lastRepeat >= 0) return re2Error('invalid nested repetition operator', re.slice(lastRepeat, after));
      if (!canRepeat) return re2Error('missing argument to repetition operator', re.slice(i, after));
      repeatAt = i;
      i = after;
    } else if (c === '\\') {
      const next = re[i + 1];
      if (next === 'C') return re2Error('invalid escape sequence', '\\C');
      if (next === 'Q') {
        const end = re.indexOf('\\E', i + 2);
        canRepeat ||= (end < 0 ? re.length : end) > i + 2;
        lastRepeat = -1;
        i = end < 0 ? re.length : end + 2;
        continue;
      }
      const uc = unicodeClass(i);
      if (uc.error) return { error: uc.error };
      const end =
        next !== undefined && 'AbBz'.includes(next) ? i + 2 : (uc.end ?? (perlClass(i) ? i + 2 : undefined));
      const esc = end === undefined ? parseEscape(i) : { end };
      if (esc.error) return { error: esc.error };
      canRepeat = true;
      i = esc.end;
    } else {
      canRepeat = true;
      i += String.fromCodePoint(re.codePointAt(i)!).length;
    }
    lastRepeat = repeatAt;
  }
  return depth > 0 ? re2Error('missing closing )', re) : {};
}
