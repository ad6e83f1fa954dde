/**
 * A CRD version's `openAPIV3Schema` compiled once into a {@link Structural} tree that the
 * validator (validate.ts), the pruner (prune.ts) and the defaulter
 * (default.ts) walk. The shape follows apiextensions-apiserver
 * pkg/apiserver/schema/structural.go `Structural` (items, properties, additionalProperties,
 * the Generic/Extensions parts) plus the value validations kube-openapi checks
 * (`ValueValidation`, including allOf/anyOf/oneOf/not, which in a structural schema may only
 * restrict values, never declare types: structural.go `ValueValidation`, `NestedValueValidation`).
 *
 * Compiling does not check that the schema is structural (that is the CRD definition's job,
 * pkg/apiserver/schema/validation.go `ValidateStructural`); it reads any schema tolerantly.
 * Formats kube-apiserver does not support are dropped here, as
 * pkg/apiserver/validation/formats.go `StripUnsupportedFormatsPostProcessorForVersion` does
 * before kube-openapi ever sees the schema.
 */
import { setFlagsFromString } from 'node:v8';

/** JSONSchemaProps as apiextensions.k8s.io/v1 carries it, with the `x-kubernetes-*` extensions. */
export interface CrdSchemaProps {
  type?: string;
  format?: string;
  nullable?: boolean;
  default?: unknown;
  enum?: unknown[];
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  properties?: Record<string, CrdSchemaProps>;
  additionalProperties?: CrdSchemaProps | boolean;
  items?: CrdSchemaProps | CrdSchemaProps[];
  allOf?: CrdSchemaProps[];
  anyOf?: CrdSchemaProps[];
  oneOf?: CrdSchemaProps[];
  not?: CrdSchemaProps;
  description?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: unknown[];
}

/** One compiled schema node. */
export interface Structural {
  /** The JSON types a value may have: `["integer","string"]` for `x-kubernetes-int-or-string`. */
  types: string[];
  nullable: boolean;
  /** The format kube-openapi checks, or undefined when kube-apiserver strips it. */
  format?: string;
  /** Present when the schema has a `default` (which may itself be null). */
  default?: { value: unknown };
  enum?: unknown[];
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: CompiledPattern;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  maxProperties?: number;
  minProperties?: number;
  required: string[];
  properties?: Map<string, Structural>;
  /** A schema for other keys, `true` (any value) or `false` (none); undefined when absent. */
  additionalProperties?: Structural | boolean;
  items?: Structural;
  allOf: Structural[];
  anyOf: Structural[];
  oneOf: Structural[];
  not?: Structural;
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listType?: string;
  listMapKeys: string[];
  /**
   * The CEL rules (`x-kubernetes-validations`), kept for a CEL evaluator to run; nothing here
   * evaluates them (pkg/apiserver/schema/cel/validation.go `Validator.Validate` is not ported).
   */
  celRules: unknown[];
}

/** A `pattern` compiled for JavaScript, or the reason it could not be. */
export type CompiledPattern = { source: string; regexp: RegExp } | { source: string; error: string };

/**
 * The string formats kube-apiserver validates for custom resources, normalized without `-` as
 * formats.go `newFormatsAtVersion` stores them (`supportedVersionedFormats`: the 1.0 set and
 * 1.34's k8s-short-name, k8s-long-name, which the default compatibility version includes).
 */
export const SUPPORTED_STRING_FORMATS: ReadonlySet<string> = new Set([
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'datetime',
  'k8sshortname',
  'k8slongname',
]);

/** formats.go `StripUnsupportedFormatsPostProcessorForVersion`: the format kept, or undefined. */
function keptFormat(type: string | undefined, format: string | undefined): string | undefined {
  if (!format) return undefined;
  switch (type ?? '') {
    case '':
    case 'string':
      return SUPPORTED_STRING_FORMATS.has(format.replaceAll('-', '')) ? format : undefined;
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : undefined;
    case 'number':
      return format === 'float' || format === 'double' ? format : undefined;
    default:
      return undefined;
  }
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/**
 * An RE2 pattern (Go's regexp, which kube-openapi values.go `Pattern` compiles) in JavaScript's
 * syntax: a leading inline flag group `(?i)` (often after `^`, as in `^(?i)(abort|warn)?$`)
 * becomes a flag, `\A` and `\z` the input's ends, `(?P<name>` a named group, `[[:alpha:]]`
 * classes their ASCII ranges. Everything else reads the same in both.
 */
export function re2ToJs(source: string): { body: string; flags: string } {
  let body = '';
  let flags = 'u';
  let rest = source;
  const inline = /^(\^?)\(\?([ims]+)\)/.exec(rest);
  if (inline) {
    rest = inline[1] + rest.slice(inline[0].length);
    for (const f of inline[2]!) if (!flags.includes(f)) flags += f;
  }
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i]!;
    if (ch === '\\' && i + 1 < rest.length) {
      const next = rest[i + 1]!;
      body += next === 'A' ? '^' : next === 'z' ? '$' : ch + next;
      i++;
    } else if (rest.startsWith('(?P<', i)) {
      body += '(?<';
      i += 3;
    } else if (rest.startsWith('[:', i)) {
      const m = /^\[:(\^?)([a-z]+):\]/.exec(rest.slice(i));
      const range = m ? POSIX_CLASSES[m[2]!] : undefined;
      if (m && range !== undefined && m[1] === '') {
        body += range;
        i += m[0].length - 1;
      } else body += ch;
    } else body += ch;
  }
  return { body, flags };
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
 * `body` on the linear-time engine, when it takes the pattern (ASCII, no named groups or
 * Unicode escapes, no backreferences or lookarounds, which RE2 has neither); it reads code
 * units, so use it only where {@link readsAsRunes} says the input reads the same.
 */
export function linearVariant(body: string, flags: string): RegExp | undefined {
  if (!LINEAR_REGEXP_ENGINE || !/^[\x20-\x7e]*$/.test(body) || /\\[pPu]|\(\?</.test(body)) return undefined;
  try {
    return new RegExp(body, `${flags.replace('u', '')}l`);
  } catch {
    return undefined;
  }
}

/** Whether an ASCII pattern without `u` reads `input` as with `u` (`flags`: the `u` pattern's). */
export function readsAsRunes(input: string, flags: string): boolean {
  if (!flags.includes('u')) return true;
  if (/[\uD800-\uDFFF]/.test(input)) return false;
  // Caseless matching folds non-ASCII letters only in Unicode mode.
  return !flags.includes('i') || !/[\u0080-\uFFFF]/.test(input);
}

function compilePattern(source: string): CompiledPattern {
  const { body, flags } = re2ToJs(source);
  // `u` makes classes rune-based as in Go; a pattern only the looser mode reads is tried there.
  let regexp: RegExp;
  try {
    regexp = new RegExp(body, flags);
  } catch {
    try {
      regexp = new RegExp(body, flags.replace('u', ''));
    } catch (err) {
      return { source, error: (err as Error).message };
    }
  }
  // Matching in linear time as Go does, where that engine reads the input the same.
  const linear = linearVariant(body, regexp.flags);
  if (linear !== undefined) {
    const backtracking = regexp.test.bind(regexp);
    regexp.test = (input: string): boolean =>
      readsAsRunes(input, regexp.flags) ? linear.test(input) : backtracking(input);
  }
  return { source, regexp };
}

/**
 * Compiles a CRD version's `openAPIV3Schema` (validation.go `ConvertJSONSchemaPropsWithPostProcess`
 * and structural.go `NewStructural` in one step). An absent schema compiles to an empty node,
 * which accepts anything and (for pruning) knows no fields.
 */
export function compileStructural(props: CrdSchemaProps | undefined): Structural {
  const p = props ?? {};
  const intOrString = p['x-kubernetes-int-or-string'] === true;
  const node: Structural = {
    // validation.go ConvertJSONSchemaPropsWithPostProcess: int-or-string becomes type [integer, string].
    types: intOrString ? ['integer', 'string'] : p.type ? [p.type] : [],
    nullable: p.nullable === true,
    format: keptFormat(p.type, p.format),
    default: 'default' in p ? { value: p.default } : undefined,
    enum: p.enum,
    maximum: p.maximum,
    exclusiveMaximum: p.exclusiveMaximum === true,
    minimum: p.minimum,
    exclusiveMinimum: p.exclusiveMinimum === true,
    multipleOf: p.multipleOf,
    maxLength: p.maxLength,
    minLength: p.minLength,
    pattern: p.pattern ? compilePattern(p.pattern) : undefined,
    maxItems: p.maxItems,
    minItems: p.minItems,
    uniqueItems: p.uniqueItems === true,
    maxProperties: p.maxProperties,
    minProperties: p.minProperties,
    required: p.required ?? [],
    allOf: (p.allOf ?? []).map(compileStructural),
    anyOf: (p.anyOf ?? []).map(compileStructural),
    oneOf: (p.oneOf ?? []).map(compileStructural),
    not: p.not ? compileStructural(p.not) : undefined,
    preserveUnknownFields: p['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: p['x-kubernetes-embedded-resource'] === true,
    intOrString,
    listType: p['x-kubernetes-list-type'],
    listMapKeys: p['x-kubernetes-list-map-keys'] ?? [],
    celRules: p['x-kubernetes-validations'] ?? [],
  };
  if (p.properties) {
    node.properties = new Map(Object.entries(p.properties).map(([k, v]) => [k, compileStructural(v)]));
  }
  if (typeof p.additionalProperties === 'boolean') node.additionalProperties = p.additionalProperties;
  else if (p.additionalProperties) node.additionalProperties = compileStructural(p.additionalProperties);
  // A list of item schemas (JSON Schema tuples) is not allowed in structural schemas; only the
  // single-schema form is kept.
  if (p.items && !Array.isArray(p.items)) node.items = compileStructural(p.items);
  return node;
}

/** The schema additionalProperties gives other keys, when it is a schema (structural.go `StructuralOrBool.Structural`). */
export function additionalSchema(s: Structural): Structural | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** A decoded JSON object (not an array, not null). */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
