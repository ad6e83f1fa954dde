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
    // validation.go `regexp.Compile(v.Pattern)`: RE2's refusals in Go's words (schema/re2.ts).
    const compiled = compileStructural({ pattern: str(s.pattern) }).pattern;
    const error = compiled !== undefined && 'error' in compiled ? compiled.error : undefined;
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

/** Go's `regexp.Compile` refusals, kept here for the callers that read them from the CRD rules. */
export { re2SyntaxError } from '../schema/re2-syntax.js';
