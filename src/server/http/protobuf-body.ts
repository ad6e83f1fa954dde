/**
 * Decoding of Kubernetes protobuf request bodies (`Content-Type: application/vnd.kubernetes.protobuf`).
 *
 * kubectl 1.32+ sends the objects of `kubectl create <generator>` as protobuf with no fallback to
 * JSON: a 415 or 400 answer is fatal. The envelope is the 4-byte magic `k8s\0` followed by a
 * `runtime.Unknown` whose `raw` holds the object. We decode the kinds of the everyday generators
 * (`create namespace`, `configmap`, `secret`, `deployment`, `service`) into the JSON kubectl 1.31
 * would have sent, and answer 415 for other kinds, naming them so the user knows to send JSON.
 * A body carrying a field our schema does not list gets a 415 naming the field too, rather than
 * losing it silently (./protobuf/strict.ts).
 *
 * protobufjs is loaded on the first protobuf request, not at server start-up.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { deployment } from '../protobuf/json-apps.js';
import { configMap, namespace, secret, service } from '../protobuf/json-core.js';
import { type Json, obj, objectMeta, type Plain, str } from '../protobuf/json-meta.js';
import { SCHEMA } from '../protobuf/schema.js';

/** The 4 bytes every Kubernetes protobuf body starts with. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The Content-Type of a Kubernetes protobuf body. */
export { PROTOBUF_CONTENT_TYPE } from './media-types.js';

/** A kind a protobuf body may carry: its group version, and how its decoded message becomes JSON. */
interface ProtobufKind {
  apiVersion: string;
  toJson: (m: Plain) => Json;
}

/** The supported kinds, in the order the 415 message names them. */
const KINDS: Record<string, ProtobufKind> = {
  Namespace: { apiVersion: 'v1', toJson: namespace },
  ConfigMap: { apiVersion: 'v1', toJson: configMap },
  Secret: { apiVersion: 'v1', toJson: secret },
  Service: { apiVersion: 'v1', toJson: service },
  Deployment: { apiVersion: 'apps/v1', toJson: deployment },
};

/** The kinds a protobuf body may carry, as `Kind (group/version)`. */
export const PROTOBUF_KINDS: readonly string[] = Object.entries(KINDS).map(
  ([kind, { apiVersion }]) => `${kind} (${apiVersion})`,
);

type ProtobufType = import('protobufjs').Type;

interface Codec {
  unknown: ProtobufType;
  kinds: Map<string, ProtobufType>;
  checkKnownFields: (type: ProtobufType, bytes: Uint8Array) => void;
}

let codec: Promise<Codec> | undefined;

/** Parses the schema once, on first use; a failed load is retried on the next request. */
function loadCodec(): Promise<Codec> {
  codec ??= Promise.all([import('protobufjs'), import('../protobuf/strict.js')]).then(
    ([{ default: protobuf }, { checkKnownFields }]) => {
      const root = protobuf.parse(SCHEMA, { keepCase: true }).root.resolveAll();
      const kinds = new Map(Object.keys(KINDS).map((k) => [k, root.lookupType(`watchmark.k8s.${k}`)]));
      return { unknown: root.lookupType('watchmark.k8s.Unknown'), kinds, checkKnownFields };
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
 * would have sent it, minus the top-level `creationTimestamp: null`). Throws a StatusError: 400
 * BadRequest for a body that is not a valid envelope, 415 UnsupportedMediaType for a kind or a
 * field we cannot decode.
 */
export async function decodeProtobufObject(body: Buffer): Promise<KubeObject> {
  if (
    body.length < PROTOBUF_MAGIC.length ||
    !body.subarray(0, PROTOBUF_MAGIC.length).equals(PROTOBUF_MAGIC)
  ) {
    throw StatusError.of('BadRequest', 'protobuf body does not start with the Kubernetes magic "k8s\\0"');
  }
  const c = await loadCodec();
  const envelope = decode(c, c.unknown, body.subarray(PROTOBUF_MAGIC.length), 'runtime.Unknown');
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
  const supported = KINDS[kind]?.apiVersion === apiVersion ? KINDS[kind] : undefined;
  const type = supported && c.kinds.get(kind);
  if (!supported || !type) {
    throw StatusError.of(
      'UnsupportedMediaType',
      `protobuf bodies are supported for ${PROTOBUF_KINDS.join(', ')}; ` +
        `send application/json for ${kind} (${apiVersion})`,
    );
  }
  const raw = typeof envelope.raw === 'string' ? Buffer.from(envelope.raw, 'base64') : Buffer.alloc(0);
  const message = decode(c, type, raw, kind);
  const metadata = objectMeta(obj(message.metadata));
  // The server sets its own creationTimestamp; a zero one (JSON null) would only be noise.
  if (metadata.creationTimestamp === null) delete metadata.creationTimestamp;
  return { kind, apiVersion, metadata, ...supported.toJson(message) };
}

/** Decodes one message strictly: 400 for corrupt bytes, 415 for a field the schema does not list. */
function decode(c: Codec, type: ProtobufType, bytes: Uint8Array, what: string): Plain {
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
  // int64 fields (generation, seconds) fit a double for every value Kubernetes produces.
  return type.toObject(message, { longs: Number, bytes: String }) as Plain;
}

function corrupt(what: string, err: unknown): StatusError {
  return StatusError.of(
    'BadRequest',
    `corrupt protobuf ${what}: ${err instanceof Error ? err.message : String(err)}`,
  );
}
