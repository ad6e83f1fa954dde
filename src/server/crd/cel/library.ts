/**
 * The Kubernetes CEL libraries CRD rules use, registered on an environment: k8s.io/apiserver
 * pkg/cel/library (lists.go, regex.go, urls.go, quantity.go, format.go) and cel-go's ext
 * strings functions that @marcbachmann/cel-js does not have itself (charAt, replace, format).
 * What is not here fails to type-check, so a rule using it is refused when the CRD is written.
 *
 * Regular expressions are RE2 upstream; regex.ts runs them (linear-time where V8 can).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { parseQuantity } from '../../../protocol/quantity.js';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../../kinds/validation-names.js';
import { quantityError } from '../../schema/quantity-syntax.js';
import { registerNetwork } from './net.js';
import { re2 } from './regex.js';
import { celEqual } from './values.js';

type Comparable = bigint | number | string | boolean;
const less = (a: unknown, b: unknown): boolean => (a as Comparable) < (b as Comparable);
/** A list as the library hands it: an array, or a Set for set and map lists (values.ts). */
const items = (l: unknown): unknown[] => (Array.isArray(l) ? l : [...(l as Iterable<unknown>)]);
const equal = celEqual;

/** lists.go: isSorted, sum, min, max, indexOf, lastIndexOf. */
function registerLists(env: Environment): void {
  env.registerFunction('list<dyn>.isSorted(): bool', (list: unknown) =>
    items(list).every((v, i, l) => i === 0 || !less(v, l[i - 1])),
  );
  env.registerFunction('list<dyn>.sum(): dyn', (list: unknown) => {
    const l = items(list);
    if (l.length === 0) return 0n;
    return l.reduce((a, b) => (a as number) + (b as number));
  });
  env.registerFunction('list<dyn>.min(): dyn', (list: unknown) => {
    const l = items(list);
    if (l.length === 0) throw new Error('min(list) called on empty list');
    return l.reduce((a, b) => (less(b, a) ? b : a));
  });
  env.registerFunction('list<dyn>.max(): dyn', (list: unknown) => {
    const l = items(list);
    if (l.length === 0) throw new Error('max(list) called on empty list');
    return l.reduce((a, b) => (less(a, b) ? b : a));
  });
  env.registerFunction('list<dyn>.indexOf(dyn): int', (list: unknown, x: unknown) =>
    BigInt(items(list).findIndex((y) => equal(x, y))),
  );
  env.registerFunction('list<dyn>.lastIndexOf(dyn): int', (list: unknown, x: unknown) => {
    const l = items(list);
    for (let i = l.length - 1; i >= 0; i--) if (equal(x, l[i])) return BigInt(i);
    return -1n;
  });
}

/** `%s %d %f %e %x %X %o %b` of cel-go's ext strings `format`, enough for messages. */
function formatString(fmt: string, args: unknown[]): string {
  let i = 0;
  return fmt.replace(/%(\.(\d+))?([sdfexXob%])/g, (_m, _p, precision: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) throw new Error(`index ${i} out of range`);
    const v = args[i++];
    switch (verb) {
      case 's':
        return typeof v === 'string' ? v : Array.isArray(v) ? `[${v.map(String).join(', ')}]` : String(v);
      case 'd':
        if (typeof v !== 'bigint')
          throw new Error('error during formatting: integer clause can only be used on integers');
        return v.toString();
      case 'f':
        return Number(v).toFixed(precision === undefined ? 6 : Number(precision));
      case 'e':
        return Number(v).toExponential(precision === undefined ? 6 : Number(precision));
      case 'x':
      case 'X': {
        const s = typeof v === 'string' ? Buffer.from(v).toString('hex') : BigInt(v as bigint).toString(16);
        return verb === 'X' ? s.toUpperCase() : s;
      }
      case 'o':
        return BigInt(v as bigint).toString(8);
      default:
        return BigInt(v as bigint).toString(2);
    }
  });
}

/** cel-go ext strings (version 2, as the base environment has it) beyond the built-in ones. */
function registerStrings(env: Environment): void {
  const runes = (s: string): string[] => Array.from(s);
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const r = runes(s);
    if (i < 0n || i > BigInt(r.length)) throw new Error(`index out of range: ${i}`);
    return r[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) =>
    s.replaceAll(a, b),
  );
  env.registerFunction(
    'string.replace(string, string, int): string',
    (s: string, a: string, b: string, n: bigint) => {
      if (n < 0n) return s.replaceAll(a, b);
      let out = s;
      let from = 0;
      for (let k = 0n; k < n; k++) {
        const at = out.indexOf(a, from);
        if (at < 0) break;
        out = out.slice(0, at) + b + out.slice(at + a.length);
        from = at + b.length;
      }
      return out;
    },
  );
  env.registerFunction('string.format(list<dyn>): string', (s: string, args: unknown[]) =>
    formatString(s, args),
  );
  env.registerFunction('matches(string, string): bool', (s: string, p: string) => re2(p, s).test(s));
  env.registerFunction('string.re2Matches(string): bool', (s: string, p: string) => re2(p, s).test(s));
}

/** regex.go: find and findAll. */
function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, p: string) => re2(p, s).exec(s)?.[0] ?? '');
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) =>
    Array.from(s.matchAll(re2(p, s)), (m) => m[0]),
  );
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => {
    const all = Array.from(s.matchAll(re2(p, s)), (m) => m[0]);
    return n < 0n ? all : all.slice(0, Number(n));
  });
}

/** A `kubernetes.URL` (urls.go over Go's `url.URL`). */
class KubeURL {
  constructor(readonly url: URL) {}
}

/** url.ParseRequestURI's acceptance: an absolute URL or an absolute path. */
function parseURL(s: string): KubeURL | undefined {
  if (s.startsWith('/')) return new KubeURL(new URL(s, 'path:/'));
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s)) return undefined;
  try {
    return new KubeURL(new URL(s));
  } catch {
    return undefined;
  }
}

function registerURLs(env: Environment): void {
  env.registerType('kubernetes.URL', KubeURL);
  env.registerFunction('url(string): kubernetes.URL', (s: string) => {
    const u = parseURL(s);
    if (u === undefined)
      throw new Error(`URL parse error during conversion from string: parse "${s}": invalid URI for request`);
    return u;
  });
  env.registerFunction('isURL(string): bool', (s: string) => parseURL(s) !== undefined);
  const scheme = (u: KubeURL): string => (u.url.protocol === 'path:' ? '' : u.url.protocol.slice(0, -1));
  env.registerFunction('kubernetes.URL.getScheme(): string', scheme);
  env.registerFunction('kubernetes.URL.getHost(): string', (u: KubeURL) => u.url.host);
  env.registerFunction('kubernetes.URL.getHostname(): string', (u: KubeURL) =>
    u.url.hostname.replace(/^\[(.*)\]$/, '$1'),
  );
  env.registerFunction('kubernetes.URL.getPort(): string', (u: KubeURL) => u.url.port);
  env.registerFunction('kubernetes.URL.getEscapedPath(): string', (u: KubeURL) => u.url.pathname);
  env.registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', (u: KubeURL) => {
    const out: Record<string, string[]> = {};
    for (const [k, v] of u.url.searchParams) {
      const list = out[k] ?? [];
      list.push(v);
      out[k] = list;
    }
    return out;
  });
}

/** A `kubernetes.Quantity`; its amount is a double here (apimachinery keeps it exact). */
class KubeQuantity {
  constructor(readonly value: number) {}
}

function registerQuantities(env: Environment): void {
  const Q = 'kubernetes.Quantity';
  env.registerType(Q, KubeQuantity);
  env.registerFunction(`quantity(string): ${Q}`, (s: string) => {
    const err = quantityError(s);
    const v = parseQuantity(s);
    if (err !== undefined || v === undefined)
      throw new Error(err ?? 'quantities must match the regular expression');
    return new KubeQuantity(v);
  });
  env.registerFunction('isQuantity(string): bool', (s: string) => quantityError(s) === undefined);
  env.registerFunction(`${Q}.isInteger(): bool`, (q: KubeQuantity) => Number.isInteger(q.value));
  env.registerFunction(`${Q}.asInteger(): int`, (q: KubeQuantity) => {
    if (!Number.isInteger(q.value)) throw new Error('cannot convert value to integer');
    return BigInt(q.value);
  });
  env.registerFunction(`${Q}.asApproximateFloat(): double`, (q: KubeQuantity) => q.value);
  env.registerFunction(`${Q}.sign(): int`, (q: KubeQuantity) => BigInt(Math.sign(q.value)));
  env.registerFunction(
    `${Q}.add(${Q}): ${Q}`,
    (a: KubeQuantity, b: KubeQuantity) => new KubeQuantity(a.value + b.value),
  );
  env.registerFunction(
    `${Q}.add(int): ${Q}`,
    (a: KubeQuantity, b: bigint) => new KubeQuantity(a.value + Number(b)),
  );
  env.registerFunction(
    `${Q}.sub(${Q}): ${Q}`,
    (a: KubeQuantity, b: KubeQuantity) => new KubeQuantity(a.value - b.value),
  );
  env.registerFunction(
    `${Q}.sub(int): ${Q}`,
    (a: KubeQuantity, b: bigint) => new KubeQuantity(a.value - Number(b)),
  );
  env.registerFunction(
    `${Q}.isGreaterThan(${Q}): bool`,
    (a: KubeQuantity, b: KubeQuantity) => a.value > b.value,
  );
  env.registerFunction(
    `${Q}.isLessThan(${Q}): bool`,
    (a: KubeQuantity, b: KubeQuantity) => a.value < b.value,
  );
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: KubeQuantity, b: KubeQuantity) =>
    BigInt(Math.sign(a.value - b.value)),
  );
}

/** format.go: `format.<name>()` and `format.named(name)`, each with `validate(string)`. */
class NamedFormats {}
class NamedFormat {
  constructor(readonly check: (s: string) => string[]) {}
}
const FORMATS: Record<string, (s: string) => string[]> = {
  dns1123Label: isDNS1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label: isDNS1035Label,
  qualifiedName: isQualifiedName,
  labelValue: isValidLabelValue,
};

function registerFormats(env: Environment): void {
  env.registerType('kubernetes.NamedFormats', NamedFormats);
  env.registerType('kubernetes.NamedFormat', NamedFormat);
  env.registerConstant('format', 'kubernetes.NamedFormats', new NamedFormats());
  for (const [name, check] of Object.entries(FORMATS)) {
    env.registerFunction(
      `kubernetes.NamedFormats.${name}(): kubernetes.NamedFormat`,
      () => new NamedFormat(check),
    );
  }
  env.registerFunction(
    'kubernetes.NamedFormats.named(string): optional<kubernetes.NamedFormat>',
    (_ns: unknown, n: string) => (n in FORMATS ? Optional.of(new NamedFormat(FORMATS[n]!)) : Optional.none()),
  );
  env.registerFunction(
    'kubernetes.NamedFormat.validate(string): optional<list<string>>',
    (f: NamedFormat, s: string) => {
      const errs = f.check(s);
      return errs.length > 0 ? Optional.of(errs) : Optional.none();
    },
  );
}

/** Registers every library above. */
export function registerKubernetesLibraries(env: Environment): void {
  registerLists(env);
  registerStrings(env);
  registerRegex(env);
  registerURLs(env);
  registerQuantities(env);
  registerFormats(env);
  registerNetwork(env);
  // cel-go's checker lets any optional (an opaque type) be compared with null
  // (checker/types.go `isLegacyNullable`), and at run time an optional never equals null
  // (common/types/util.go `Equal`): `format.x().validate(s) == null` is always false.
  env.registerOperator('optional<dyn> == null', () => false);
}

/** What README.md lists as supported, for the unsupported-function message. */
export const SUPPORTED_FORMATS = Object.keys(FORMATS);
