/**
 * A JSON object → the protobuf bytes kube-apiserver writes for it: what gogo-protobuf's generated
 * `Marshal` (k8s.io/api `generated.pb.go`, `MarshalToSizedBuffer`) makes of the Go struct that
 * encoding/json would fill from that JSON. The rules, read off the generated marshallers:
 *
 * - fields go out in field-number order (gogo fills the buffer backwards from the highest);
 * - a non-pointer field is always written, zero or not: "", 0, false, and a struct as its own
 *   (possibly empty) message; absent from the JSON means Go's zero value;
 * - a pointer, a `[]byte` and a nil slice or map are written only when set (JSON null is nil);
 * - a repeated field writes one tagged value per element (proto2: never packed);
 * - a map writes one entry per key in `sort.Strings` order, the key (1) before the value (2); a
 *   nil `[]byte` value is left out of its entry;
 * - `,inline` (an embedded struct) reads its fields from the parent's JSON object.
 *
 * The apimachinery types with their own Marshal are written by hand (SPECIAL below), each citing
 * its source. Loaded with protobufjs, on the first protobuf answer only.
 */
import protobuf from 'protobufjs';
import { parseGoDuration } from './go-duration.js';
import { INLINE, POINTER } from './k8s-schema.generated.js';
import { fieldType, goFields } from './to-json.js';

type Json = Record<string, unknown>;

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const EXT = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';
const LENGTH_DELIMITED = 2;

function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function tag(w: protobuf.Writer, id: number, wireType: number): protobuf.Writer {
  return w.uint32((id << 3) | wireType);
}

/** Embedded JSON (RawExtension, FieldsV1, apiextensions JSON): field 1 holds its text; null is nil. */
function rawBytes(w: protobuf.Writer, value: unknown): void {
  if (value === undefined || value === null) return;
  // A string is written as its UTF-8 bytes, the same wire form as `bytes`, without a Buffer copy.
  tag(w, 1, LENGTH_DELIMITED).string(JSON.stringify(value));
}

/** Parsed times, by text: a list's objects share a handful of creation and managed-field times. */
const times = new Map<string, { seconds: number; nanos: number } | undefined>();

/** Unix seconds and nanoseconds of an RFC 3339 time; undefined for null (Go's zero time). */
function goTime(value: unknown): { seconds: number; nanos: number } | undefined {
  if (typeof value !== 'string') return undefined;
  if (times.has(value)) return times.get(value);
  const ms = Date.parse(value);
  const fraction = /\.(\d+)/.exec(value.slice(19))?.[1] ?? '';
  const time = Number.isNaN(ms)
    ? undefined
    : { seconds: Math.floor(ms / 1000), nanos: Number(fraction.padEnd(9, '0').slice(0, 9)) };
  if (times.size >= 4096) times.clear();
  times.set(value, time);
  return time;
}

/** meta/v1 generated.pb.go `Timestamp.MarshalToSizedBuffer`: seconds (1) and nanos (2), both always. */
function timestamp(w: protobuf.Writer, seconds: number, nanos: number): void {
  tag(w, 1, 0).int64(seconds);
  tag(w, 2, 0).int32(nanos);
}

/**
 * The types whose Go Marshal is written by hand, by full message name: each writes the fields of
 * the message for the JSON value.
 */
const SPECIAL: Record<string, (w: protobuf.Writer, value: unknown, type: protobuf.Type) => void> = {
  // time_proto.go `Time.MarshalToSizedBuffer`: nothing for the zero time, else `ProtoTime()`,
  // which keeps the seconds only (Nanos is left 0 on purpose).
  [`${META}.Time`]: (w, value) => {
    const t = goTime(value);
    if (t) timestamp(w, t.seconds, 0);
  },
  // micro_time_proto.go `MicroTime.MarshalToSizedBuffer`: `ProtoMicroTime()` keeps the nanoseconds.
  [`${META}.MicroTime`]: (w, value) => {
    const t = goTime(value);
    if (t) timestamp(w, t.seconds, t.nanos);
  },
  // generated.pb.go `Duration.MarshalToSizedBuffer`: the nanoseconds (1), always.
  [`${META}.Duration`]: (w, value) => {
    tag(w, 1, 0).int64(typeof value === 'string' ? parseGoDuration(value) : 0);
  },
  // generated.pb.go `FieldsV1.MarshalToSizedBuffer`: Raw (1) when non-nil.
  [`${META}.FieldsV1`]: rawBytes,
  // generated.pb.go `Verbs.MarshalToSizedBuffer`: a []string written as the items of a message.
  [`${META}.Verbs`]: (w, value) => {
    for (const verb of Array.isArray(value) ? value : []) tag(w, 1, LENGTH_DELIMITED).string(String(verb));
  },
  // runtime generated.pb.go `RawExtension.MarshalToSizedBuffer`: raw (1) when non-nil.
  'k8s.io.apimachinery.pkg.runtime.RawExtension': rawBytes,
  // intstr generated.pb.go `IntOrString.MarshalToSizedBuffer`: type (1), intVal (2), strVal (3), always.
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': (w, value) => {
    const isString = typeof value === 'string';
    tag(w, 1, 0).int64(isString ? 1 : 0);
    tag(w, 2, 0).int32(isString ? 0 : Number(value ?? 0));
    tag(w, 3, LENGTH_DELIMITED).string(isString ? value : '');
  },
  // quantity_proto.go `Quantity.MarshalToSizedBuffer`: `String()` (1), always; the JSON already
  // holds the canonical form, and a zero Quantity is "0".
  'k8s.io.apimachinery.pkg.api.resource.Quantity': (w, value) => {
    tag(w, 1, LENGTH_DELIMITED).string(value === undefined || value === null ? '0' : String(value));
  },
  // apiextensions/v1 generated.pb.go `JSON.MarshalToSizedBuffer`: Raw (1) when non-nil.
  [`${EXT}.JSON`]: rawBytes,
  // marshal.go `JSONSchemaPropsOrBool.UnmarshalJSON` (an object is Allows with a Schema), then
  // generated.pb.go: allows (1) always, schema (2) when set.
  [`${EXT}.JSONSchemaPropsOrBool`]: (w, value, type) => {
    const isSchema = typeof value === 'object' && value !== null;
    tag(w, 1, 0).bool(isSchema || value === true);
    if (isSchema) nested(w, 2, fieldType(type, 'schema'), value);
  },
  // marshal.go `JSONSchemaPropsOrArray.UnmarshalJSON`: an array is JSONSchemas (2), an object Schema (1).
  [`${EXT}.JSONSchemaPropsOrArray`]: (w, value, type) => {
    const item = fieldType(type, 'schema');
    if (Array.isArray(value)) for (const s of value) nested(w, 2, item, s);
    else if (typeof value === 'object' && value !== null) nested(w, 1, item, value);
  },
  // marshal.go `JSONSchemaPropsOrStringArray.UnmarshalJSON`: strings are Property (2), an object Schema (1).
  [`${EXT}.JSONSchemaPropsOrStringArray`]: (w, value, type) => {
    if (Array.isArray(value)) for (const p of value) tag(w, 2, LENGTH_DELIMITED).string(String(p));
    else if (typeof value === 'object' && value !== null) nested(w, 1, fieldType(type, 'schema'), value);
  },
};

/** One Go field of a message, resolved once: how its JSON value is written. */
interface FieldPlan {
  readonly id: number;
  readonly jsonName: string;
  readonly flags: number;
  readonly field: protobuf.Field;
  /** Wire type of a scalar (of a map's value, for a map). */
  readonly wireType: number;
  /** The field's message type (a map's value type), if it is message-typed. */
  readonly message: protobuf.Type | undefined;
}

interface MessagePlan {
  readonly special: ((w: protobuf.Writer, value: unknown, type: protobuf.Type) => void) | undefined;
  /** In field-number order, the order gogo's marshallers write. */
  readonly fields: readonly FieldPlan[];
}

const plans = new Map<protobuf.Type, MessagePlan>();

function planOf(type: protobuf.Type): MessagePlan {
  let plan = plans.get(type);
  if (plan) return plan;
  const { name, fields: goFieldList } = goFields(type);
  const basic = protobuf.types.basic as Readonly<Record<string, number | undefined>>;
  const fields = goFieldList
    .map(({ jsonName, flags, field, message }) => {
      const wireType = message ? LENGTH_DELIMITED : (basic[field.type] ?? LENGTH_DELIMITED);
      return { id: field.id, jsonName, flags, field, wireType, message };
    })
    .sort((a, b) => a.id - b.id);
  plan = { special: SPECIAL[name], fields };
  plans.set(type, plan);
  return plan;
}

/** Writes the fields of a message of `type` holding the JSON value `value` (no tag, no length). */
export function writeMessage(w: protobuf.Writer, type: protobuf.Type, value: unknown): void {
  const { special, fields } = planOf(type);
  if (special) {
    special(w, value, type);
    return;
  }
  const json = obj(value);
  for (const plan of fields) {
    writeField(w, plan, plan.flags & INLINE ? json : json[plan.jsonName]);
  }
}

/** A message-typed value as field `id`: tag, length, fields. */
function nested(w: protobuf.Writer, id: number, type: protobuf.Type, value: unknown): void {
  tag(w, id, LENGTH_DELIMITED).fork();
  writeMessage(w, type, value);
  w.ldelim();
}

function writeField(w: protobuf.Writer, plan: FieldPlan, value: unknown): void {
  const { id, field, message, flags } = plan;
  if (field.map) {
    // Every Kubernetes map is keyed by string.
    const entries = obj(value);
    for (const key of Object.keys(entries).sort(byteOrder)) {
      const v = entries[key];
      tag(w, id, LENGTH_DELIMITED).fork();
      tag(w, 1, LENGTH_DELIMITED).string(key);
      if (message) nested(w, 2, message, v);
      else if (v !== null && v !== undefined) writeScalar(tag(w, 2, plan.wireType), field.type, v);
      w.ldelim();
    }
    return;
  }
  if (field.repeated) {
    for (const item of Array.isArray(value) ? value : []) {
      if (message) nested(w, id, message, item);
      else writeScalar(tag(w, id, plan.wireType), field.type, item);
    }
    return;
  }
  const isNil = value === undefined || value === null;
  if (message) {
    // A non-pointer struct is always written; a special type decides its own zero form.
    if (isNil && flags & POINTER) return;
    nested(w, id, message, value);
    return;
  }
  if (isNil && (flags & POINTER || field.type === 'bytes')) return;
  writeScalar(tag(w, id, plan.wireType), field.type, isNil ? zeroOf(field.type) : value);
}

function writeScalar(w: protobuf.Writer, protoType: string, value: unknown): void {
  switch (protoType) {
    case 'string':
      w.string(String(value));
      return;
    case 'bytes':
      w.bytes(Buffer.from(String(value), 'base64'));
      return;
    case 'bool':
      w.bool(value === true);
      return;
    case 'double':
      w.double(Number(value));
      return;
    case 'float':
      w.float(Number(value));
      return;
    default: {
      const write = (w as unknown as Record<string, (v: number) => protobuf.Writer>)[protoType];
      if (typeof write !== 'function') throw new Error(`no protobuf writer for ${protoType}`);
      write.call(w, Number(value));
    }
  }
}

function zeroOf(protoType: string): unknown {
  if (protoType === 'string') return '';
  if (protoType === 'bool') return false;
  return 0;
}

/** Go's `sort.Strings`: by bytes (UTF-8), which for the UTF-16 code units differs only above U+FFFF. */
function byteOrder(a: string, b: string): number {
  if (NON_ASCII.test(a) || NON_ASCII.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

const NON_ASCII = /[^ -~\t\n\r]/;
