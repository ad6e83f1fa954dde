/**
 * Decoding of Kubernetes protobuf request bodies (`Content-Type: application/vnd.kubernetes.protobuf`).
 *
 * kubectl 1.32+ sends `kubectl create` objects as protobuf, and Go clients built with
 * `ContentType: application/vnd.kubernetes.protobuf` (controller-runtime, kube-controller-manager)
 * send every built-in kind that way, DeleteOptions included (client-go rest/request.go
 * `Request.Body` encodes any runtime.Object with the client's content type). The envelope
 * (apimachinery runtime/serializer/protobuf/protobuf.go `Serializer.Decode`) is the 4-byte magic
 * `k8s\0` followed by a `runtime.Unknown` whose `raw` holds the object, with its apiVersion and
 * kind in `typeMeta`. We decode every kind of the group versions whose upstream `generated.proto`
 * we keep (scripts/protobuf/proto/) into the JSON kube-apiserver would write for it
 * (../protobuf/to-json.ts), and answer 415 for others, naming them so the user knows to send JSON.
 * A body carrying a field the upstream schema does not list gets a 415 naming the field too,
 * rather than losing it silently (../protobuf/strict.ts).
 *
 * protobufjs and the schema are loaded on the first protobuf request, not at server start-up
 * (../protobuf/codec.ts).
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { loadProtobufCodec, PROTOBUF_GROUP_VERSIONS, type ProtobufCodec } from '../protobuf/codec.js';
import { envelopeError, summarizeData } from '../protobuf/gogo-envelope.js';

/** The 4 bytes every Kubernetes protobuf body starts with. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The Content-Type of a Kubernetes protobuf body. */
export { PROTOBUF_CONTENT_TYPE } from './media-types.js';
/** The group versions a protobuf body may carry an object of, and their protobuf packages. */
export { PROTOBUF_GROUP_VERSIONS };

/**
 * meta/v1 DeleteOptions is registered in every group version (register.go `AddToGroupVersion`), so
 * client-go stamps it with the apiVersion of the resource's client.
 */
const DELETE_OPTIONS = 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions';
const OBJECT_META = '.k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta';

type Codec = ProtobufCodec;
const loadCodec = loadProtobufCodec;

/** The message type of `kind` in `apiVersion`: a top-level object (one with ObjectMeta) or DeleteOptions. */
function kindType(c: Codec, apiVersion: string, kind: string): import('protobufjs').Type | undefined {
  if (kind === 'DeleteOptions') return c.root.lookupType(DELETE_OPTIONS);
  const pkg = PROTOBUF_GROUP_VERSIONS[apiVersion];
  const type = pkg ? c.root.lookup(`${pkg}.${kind}`) : null;
  if (!(type instanceof c.protobuf.Type)) return undefined;
  return type.fields.metadata?.resolve().resolvedType?.fullName === OBJECT_META ? type : undefined;
}

/**
 * Decodes a Kubernetes protobuf request body into the JSON form of the object (minus a zero
 * top-level `creationTimestamp`, which the server sets). Throws a StatusError: 400 BadRequest for
 * a body that is not a valid envelope (in Go's words when `targetKind`, the endpoint's kind, is
 * given), 415 UnsupportedMediaType for a kind or a field we cannot decode.
 */
export async function decodeProtobufObject(body: Buffer, targetKind?: string): Promise<KubeObject> {
  // A create or update body (the endpoint's kind known) fails in Go's words where Go's decoder
  // would fail: the prefix and the runtime.Unknown envelope (handlers/rest.go `transformDecodeError`).
  const goError = targetKind === undefined ? undefined : envelopeError(body);
  if (goError !== undefined) {
    throw StatusError.of(
      'BadRequest',
      `the object provided is unrecognized (must be of type ${targetKind}): ${goError} (${summarizeData(body)})`,
    );
  }
  if (
    body.length < PROTOBUF_MAGIC.length ||
    !body.subarray(0, PROTOBUF_MAGIC.length).equals(PROTOBUF_MAGIC)
  ) {
    throw StatusError.of('BadRequest', 'protobuf body does not start with the Kubernetes magic "k8s\\0"');
  }
  const c = await loadCodec();
  const envelope = decode(c, c.unknown, body.subarray(PROTOBUF_MAGIC.length), 'runtime.Unknown');
  const typeMeta = (envelope.typeMeta ?? {}) as Record<string, unknown>;
  const apiVersion = typeof typeMeta.apiVersion === 'string' ? typeMeta.apiVersion : '';
  const kind = typeof typeMeta.kind === 'string' ? typeMeta.kind : '';
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
  const type = kindType(c, apiVersion, kind);
  if (!type) {
    throw StatusError.of(
      'UnsupportedMediaType',
      `protobuf bodies are supported for the kinds of ${Object.keys(PROTOBUF_GROUP_VERSIONS).join(', ')}; ` +
        `send application/json for ${kind} (${apiVersion})`,
    );
  }
  const raw = envelope.raw instanceof Uint8Array ? envelope.raw : new Uint8Array();
  const json = c.messageJson(type, decode(c, type, raw, kind)) as Record<string, unknown>;
  const metadata = json.metadata as Record<string, unknown> | undefined;
  // The server sets its own creationTimestamp; a zero one (JSON null) would only be noise.
  if (metadata && metadata.creationTimestamp === null) delete metadata.creationTimestamp;
  return { kind, apiVersion, ...json } as KubeObject;
}

/** Decodes one message strictly: 400 for corrupt bytes, 415 for a field the schema does not list. */
function decode(c: Codec, type: import('protobufjs').Type, bytes: Uint8Array, what: string) {
  let message: import('protobufjs').Message;
  try {
    message = type.decode(bytes);
  } catch (err) {
    throw corrupt(what, err);
  }
  try {
    c.checkKnownFields(type, bytes);
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw corrupt(what, err);
  }
  return type.toObject(message, c.TO_OBJECT);
}

function corrupt(what: string, err: unknown): StatusError {
  return StatusError.of(
    'BadRequest',
    `corrupt protobuf ${what}: ${err instanceof Error ? err.message : String(err)}`,
  );
}

/**
 * The DeleteOptions of a DELETE sent as protobuf (client-go's typed Delete and DeleteCollection
 * send `Body(&opts)` in the client's content type): its JSON form. Another kind in the envelope is
 * a 400 with the message of apiserver endpoints/handlers/delete.go `DeleteResource`.
 */
export async function decodeProtobufDeleteOptions(body: Buffer): Promise<Record<string, unknown>> {
  const decoded = await decodeProtobufObject(body);
  if (decoded.kind !== 'DeleteOptions') {
    throw StatusError.of('BadRequest', 'decoded object cannot be converted to DeleteOptions');
  }
  return decoded as unknown as Record<string, unknown>;
}
