/**
 * Decoding of Kubernetes protobuf request bodies (`Content-Type: application/vnd.kubernetes.protobuf`).
 *
 * kubectl 1.32+ sends `create namespace` (and the other `kubectl create <kind>` generators) as
 * protobuf with no fallback to JSON: a 415 or 400 answer is fatal. The envelope is the 4-byte magic
 * `k8s\0` followed by a `runtime.Unknown` whose `raw` holds the object. We decode the kinds kubectl
 * creates that way and answer 415 for the rest, naming the kind so the user knows to send JSON.
 *
 * protobufjs is loaded on the first protobuf request, not at server start-up.
 */
import type { KubeObject, ObjectMeta, OwnerReference } from '../protocol/events.js';
import { StatusError } from '../protocol/status.js';

/** The 4 bytes every Kubernetes protobuf body starts with. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The Content-Type of a Kubernetes protobuf body. */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

/**
 * The subset of k8s.io/apimachinery `runtime` and `meta/v1`, and k8s.io/api `core/v1`, that the
 * supported kinds use. Field numbers are those of the upstream `generated.proto` files (proto2);
 * fields we do not list are skipped by the decoder, as unknown fields are upstream.
 */
const SCHEMA = `
syntax = "proto2";
package watchmark.k8s;

// k8s.io/apimachinery/pkg/runtime
message TypeMeta {
  optional string apiVersion = 1;
  optional string kind = 2;
}
message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}

// k8s.io/apimachinery/pkg/apis/meta/v1
message Time {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}
message FieldsV1 {
  optional bytes Raw = 1;
}
message ManagedFieldsEntry {
  optional string manager = 1;
  optional string operation = 2;
  optional string apiVersion = 3;
  optional Time time = 4;
  optional string fieldsType = 6;
  optional FieldsV1 fieldsV1 = 7;
  optional string subresource = 8;
}
message OwnerReference {
  optional string kind = 1;
  optional string name = 3;
  optional string uid = 4;
  optional string apiVersion = 5;
  optional bool controller = 6;
  optional bool blockOwnerDeletion = 7;
}
message ObjectMeta {
  optional string name = 1;
  optional string generateName = 2;
  optional string namespace = 3;
  optional string selfLink = 4;
  optional string uid = 5;
  optional string resourceVersion = 6;
  optional int64 generation = 7;
  optional Time creationTimestamp = 8;
  optional Time deletionTimestamp = 9;
  optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11;
  map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13;
  repeated string finalizers = 14;
  repeated ManagedFieldsEntry managedFields = 17;
}

// k8s.io/api/core/v1
message NamespaceCondition {
  optional string type = 1;
  optional string status = 2;
  optional Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}
message NamespaceSpec {
  repeated string finalizers = 1;
}
message NamespaceStatus {
  optional string phase = 1;
  repeated NamespaceCondition conditions = 2;
}
message Namespace {
  optional ObjectMeta metadata = 1;
  optional NamespaceSpec spec = 2;
  optional NamespaceStatus status = 3;
}
message ConfigMap {
  optional ObjectMeta metadata = 1;
  map<string, string> data = 2;
  map<string, bytes> binaryData = 3;
  optional bool immutable = 4;
}
message Secret {
  optional ObjectMeta metadata = 1;
  map<string, bytes> data = 2;
  optional string type = 3;
  map<string, string> stringData = 4;
  optional bool immutable = 5;
}
`;

/** A decoded message as plain data: `toObject` output with int64 as number and bytes as base64. */
type Plain = Record<string, unknown>;

/** How each supported kind's decoded message becomes its JSON form. */
const CONVERTERS: Record<string, (m: Plain) => Record<string, unknown>> = {
  // spec and status are structs in Go, so the JSON form always has them, even empty.
  Namespace: (m) => ({ spec: namespaceSpec(obj(m.spec)), status: namespaceStatus(obj(m.status)) }),
  ConfigMap: (m) => pick(m, ['data', 'binaryData', 'immutable']),
  Secret: (m) => {
    const out = pick(m, ['data', 'stringData', 'immutable']);
    if (m.type) out.type = m.type;
    return out;
  },
};

/** The kinds a protobuf body may carry, in the order the 415 message names them. */
export const PROTOBUF_KINDS: readonly string[] = Object.keys(CONVERTERS);

interface Codec {
  unknown: import('protobufjs').Type;
  kinds: Map<string, import('protobufjs').Type>;
}

let codec: Promise<Codec> | undefined;

/** Parses the schema once, on first use; a failed load is retried on the next request. */
function loadCodec(): Promise<Codec> {
  codec ??= import('protobufjs').then(
    ({ default: protobuf }) => {
      const root = protobuf.parse(SCHEMA, { keepCase: true }).root;
      const kinds = new Map(PROTOBUF_KINDS.map((k) => [k, root.lookupType(`watchmark.k8s.${k}`)]));
      return { unknown: root.lookupType('watchmark.k8s.Unknown'), kinds };
    },
    (err: unknown) => {
      codec = undefined;
      throw err;
    },
  );
  return codec;
}

/**
 * Decodes a Kubernetes protobuf request body into the JSON form of the object (as kubectl 1.31
 * would have sent it, minus `creationTimestamp: null`). Throws a StatusError: 400 BadRequest for a
 * body that is not a valid envelope, 415 UnsupportedMediaType for a kind we cannot decode.
 */
export async function decodeProtobufObject(body: Buffer): Promise<KubeObject> {
  if (
    body.length < PROTOBUF_MAGIC.length ||
    !body.subarray(0, PROTOBUF_MAGIC.length).equals(PROTOBUF_MAGIC)
  ) {
    throw StatusError.of('BadRequest', 'protobuf body does not start with the Kubernetes magic "k8s\\0"');
  }
  const { unknown, kinds } = await loadCodec();
  const envelope = decode(unknown, body.subarray(PROTOBUF_MAGIC.length), 'runtime.Unknown');
  const typeMeta = obj(envelope.typeMeta);
  const apiVersion = str(typeMeta.apiVersion);
  const kind = str(typeMeta.kind);
  if (!kind || !apiVersion) {
    throw StatusError.of(
      'BadRequest',
      'protobuf body has no apiVersion/kind in its runtime.Unknown envelope',
    );
  }
  if (envelope.contentEncoding) {
    throw StatusError.of(
      'UnsupportedMediaType',
      `protobuf content encoding ${String(envelope.contentEncoding)} is not supported`,
    );
  }
  const type = apiVersion === 'v1' ? kinds.get(kind) : undefined;
  const convert = CONVERTERS[kind];
  if (!type || !convert) {
    throw StatusError.of(
      'UnsupportedMediaType',
      `protobuf bodies are supported for ${PROTOBUF_KINDS.join(', ')}; send application/json for ${kind}` +
        (apiVersion === 'v1' ? '' : ` (${apiVersion})`),
    );
  }
  const raw = typeof envelope.raw === 'string' ? Buffer.from(envelope.raw, 'base64') : Buffer.alloc(0);
  const message = decode(type, raw, kind);
  return { kind, apiVersion, metadata: objectMeta(obj(message.metadata)), ...convert(message) };
}

function decode(type: import('protobufjs').Type, bytes: Uint8Array, what: string): Plain {
  try {
    // int64 fields (generation, seconds) fit a double for every value Kubernetes produces.
    return type.toObject(type.decode(bytes), { longs: Number, bytes: String }) as Plain;
  } catch (err) {
    throw StatusError.of(
      'BadRequest',
      `corrupt protobuf ${what}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

// ---------------------------------------------------------------------------
// Decoded message → JSON, following the Go types' omitempty rules: empty strings, zero numbers,
// empty maps and lists are left out; pointer fields (immutable, controller, ...) are kept when sent.

function obj(value: unknown): Plain {
  return typeof value === 'object' && value !== null ? (value as Plain) : {};
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Copies the fields that were sent (toObject leaves out absent ones and empty maps/lists). */
function pick(m: Plain, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (m[f] !== undefined) out[f] = m[f];
  return out;
}

/** Copies the fields whose value is not the zero value (Go `omitempty` on a non-pointer). */
function nonEmpty(m: Plain, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = m[f];
    if (v !== undefined && v !== '' && v !== 0 && v !== false) out[f] = v;
  }
  return out;
}

/**
 * meta/v1 Time → RFC 3339 (seconds precision, like its JSON form). An empty message is Go's zero
 * time, which upstream marshals as an empty Time: JSON `null`, so undefined here.
 */
function time(value: unknown): string | undefined {
  const t = obj(value);
  if (t.seconds === undefined && t.nanos === undefined) return undefined;
  const seconds = typeof t.seconds === 'number' ? t.seconds : 0;
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function objectMeta(m: Plain): ObjectMeta {
  const meta: ObjectMeta = nonEmpty(m, [
    'name',
    'generateName',
    'namespace',
    'selfLink',
    'uid',
    'resourceVersion',
    'generation',
  ]);
  const created = time(m.creationTimestamp);
  if (created) meta.creationTimestamp = created;
  const deleted = time(m.deletionTimestamp);
  if (deleted) meta.deletionTimestamp = deleted;
  if (typeof m.deletionGracePeriodSeconds === 'number')
    meta.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  Object.assign(meta, pick(m, ['labels', 'annotations', 'finalizers']));
  if (Array.isArray(m.ownerReferences))
    meta.ownerReferences = m.ownerReferences.map((r) => ownerReference(obj(r)));
  if (Array.isArray(m.managedFields))
    meta.managedFields = m.managedFields.map((e) => managedFieldsEntry(obj(e)));
  return meta;
}

function ownerReference(r: Plain): OwnerReference {
  // apiVersion, kind, name and uid have no omitempty: always present in JSON.
  const ref: OwnerReference = {
    apiVersion: str(r.apiVersion),
    kind: str(r.kind),
    name: str(r.name),
    uid: str(r.uid),
  };
  if (typeof r.controller === 'boolean') ref.controller = r.controller;
  if (typeof r.blockOwnerDeletion === 'boolean') ref.blockOwnerDeletion = r.blockOwnerDeletion;
  return ref;
}

function managedFieldsEntry(e: Plain): Record<string, unknown> {
  const out = nonEmpty(e, ['manager', 'operation', 'apiVersion']);
  const at = time(e.time);
  if (at) out.time = at;
  Object.assign(out, nonEmpty(e, ['fieldsType']));
  const raw = obj(e.fieldsV1).Raw;
  // FieldsV1 carries its JSON form verbatim; the JSON encoding inlines it as an object.
  if (typeof raw === 'string' && raw !== '') {
    try {
      out.fieldsV1 = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
    } catch (err) {
      throw StatusError.of('BadRequest', `corrupt managedFields fieldsV1: ${(err as Error).message}`);
    }
  }
  Object.assign(out, nonEmpty(e, ['subresource']));
  return out;
}

function namespaceSpec(s: Plain): Record<string, unknown> {
  return pick(s, ['finalizers']);
}

function namespaceStatus(s: Plain): Record<string, unknown> {
  const out = nonEmpty(s, ['phase']);
  if (Array.isArray(s.conditions)) {
    out.conditions = s.conditions.map((c) => {
      const cond = obj(c);
      // type and status have no omitempty.
      const json: Record<string, unknown> = { type: str(cond.type), status: str(cond.status) };
      const at = time(cond.lastTransitionTime);
      if (at) json.lastTransitionTime = at;
      return Object.assign(json, nonEmpty(cond, ['reason', 'message']));
    });
  }
  return out;
}
