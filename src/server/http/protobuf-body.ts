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
 * we keep (../protobuf/proto/) into the JSON kube-apiserver would write for it
 * (../protobuf/to-json.ts), and answer 415 for others, naming them so the user knows to send JSON.
 * A body carrying a field the upstream schema does not list gets a 415 naming the field too,
 * rather than losing it silently (../protobuf/strict.ts).
 *
 * protobufjs and the schema are loaded on the first protobuf request, not at server start-up.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';

/** The 4 bytes every Kubernetes protobuf body starts with. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The Content-Type of a Kubernetes protobuf body. */
export { PROTOBUF_CONTENT_TYPE } from './media-types.js';

/** The group versions a protobuf body may carry an object of, and their protobuf packages. */
export const PROTOBUF_GROUP_VERSIONS: Readonly<Record<string, string>> = {
  v1: 'k8s.io.api.core.v1',
  'apps/v1': 'k8s.io.api.apps.v1',
  // The Scale of the /scale subresources.
  'autoscaling/v1': 'k8s.io.api.autoscaling.v1',
  'coordination.k8s.io/v1': 'k8s.io.api.coordination.v1',
  'admissionregistration.k8s.io/v1': 'k8s.io.api.admissionregistration.v1',
  'apiextensions.k8s.io/v1': 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1',
};

/**
 * meta/v1 DeleteOptions is registered in every group version (register.go `AddToGroupVersion`), so
 * client-go stamps it with the apiVersion of the resource's client.
 */
const DELETE_OPTIONS = 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions';
const OBJECT_META = '.k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta';

type Codec = Awaited<ReturnType<typeof load>>;
let codec: Promise<Codec> | undefined;

async function load() {
  const [{ default: protobuf }, { PROTO_FILES }, strict, toJson] = await Promise.all([
    import('protobufjs'),
    import('../protobuf/k8s-schema.generated.js'),
    import('../protobuf/strict.js'),
    import('../protobuf/to-json.js'),
  ]);
  const root = new protobuf.Root();
  for (const file of PROTO_FILES) protobuf.parse(file, root, { keepCase: true });
  // No resolveAll(): each type resolves its fields on first use (Type#setup, Field#resolve), which
  // saves a third of the one-time cost.
  return {
    protobuf,
    root,
    unknown: root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown'),
    ...strict,
    ...toJson,
  };
}

/** Parses the schema once, on first use; a failed load is retried on the next request. */
function loadCodec(): Promise<Codec> {
  codec ??= load().catch((err: unknown) => {
    codec = undefined;
    throw err;
  });
  return codec;
}

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
 * a body that is not a valid envelope, 415 UnsupportedMediaType for a kind or a field we cannot
 * decode.
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
