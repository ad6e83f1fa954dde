/**
 * Compiles a structural schema into a checker: a tree of closures, one per schema node, built
 * once per type and shared by every object that reaches it (a PodSpec's checker serves Pods,
 * Deployments and every other template). A write then runs plain code, no table lookups or
 * interpretation: on a well-typed object it reads each value once and allocates nothing.
 *
 * What each node accepts is what kube-apiserver's typed decoding of the built-in types accepts
 * (sigs.k8s.io/json, a fork of encoding/json: internal/golang/encoding/json/decode.go `object`,
 * `array`, `literalStore`):
 * - null anywhere: Go leaves the field at its zero value. A struct field set to null is removed,
 *   as the typed object re-encodes it (the optional fields are omitempty), except a Time, whose
 *   zero value encodes as null; a null map value or list item of a scalar type becomes that
 *   type's zero value (`""`, `0`, `false`), as Go stores it;
 * - integers: a JSON number whose literal `strconv.ParseInt` takes and the Go type holds;
 * - []byte: standard base64, or a JSON list of byte values (Go decodes those too; the list is
 *   stored as the base64 the typed object re-encodes to);
 * - Quantity, Time, MicroTime, IntOrString: their own `UnmarshalJSON` rules; a Quantity is left in
 *   the canonical text its `MarshalJSON` writes back (kinds/quantity-canonical.ts);
 * - struct fields not in the type: dropped, and reported (fieldValidation decides what to say).
 */

import { canonicalQuantity } from '../kinds/quantity-canonical.js';
import { base64ErrorOffset, base64ErrorText } from './go-base64.js';
import { jsonKindOf, numberLiteral } from './go-text.js';
import { canonicalTimeText, goTimeParseError, RFC3339, RFC3339_MICRO } from './go-time.js';
import { parseQuantityText } from './quantity-syntax.js';
import { isRef, type Schema, type SchemaRef, type SchemaSource } from './schema.js';
import type { GoField, NestedTypeError, Walk } from './walk.js';

/** A compiled check of one schema node: reports into `walk`, repairs `parent[key]` in place. */
export type Check = (value: unknown, walk: Walk, parent: unknown, key: string | number) => void;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
// int64's bounds as doubles: 2^63 itself is already out of range.
const INT64_LIMIT = 2 ** 63;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The error a fresh `json.Unmarshal` gives for a JSON value of the wrong kind (no struct field to
 * name); into a numeric type a number is named with its literal (`number 1.5`). Its parts come
 * along: the outer decoder names the struct field it was in.
 */
function nestedTypeError(value: unknown, goType: string): { text: string; nested: NestedTypeError } {
  const kind =
    typeof value === 'number' && goType !== 'string' ? `number ${numberLiteral(value)}` : jsonKindOf(value);
  return {
    text: `json: cannot unmarshal ${kind} into Go value of type ${goType}`,
    nested: { value: kind, type: goType },
  };
}

/** Compiles schemas of one source, each named schema once. */
export class SchemaCompiler {
  private readonly source: SchemaSource;
  private readonly named = new Map<string, Check>();

  constructor(source: SchemaSource) {
    this.source = source;
  }

  /** The checker of `schema`, compiled now (named parts once per compiler). */
  compile(schema: SchemaRef): Check {
    if (!isRef(schema)) return this.build(schema);
    const known = this.named.get(schema.$ref);
    if (known) return known;
    // A type that reaches itself finds this forwarder while it is being built.
    let built: Check | undefined;
    this.named.set(schema.$ref, (v, w, p, k) => built!(v, w, p, k));
    built = this.build(this.source.resolve(schema.$ref));
    this.named.set(schema.$ref, built);
    return built;
  }

  /** The schema a reference names (the node itself when it is not a reference). */
  resolve(schema: SchemaRef): Schema {
    return isRef(schema) ? this.source.resolve(schema.$ref) : schema;
  }

  private build(schema: Schema): Check {
    switch (schema.type) {
      case 'string':
        return stringCheck(schema);
      case 'integer':
        return integerCheck(
          schema,
          schema.format === 'int32' ? INT32_MIN : -INT64_LIMIT,
          schema.format === 'int32' ? INT32_MAX : INT64_LIMIT - 1,
        );
      case 'number':
        return (v, w, p, k) => {
          if (typeof v !== 'number' && v !== null) w.report('type', v, schema, p, k);
        };
      case 'boolean':
        return (v, w, p, k) => {
          if (typeof v !== 'boolean' && v !== null) w.report('type', v, schema, p, k);
        };
      case 'int-or-string':
        return intOrStringCheck(schema);
      case 'any':
        return () => {};
      case 'array':
        return this.arrayCheck(schema, this.compile(schema.items), this.resolve(schema.items));
      case 'object':
        if (schema.properties) return this.structCheck(schema, schema.properties);
        if (schema.additionalProperties) {
          return this.mapCheck(
            schema,
            this.compile(schema.additionalProperties),
            this.resolve(schema.additionalProperties),
          );
        }
        return (v, w, p, k) => {
          if (!isPlainObject(v) && v !== null) w.report('type', v, schema, p, k);
        };
    }
  }

  private structCheck(
    schema: Schema & { type: 'object' },
    properties: Readonly<Record<string, SchemaRef>>,
  ): Check {
    const fields = new Map<string, Check>();
    // A zero metav1.Time encodes as null (its MarshalJSON), omitempty or not: a pod template's
    // `creationTimestamp: null` is stored and read back as such. Free-form JSON keeps its null.
    const keepsNull = new Set<string>();
    for (const [name, field] of Object.entries(properties)) {
      fields.set(name, this.compile(field));
      const resolved = this.resolve(field);
      const time = resolved.type === 'string' && resolved.format?.startsWith('date-time');
      if (time || resolved.type === 'any') keepsNull.add(name);
    }
    // Each field's step of a decoder error's place, made once: the struct and the field's path
    // through the embedded structs it is promoted from.
    const goName = schema.goName;
    const owners = new Map<string, GoField>();
    if (goName !== undefined) {
      for (const name of fields.keys()) {
        const through = schema.embeddedIn?.[name];
        owners.set(name, { struct: goName, field: through ? `${through}.${name}` : name });
      }
    }
    const preserve = schema.preserveUnknownFields === true;
    return (v, w, p, k) => {
      if (!isPlainObject(v)) {
        if (v !== null) w.report('type', v, schema, p, k);
        return;
      }
      for (const name in v) {
        const check = fields.get(name);
        const value = v[name];
        if (check === undefined) {
          if (preserve) continue;
          w.unknown(
            name,
            value,
            schema,
            goName === undefined ? undefined : { struct: goName, field: name },
            v,
          );
          delete v[name];
        } else if (value === null) {
          if (!keepsNull.has(name)) delete v[name];
        } else {
          w.enter(name, owners.get(name));
          check(value, w, v, name);
          w.leave();
        }
      }
    };
  }

  private mapCheck(schema: Schema, values: Check, valueSchema: Schema): Check {
    const zero = zeroValue(valueSchema);
    return (v, w, p, k) => {
      if (!isPlainObject(v)) {
        if (v !== null) w.report('type', v, schema, p, k);
        return;
      }
      for (const name in v) {
        const value = v[name];
        if (value === null) {
          if (zero !== null) v[name] = zero;
          continue;
        }
        w.enter(name, undefined);
        values(value, w, v, name);
        w.leave();
      }
    };
  }

  private arrayCheck(schema: Schema, items: Check, itemSchema: Schema): Check {
    const zero = zeroValue(itemSchema);
    const structItems = itemSchema.type === 'object' && itemSchema.properties !== undefined;
    return (v, w, p, k) => {
      if (!Array.isArray(v)) {
        if (v !== null) w.report('type', v, schema, p, k);
        return;
      }
      for (let i = 0; i < v.length; i++) {
        const value = v[i];
        if (value === null) {
          if (zero !== null) v[i] = zero;
          else if (structItems) v[i] = {};
          continue;
        }
        w.enter(i, undefined);
        items(value, w, v, i);
        w.leave();
      }
    };
  }
}

/** The JSON of a Go zero value that the typed object would re-encode, for scalars; null otherwise. */
function zeroValue(schema: Schema): string | number | boolean | null {
  switch (schema.type) {
    case 'string':
      if (schema.format === 'quantity') return '0';
      return schema.format === undefined ? '' : null;
    case 'integer':
    case 'number':
    case 'int-or-string':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function integerCheck(schema: Schema, min: number, max: number): Check {
  return (v, w, p, k) => {
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || v < min || v > max) w.report('range', v, schema, p, k);
    } else if (v !== null) w.report('type', v, schema, p, k);
  };
}

/**
 * The canonical text of each valid Quantity text met lately: a cluster writes the same few
 * (`100m`, `128Mi`) over and over, and a lookup costs less than a parse. Bounded: cleared when full.
 */
const canonicalTexts = new Map<string, string>();
const CANONICAL_TEXTS_MAX = 4096;

function stringCheck(schema: Schema & { type: 'string' }): Check {
  switch (schema.format) {
    case undefined:
      return (v, w, p, k) => {
        if (typeof v !== 'string' && v !== null) w.report('type', v, schema, p, k);
      };
    case 'byte':
      return bytesCheck(schema);
    case 'quantity':
      return (v, w, p, k) => {
        if (v === null) return;
        // UnmarshalJSON parses the raw JSON text: a string's content, a number's literal, and
        // `true` or `{...}` as themselves, which never match.
        const text = typeof v === 'string' ? v : typeof v === 'number' ? numberLiteral(v) : JSON.stringify(v);
        let canonical = canonicalTexts.get(text);
        if (canonical === undefined) {
          const parsed = parseQuantityText(text);
          if (typeof parsed === 'string') {
            w.report('unmarshal', v, schema, p, k, parsed);
            return;
          }
          canonical = canonicalQuantity(parsed);
          if (canonicalTexts.size >= CANONICAL_TEXTS_MAX) canonicalTexts.clear();
          canonicalTexts.set(text, canonical);
        }
        // The typed object re-encodes it (quantity.go `MarshalJSON`): stored and answered canonical.
        if (canonical !== v) (p as Record<string | number, unknown>)[k] = canonical;
      };
    case 'date-time':
    case 'date-time-micro': {
      const layout = schema.format === 'date-time' ? RFC3339 : RFC3339_MICRO;
      return (v, w, p, k) => {
        if (v === null) return;
        // UnmarshalJSON (time.go, micro_time.go) decodes the JSON into a string first.
        if (typeof v !== 'string') {
          const { text, nested } = nestedTypeError(v, 'string');
          w.report('unmarshal', v, schema, p, k, text, nested);
          return;
        }
        const error = goTimeParseError(layout, v);
        if (error) {
          w.report('unmarshal', v, schema, p, k, error);
          return;
        }
        // The typed object re-encodes it (time.go, micro_time.go `MarshalJSON`): UTC, and whole
        // seconds for a Time.
        const canonical = canonicalTimeText(v as string, layout === RFC3339_MICRO);
        if (canonical !== v) (p as Record<string | number, unknown>)[k] = canonical;
      };
    }
  }
}

function bytesCheck(schema: Schema): Check {
  return (v, w, p, k) => {
    if (typeof v === 'string') {
      const offset = base64ErrorOffset(v);
      if (offset >= 0) w.report('base64', v, schema, p, k, base64ErrorText(offset));
    } else if (Array.isArray(v)) {
      // encoding/json decodes a list of numbers into a []byte element by element (uint8).
      let bad = false;
      for (let i = 0; i < v.length; i++) {
        const b = v[i];
        if (b === null) v[i] = 0;
        else if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 255) {
          bad = true;
          w.enter(i, undefined);
          w.report(typeof b === 'number' ? 'range' : 'type', b, UINT8, v, i);
          w.leave();
        }
      }
      if (!bad) (p as Record<string | number, unknown>)[k] = Buffer.from(v as number[]).toString('base64');
    } else if (v !== null) w.report('type', v, schema, p, k);
  };
}

/** A []byte's element, for the messages about a byte list. */
const UINT8: Schema = { type: 'integer', format: 'int32', goType: 'uint8' };

function intOrStringCheck(schema: Schema): Check {
  // IntOrString.UnmarshalJSON: a JSON string is the string, anything else is decoded into the
  // int32 by a fresh json.Unmarshal, whose type errors the outer decoder gives the struct field of.
  return (v, w, p, k) => {
    if (typeof v === 'string' || v === null) return;
    if (typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX) return;
    const { text, nested } = nestedTypeError(v, 'int32');
    w.report('unmarshal', v, schema, p, k, text, nested);
  };
}
