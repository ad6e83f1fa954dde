/**
 * Answers in protobuf: the JSON form of an answer (an object, a list, a Status, a
 * PartialObjectMetadata, a discovery document) written as kube-apiserver's protobuf serializer
 * writes the Go object behind it. Two framings, from apimachinery
 * runtime/serializer/protobuf/protobuf.go:
 *
 * - a body (`Serializer.Encode`): the 4-byte magic `k8s\0`, then a runtime.Unknown holding the
 *   object's apiVersion and kind (typeMeta), its bytes (raw), and empty contentEncoding and
 *   contentType, which gogo writes all the same;
 * - a watch stream (`application/vnd.kubernetes.protobuf;stream=watch`: the raw serializer framed
 *   by `LengthDelimitedFramer`): per event a 4-byte big-endian length, then a meta/v1 WatchEvent
 *   whose object is a RawExtension holding the object as a body (handlers/watch.go encodes the
 *   embedded object with the negotiated serializer, magic and envelope included).
 */
import protobuf from 'protobufjs';
import { writeMessage } from './from-json.js';
import { PROTOBUF_GROUP_VERSIONS } from './group-versions.js';
import { messageJson, TO_OBJECT } from './to-json.js';

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** The 4 bytes every Kubernetes protobuf body starts with. */
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/**
 * The meta/v1 kinds an answer may carry: Status (registered in every group version as `v1`),
 * the metadata-only forms of meta.k8s.io/v1 and the discovery documents.
 */
const META_KINDS = new Set([
  'Status',
  'PartialObjectMetadata',
  'PartialObjectMetadataList',
  'APIGroupList',
  'APIGroup',
  'APIVersions',
  'APIResourceList',
]);

/** Group versions answered in protobuf, never read from a body: aggregated discovery. */
const ANSWER_GROUP_VERSIONS: Readonly<Record<string, string>> = {
  'apidiscovery.k8s.io/v2': 'k8s.io.api.apidiscovery.v2',
};

/** The message type of `kind` in `apiVersion`, or undefined when it has no protobuf form. */
export function answerType(root: protobuf.Root, apiVersion: string, kind: string): protobuf.Type | undefined {
  const pkg =
    // The discovery documents APIVersions and APIResourceList carry no apiVersion.
    META_KINDS.has(kind) && (apiVersion === 'v1' || apiVersion === '' || apiVersion === 'meta.k8s.io/v1')
      ? META
      : (PROTOBUF_GROUP_VERSIONS[apiVersion] ?? ANSWER_GROUP_VERSIONS[apiVersion]);
  const type = pkg ? root.lookup(`${pkg}.${kind}`) : null;
  return type instanceof protobuf.Type ? type : undefined;
}

/** Thrown for an answer whose kind has no protobuf form (a Table, a custom resource). */
export class NotProtobufError extends Error {}

/** One object (with its apiVersion and kind) as a protobuf body: magic, then the runtime.Unknown. */
export function encodeBody(root: protobuf.Root, object: Record<string, unknown>): Buffer {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const kind = typeof object.kind === 'string' ? object.kind : '';
  const type = answerType(root, apiVersion, kind);
  if (!type) throw new NotProtobufError(`object ${kind} (${apiVersion}) has no protobuf form`);
  const w = protobuf.Writer.create();
  // runtime generated.pb.go `Unknown.MarshalToSizedBuffer`: typeMeta (1: apiVersion 1, kind 2),
  // raw (2), contentEncoding (3), contentType (4).
  w.uint32(0x0a).fork().uint32(0x0a).string(apiVersion).uint32(0x12).string(kind).ldelim();
  w.uint32(0x12).fork();
  writeMessage(w, type, object);
  w.ldelim();
  w.uint32(0x1a).string('').uint32(0x22).string('');
  return Buffer.concat([MAGIC, w.finish()]);
}

/** One watch event (`{type, object}` JSON) as a length-prefixed WatchEvent frame. */
export function encodeWatchFrame(
  root: protobuf.Root,
  event: { type: string; object: Record<string, unknown> },
): Buffer {
  const body = encodeBody(root, event.object);
  const w = protobuf.Writer.create();
  // meta/v1 generated.pb.go `WatchEvent.MarshalToSizedBuffer`: type (1), object (2: RawExtension raw 1).
  w.uint32(0x0a).string(event.type);
  w.uint32(0x12).fork().uint32(0x0a).bytes(body).ldelim();
  const message = w.finish();
  const frame = Buffer.allocUnsafe(4 + message.length);
  frame.writeUInt32BE(message.length, 0);
  frame.set(message, 4);
  return frame;
}

/**
 * A protobuf body back to the JSON kube-apiserver would write for it (the fidelity corpus and
 * the tests read answers with it): `{kind, apiVersion, ...fields}`.
 */
export function decodeBody(root: protobuf.Root, body: Uint8Array): Record<string, unknown> {
  if (!MAGIC.equals(body.subarray(0, MAGIC.length))) throw new Error('not a Kubernetes protobuf body');
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const envelope = unknown.toObject(unknown.decode(body.subarray(MAGIC.length)), TO_OBJECT);
  const typeMeta = (envelope.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const apiVersion = typeMeta.apiVersion ?? '';
  const kind = typeMeta.kind ?? '';
  const type = answerType(root, apiVersion, kind);
  if (!type) throw new NotProtobufError(`object ${kind} (${apiVersion}) has no protobuf form`);
  const raw = envelope.raw instanceof Uint8Array ? envelope.raw : new Uint8Array();
  const fields = messageJson(type, type.toObject(type.decode(raw), TO_OBJECT)) as Record<string, unknown>;
  // The discovery documents that carry no apiVersion have none in JSON either.
  return apiVersion ? { kind, apiVersion, ...fields } : { kind, ...fields };
}

/**
 * The complete frames of a protobuf watch stream, decoded; `rest` is what is left of an
 * incomplete last frame.
 */
export function decodeWatchFrames(
  root: protobuf.Root,
  stream: Buffer,
): { events: Array<{ type: string; object: Record<string, unknown> }>; rest: Buffer } {
  const watchEvent = root.lookupType(`${META}.WatchEvent`);
  const events: Array<{ type: string; object: Record<string, unknown> }> = [];
  let at = 0;
  while (stream.length - at >= 4) {
    const length = stream.readUInt32BE(at);
    if (stream.length - at - 4 < length) break;
    const event = watchEvent.toObject(watchEvent.decode(stream.subarray(at + 4, at + 4 + length)));
    const raw = (event.object as { raw?: Uint8Array } | undefined)?.raw ?? new Uint8Array();
    events.push({ type: String(event.type ?? ''), object: decodeBody(root, raw) });
    at += 4 + length;
  }
  return { events, rest: stream.subarray(at) };
}
