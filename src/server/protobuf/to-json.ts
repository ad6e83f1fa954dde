/**
 * A decoded protobuf message → the JSON kube-apiserver would write for it: what Go's encoding/json
 * makes of the struct gogo-protobuf's `Unmarshal` filled (k8s.io/api `generated.pb.go`), driven by
 * the Go struct facts of ./k8s-schema.generated.ts. The rules of encoding/json (`Marshal`):
 *
 * - a field with `omitempty` is left out when empty: false, 0, "", a nil pointer, a nil or empty
 *   slice or map; a struct is never empty, so a non-pointer struct field is always written;
 * - a field without `omitempty` is always written: a nil pointer, slice or map as `null`;
 * - gogo leaves nil pointers, slices and maps off the wire, and writes every non-pointer field
 *   (zero or not), so "absent on the wire" means nil for those and zero for the others;
 * - `,inline` (an embedded struct) writes the embedded struct's fields into the parent's object;
 * - `[]byte` is base64 (a nil one `null`); int64 is a JSON number.
 *
 * The apimachinery types with their own MarshalJSON are mapped by hand (SPECIAL below), each
 * citing its source.
 *
 * Loaded with protobufjs, on the first protobuf body only.
 */
import protobuf from 'protobufjs';
import { StatusError } from '../../protocol/status.js';
import { goDuration } from './go-duration.js';
import { GO_FIELDS, INLINE, OMITEMPTY, POINTER } from './k8s-schema.generated.js';

/** A message as protobufjs `toObject` gives it: absent fields left out, bytes as Uint8Array. */
export type Plain = Record<string, unknown>;

/** The options `toObject` is called with: int64 as a JSON number, like Go's encoding/json. */
export const TO_OBJECT: protobuf.IConversionOptions = { longs: Number };

/** Marks a field encoding/json leaves out. */
const OMIT = Symbol('omit');

/**
 * The fields tagged `omitzero` (Go 1.24 encoding/json: left out when zero, a struct included),
 * which the generated table does not record: meta/v1 types.go `ObjectMeta.CreationTimestamp`
 * since apimachinery v0.35, so a pod template's zero time is not written as null.
 */
const OMITZERO = new Set(['k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta.creationTimestamp']);

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const EXT = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';

function obj(value: unknown): Plain {
  return typeof value === 'object' && value !== null ? (value as Plain) : {};
}

/** Embedded JSON bytes (RawExtension, FieldsV1, apiextensions JSON): parsed; none is `null`. */
function rawJson(bytes: unknown, what: string): unknown {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) return null;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (err) {
    throw StatusError.of('BadRequest', `corrupt protobuf ${what}: ${(err as Error).message}`);
  }
}

/** Go's zero time.Time (January 1, year 1, UTC) in Unix seconds: IsZero, so JSON null. */
const GO_ZERO_TIME = -62135596800;

/** RFC 3339 in UTC, with `digits` fractional digits (0: none). */
function rfc3339(seconds: number, nanos: number, digits: number): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  const fraction = digits > 0 ? `.${String(nanos).padStart(9, '0').slice(0, digits)}` : '';
  return `${base}${fraction}Z`;
}

/**
 * The types with their own JSON form, by full message name. Each gets the decoded message (an
 * empty object for a zero non-pointer value) and returns the JSON value.
 */
const SPECIAL: Record<string, (m: Plain, type: protobuf.Type) => unknown> = {
  // meta/v1 time_proto.go `Time.Unmarshal`: empty bytes are the zero time, otherwise only the
  // seconds are kept; time.go `Time.MarshalJSON`: zero → null, else RFC 3339 in UTC.
  [`${META}.Time`]: (m) =>
    (m.seconds === undefined && m.nanos === undefined) || m.seconds === GO_ZERO_TIME
      ? null
      : rfc3339(Number(m.seconds ?? 0), 0, 0),
  // micro_time_proto.go keeps the nanoseconds; micro_time.go `MarshalJSON` writes RFC3339Micro.
  [`${META}.MicroTime`]: (m) =>
    (m.seconds === undefined && m.nanos === undefined) || m.seconds === GO_ZERO_TIME
      ? null
      : rfc3339(Number(m.seconds ?? 0), Number(m.nanos ?? 0), 6),
  // duration.go `Duration.MarshalJSON`: time.Duration.String().
  [`${META}.Duration`]: (m) => goDuration(Number(m.duration ?? 0)),
  // fields_proto.go/helper.go `FieldsV1.MarshalJSON`: the raw JSON bytes, nil → null.
  [`${META}.FieldsV1`]: (m) => rawJson(m.Raw, 'FieldsV1'),
  // types.go `Verbs` is a []string, written in protobuf as the items of a message.
  [`${META}.Verbs`]: (m) => (Array.isArray(m.items) ? m.items : []),
  // runtime/extension.go `RawExtension.MarshalJSON`: the raw bytes, nil → null.
  'k8s.io.apimachinery.pkg.runtime.RawExtension': (m) => rawJson(m.raw, 'RawExtension'),
  // util/intstr/intstr.go `IntOrString.MarshalJSON`: Type 0 (Int) → number, 1 (String) → string.
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': (m) =>
    Number(m.type ?? 0) === 1 ? String(m.strVal ?? '') : Number(m.intVal ?? 0),
  // api/resource/quantity_proto.go `Quantity.Unmarshal` parses the string, quantity.go
  // `MarshalJSON` writes it back; a zero Quantity is "0". The string is passed on as sent: the
  // write path's typed check (schema/compile.ts) parses and canonicalises it for JSON and protobuf alike.
  'k8s.io.apimachinery.pkg.api.resource.Quantity': (m) =>
    typeof m.string === 'string' && m.string !== '' ? m.string : '0',
  // apiextensions/v1 marshal.go `JSON.MarshalJSON`: the raw bytes, empty → null.
  [`${EXT}.JSON`]: (m) => rawJson(m.raw, 'JSON'),
  // marshal.go `JSONSchemaPropsOrBool.MarshalJSON`: the schema when set, else the bool.
  [`${EXT}.JSONSchemaPropsOrBool`]: (m, t) =>
    m.schema !== undefined ? messageJson(fieldType(t, 'schema'), obj(m.schema)) : m.allows === true,
  // marshal.go `JSONSchemaPropsOrArray.MarshalJSON`: the list when non-empty, else the schema.
  [`${EXT}.JSONSchemaPropsOrArray`]: (m, t) => {
    const items = Array.isArray(m.jSONSchemas) ? m.jSONSchemas : [];
    const item = fieldType(t, 'jSONSchemas');
    if (items.length > 0) return items.map((s) => messageJson(item, obj(s)));
    return m.schema !== undefined ? messageJson(item, obj(m.schema)) : null;
  },
  // marshal.go `JSONSchemaPropsOrStringArray.MarshalJSON`: the strings, else the schema, else null.
  [`${EXT}.JSONSchemaPropsOrStringArray`]: (m, t) => {
    if (Array.isArray(m.property) && m.property.length > 0) return m.property;
    return m.schema !== undefined ? messageJson(fieldType(t, 'schema'), obj(m.schema)) : null;
  },
};

/** The message type of `type`'s field `field` (throws when it is not message-typed). */
export function fieldType(type: protobuf.Type, field: string): protobuf.Type {
  const resolved = type.fields[field]?.resolve().resolvedType;
  if (!(resolved instanceof protobuf.Type)) throw new Error(`${type.fullName}.${field} is not a message`);
  return resolved;
}

/** One Go field of a message, resolved once: how its protobuf value becomes JSON. */
interface FieldPlan extends GoField {
  /** Tagged `omitzero`: a zero value (JSON null for a Time) is left out. */
  readonly omitZero: boolean;
}

/** How a message type becomes JSON: by hand (SPECIAL), or field by field in Go order. */
interface MessagePlan {
  readonly special: ((m: Plain, type: protobuf.Type) => unknown) | undefined;
  readonly fields: readonly FieldPlan[];
}

/**
 * Per message type, built on first use: the schema is resolved lazily, and `fullName` is a
 * computed getter, too slow to call per field.
 */
const plans = new Map<protobuf.Type, MessagePlan>();

/** One field of the Go struct behind a message, matched with the schema's field. */
export interface GoField {
  readonly protoName: string;
  readonly jsonName: string;
  readonly flags: number;
  readonly field: protobuf.Field;
  /** The field's message type (a map's value type), if it is message-typed. */
  readonly message: protobuf.Type | undefined;
}

/**
 * The Go fields of `type` (its name without the leading dot, and each field of the Go table
 * resolved in the schema): what both directions of the mapping plan from.
 */
export function goFields(type: protobuf.Type): { name: string; fields: GoField[] } {
  const name = type.fullName.slice(1);
  const fields = (GO_FIELDS[name] ?? []).map(([protoName, jsonName, flags]) => {
    const field = type.fields[protoName]?.resolve();
    if (!field) throw new Error(`${name}.${protoName} is in the Go table but not in the schema`);
    const message = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    return { protoName, jsonName, flags, field, message };
  });
  return { name, fields };
}

function planOf(type: protobuf.Type): MessagePlan {
  let plan = plans.get(type);
  if (plan) return plan;
  const { name, fields: goFieldList } = goFields(type);
  const fields = goFieldList.map((f) => ({ ...f, omitZero: OMITZERO.has(`${name}.${f.protoName}`) }));
  plan = { special: SPECIAL[name], fields };
  plans.set(type, plan);
  return plan;
}

/** The JSON of one decoded message of `type`. */
export function messageJson(type: protobuf.Type, m: Plain): unknown {
  const { special, fields } = planOf(type);
  if (special) return special(m, type);
  const out: Record<string, unknown> = {};
  for (const plan of fields) {
    const value = fieldJson(plan, m[plan.protoName]);
    if (value === OMIT || (plan.omitZero && value === null)) continue;
    if (plan.flags & INLINE) Object.assign(out, value);
    else out[plan.jsonName] = value;
  }
  return out;
}

function fieldJson({ field, message, flags }: FieldPlan, value: unknown): unknown {
  const omitempty = (flags & OMITEMPTY) !== 0;
  if (field.map || field.repeated) {
    // A Go slice or map: gogo sends nothing for nil or empty, Unmarshal leaves it nil.
    const empty =
      value === undefined ||
      (Array.isArray(value) ? value.length === 0 : Object.keys(obj(value)).length === 0);
    if (empty) return omitempty ? OMIT : null;
    if (Array.isArray(value)) return value.map((v) => valueJson(message, v));
    return Object.fromEntries(Object.entries(obj(value)).map(([k, v]) => [k, valueJson(message, v)]));
  }
  if (value === undefined) {
    // A nil pointer; otherwise the zero value of a non-pointer field.
    if (flags & POINTER) return omitempty ? OMIT : null;
    if (message) return messageJson(message, {});
    if (field.type === 'bytes') return omitempty ? OMIT : null;
    return omitempty ? OMIT : zeroOf(field.type);
  }
  const json = valueJson(message, value);
  if (omitempty && !(flags & POINTER) && !message && isEmpty(json)) return OMIT;
  return json;
}

function valueJson(message: protobuf.Type | undefined, value: unknown): unknown {
  if (message) return messageJson(message, obj(value));
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}

function zeroOf(protoType: string): unknown {
  if (protoType === 'string') return '';
  if (protoType === 'bool') return false;
  return 0;
}

function isEmpty(json: unknown): boolean {
  return json === '' || json === 0 || json === false;
}
