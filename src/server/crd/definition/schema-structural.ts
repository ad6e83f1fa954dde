/**
 * Whether a CRD's `openAPIV3Schema` is structural, on the v1 JSON, worded as
 * k8s.io/apiextensions-apiserver reports it: `NewStructural`'s refusals
 * (pkg/apiserver/schema/convert.go) and `ValidateStructural`
 * (pkg/apiserver/schema/validation.go: `validateStructuralInvariants`,
 * `validateStructuralMetadataInvariants`, `validateNestedValueValidation`;
 * complete.go: `validateStructuralCompleteness`).
 *
 * This is the CRD API's admission rule, not the schema engine: the engine
 * that validates, prunes and defaults custom resources lives beside it
 * (structural*, validate*, prune*, default*).
 */
import { arr, isObject, type JsonObject, rec, str } from '../../kinds/access.js';
import type { FieldError } from '../../kinds/types.js';
import { compileStructural } from '../schema/structural.js';
import { forbidden, invalid, key, required } from './errors.js';

type Level = 'root' | 'item' | 'field';

const sortedKeys = (v: unknown): string[] => Object.keys(rec(v)).sort();
/** Go's zero value for the JSON forms a schema field takes. */
const isZero = (v: unknown): boolean => v === undefined || v === null || v === false || v === '';
const has = (s: JsonObject, k: string): boolean => !isZero(s[k]);

/**
 * `NewStructural`'s error for a schema it cannot even convert, or undefined.
 * Upstream walks properties in map order; this walks them sorted.
 */
export function newStructuralError(s: unknown): string | undefined {
  if (!isObject(s)) return undefined;
  // validateUnsupportedFields
  const unsupported: Array<[string, string]> = [
    ['id', 'id'],
    ['$schema', 'schema'],
    ['$ref', '$ref'],
    ['patternProperties', 'patternProperties'],
    ['dependencies', 'dependencies'],
    ['additionalItems', 'additionalItems'],
    ['definitions', 'definitions'],
  ];
  for (const [field, name] of unsupported) {
    const v = s[field];
    const set = isObject(v)
      ? Object.keys(v).length > 0 || field === 'dependencies' || field === 'additionalItems'
      : !isZero(v);
    if (set) return `OpenAPIV3Schema '${name}' is not supported`;
  }
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const sub of arr(s[k])) {
      const e = newStructuralError(sub);
      if (e) return e;
    }
  }
  if (isObject(s.not)) {
    const e = newStructuralError(s.not);
    if (e) return e;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  if (Array.isArray(s.items) && s.items.length > 0)
    return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const children = [
    s.items,
    ...sortedKeys(s.properties).map((k) => rec(s.properties)[k]),
    isObject(s.additionalProperties) ? s.additionalProperties : undefined,
  ];
  for (const child of children) {
    const e = newStructuralError(child);
    if (e) return e;
  }
  return undefined;
}

/** `intOrStringAnyOf`: `anyOf: [{type: integer}, {type: string}]` and nothing else in either. */
function isIntOrStringAnyOf(anyOf: unknown): boolean {
  const a = arr(anyOf);
  const only = (v: unknown, type: string): boolean =>
    isObject(v) && v.type === type && Object.keys(v).every((k) => k === 'type' || isZero(v[k]));
  return a.length === 2 && only(a[0], 'integer') && only(a[1], 'string');
}

/** `validateValueValidation`: the anyOf/allOf/oneOf/not of one schema, and its pattern. */
function valueValidation(
  s: JsonObject,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf)
    arr(s.anyOf).forEach((v, i) => {
      errs.push(...nested(v, false, `${path}.anyOf[${i}]`));
    });
  arr(s.allOf).forEach((v, i) => {
    errs.push(...nested(v, skipFirstAllOfAnyOf && i === 0, `${path}.allOf[${i}]`));
  });
  arr(s.oneOf).forEach((v, i) => {
    errs.push(...nested(v, false, `${path}.oneOf[${i}]`));
  });
  if (isObject(s.not)) errs.push(...nested(s.not, false, `${path}.not`));
  if (str(s.pattern) !== '') {
    // validation.go `regexp.Compile(v.Pattern)`: RE2's refusals in Go's words (re2SyntaxError),
    // then whatever the engine's RE2-to-JavaScript translation cannot compile (its own words).
    const compiled = compileStructural({ pattern: str(s.pattern) }).pattern;
    const error =
      re2SyntaxError(str(s.pattern)).error ??
      (compiled !== undefined && 'error' in compiled ? compiled.error : undefined);
    if (error !== undefined)
      errs.push(
        invalid(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${error}`),
      );
  }
  return errs;
}

/** `validateNestedValueValidation`: inside anyOf/allOf/oneOf/not only value validations may appear. */
function nested(vIn: unknown, skipAnyOf: boolean, path: string): FieldError[] {
  if (!isObject(vIn)) return [];
  const v = vIn;
  const errs = valueValidation(v, skipAnyOf, false, path);
  if (isObject(v.items)) errs.push(...nested(v.items, false, `${path}.items`));
  for (const k of sortedKeys(v.properties))
    errs.push(...nested(rec(v.properties)[k], false, key(`${path}.properties`, k)));
  if (has(v, 'type')) errs.push(forbidden(`${path}.type`, 'must be empty to be structural'));
  if (v.additionalProperties === true || isObject(v.additionalProperties)) {
    errs.push(forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  }
  if (v.default !== undefined && v.default !== null)
    errs.push(forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (has(v, 'title')) errs.push(forbidden(`${path}.title`, 'must be empty to be structural'));
  if (has(v, 'description')) errs.push(forbidden(`${path}.description`, 'must be empty to be structural'));
  if (v.nullable === true) errs.push(forbidden(`${path}.nullable`, 'must be false to be structural'));
  for (const x of [
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-int-or-string',
  ]) {
    if (v[x] === true) errs.push(forbidden(`${path}.${x}`, 'must be false to be structural'));
  }
  if (arr(v['x-kubernetes-list-map-keys']).length > 0) {
    errs.push(forbidden(`${path}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  }
  if (typeof v['x-kubernetes-list-type'] === 'string') {
    errs.push(forbidden(`${path}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  }
  if (typeof v['x-kubernetes-map-type'] === 'string') {
    errs.push(forbidden(`${path}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  }
  if (arr(v['x-kubernetes-validations']).length > 0) {
    errs.push(forbidden(`${path}.x-kubernetes-validations`, 'must be empty to be structural'));
  }
  if (isObject(v.properties) && 'metadata' in v.properties) {
    errs.push(forbidden(key(`${path}.properties`, 'metadata'), 'must not be specified in a nested context'));
  }
  return errs;
}

/** `validateStructuralMetadataInvariants`: at the root, metadata may only narrow name and generateName. */
function metadataInvariants(m: JsonObject, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && str(m.type) !== 'object')
    errs.push(invalid(`${path}.type`, str(m.type), 'must be object'));
  if (lvl === 'root') {
    const props = sortedKeys(m.properties);
    const onlyNames = props.every((p) => p === 'name' || p === 'generateName');
    const extra = Object.keys(m).filter((k) => {
      // type and default are cleared before the comparison; `NewStructural` never copies example.
      if (k === 'type' || k === 'default' || k === 'example') return false;
      if (k === 'properties') return props.length > 0 && !onlyNames;
      // Any list, even an empty one, is a non-nil slice and so differs from the zero value.
      return !isZero(m[k]);
    });
    if (extra.length > 0) {
      errs.push(
        forbidden(
          path,
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      );
    }
  }
  return errs;
}

/** `validateStructuralInvariants`. */
function invariants(s: JsonObject, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const additional = s.additionalProperties;
  const hasAdditional = additional !== undefined && additional !== null;
  if (type === 'array' && !isObject(s.items)) errs.push(required(`${path}.items`, 'must be specified'));
  if (isObject(s.items)) errs.push(...invariants(s.items, 'item', `${path}.items`));
  for (const k of sortedKeys(s.properties)) {
    const p = rec(s.properties)[k];
    errs.push(...invariants(rec(p), 'field', key(`${path}.properties`, k)));
  }
  if (hasAdditional) {
    if (lvl === 'root') errs.push(forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (isObject(additional)) errs.push(...invariants(additional, 'field', `${path}.additionalProperties`));
  }
  // validateExtensions
  if (intOrString && preserve) {
    errs.push(
      invalid(
        `${path}.x-kubernetes-preserve-unknown-fields`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (intOrString && embedded) {
    errs.push(
      invalid(
        `${path}.x-kubernetes-embedded-resource`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf = arr(s.allOf).length >= 1 && isIntOrStringAnyOf(rec(arr(s.allOf)[0]).anyOf);
  errs.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, path));
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    if (type === '')
      errs.push(required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && !preserve) {
    const where = {
      root: 'at the root',
      item: 'for specified array items',
      field: 'for specified object fields',
    }[lvl];
    errs.push(required(`${path}.type`, `must not be empty ${where}`));
  }
  if (embedded && hasAdditional) {
    errs.push(
      forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'),
    );
  }
  if (lvl === 'root' && type !== '' && type !== 'object')
    errs.push(invalid(`${path}.type`, type, 'must be object at the root'));
  const props = rec(s.properties);
  for (const name of ['kind', 'apiVersion']) {
    if (name in props && checkMetadata && str(rec(props[name]).type) !== 'string') {
      errs.push(
        invalid(`${key(`${path}.properties`, name)}.type`, str(rec(props[name]).type), 'must be string'),
      );
    }
  }
  if ('metadata' in props) {
    errs.push(
      ...metadataInvariants(rec(props.metadata), checkMetadata, lvl, key(`${path}.properties`, 'metadata')),
    );
  }
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(
      required(
        `${path}.properties`,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
  return errs;
}

/** `validateValueValidationCompleteness`: what anyOf/allOf/oneOf/not name must exist in the structural part. */
function completeness(v: JsonObject, s: JsonObject | undefined, sPath: string, vPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const parts: Array<[unknown, string]> = [[v.not, `${vPath}.not`]];
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const)
    arr(v[k]).forEach((n, i) => {
      parts.push([n, `${vPath}.${k}[${i}]`]);
    });
  for (const [n, nPath] of parts) if (isObject(n)) errs.push(...nestedCompleteness(n, s, sPath, nPath));
  return errs;
}

function nestedCompleteness(
  v: JsonObject,
  s: JsonObject | undefined,
  sPath: string,
  vPath: string,
): FieldError[] {
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v, s, sPath, vPath);
  if (isObject(v.items)) {
    errs.push(
      ...nestedCompleteness(
        v.items,
        isObject(s.items) ? s.items : undefined,
        `${sPath}.items`,
        `${vPath}.items`,
      ),
    );
  }
  const sProps = rec(s.properties);
  for (const k of sortedKeys(v.properties)) {
    const vk = key(`${vPath}.properties`, k);
    if (!(k in sProps)) errs.push(required(key(`${sPath}.properties`, k), `because it is defined in ${vk}`));
    else
      errs.push(
        ...nestedCompleteness(rec(rec(v.properties)[k]), rec(sProps[k]), key(`${sPath}.properties`, k), vk),
      );
  }
  return errs;
}

/** `ValidateStructural`: invariants and completeness, sorted by their full text as upstream sorts them. */
export function validateStructural(schema: JsonObject, path: string): FieldError[] {
  const errs = [...invariants(schema, 'root', path), ...completeness(schema, schema, path, path)];
  const text = (e: FieldError): string => `${e.field}: ${e.message}`;
  return errs.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

const POSIX_NAMES =
  'alnum alpha ascii blank cntrl digit graph lower print punct space upper word xdigit'.split(' ');
const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c);
const re2Error = (code: string, expr: string): { error: string } => ({
  error: `error parsing regexp: ${code}: \`${expr}\``,
});

/**
 * The error Go's `regexp.Compile` (regexp/syntax parse.go with the Perl flags) reports for a
 * pattern, for the syntax it refuses although JavaScript's RegExp takes it: lookaround groups
 * (`(?=`, `(?<!`), back references and unknown escapes (`\1`, `\k`, `\e`), `\C`, `\b` inside
 * a class, `[^]` and `[]`, unknown POSIX classes, counts above 1000, unbalanced parentheses,
 * stacked repetition. Not checked: Unicode class names (`\p{Foo}`) and the product of nested
 * counts. Returns `{}` when the pattern parses.
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
