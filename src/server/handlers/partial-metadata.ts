/**
 * Metadata-only answers: `Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`
 * (get and watch) and `as=PartialObjectMetadataList` (list), what kube-controller-manager's
 * garbage collector and controller-runtime's metadata informers ask for. The rules are
 * k8s.io/apiserver's:
 *
 * - negotiation (handlers/negotiation/negotiate.go `NegotiateMediaTypeOptions`, restricted by
 *   handlers/rest.go `AllowsMediaTypeTransform`): Table and PartialObjectMetadata(List) exist in
 *   meta.k8s.io v1 and v1beta1 only; any other `as` is skipped for the next range, and nothing
 *   acceptable is a 406 before the request is served. Custom resources have no plain protobuf
 *   (customresource_handler.go `StandardSerializers`).
 * - the transformation (handlers/response.go `doTransformObject`): `asPartialObjectMetadata` of a
 *   list and `asPartialObjectMetadataList` of one object are 406s naming the Go type; the whole
 *   ObjectMeta is kept (apimachinery meta.go `AsPartialObjectMetadata`), managedFields included.
 * - a watch transforms every event's object, bookmarks too (`watchEmbeddedEncoder`), so a
 *   bookmark is a PartialObjectMetadata carrying the resourceVersion (and the initial-events-end
 *   annotation); a transformation that fails on an event sends the object untransformed.
 *
 * watchmark writes a transformation in JSON, or PartialObjectMetadata(List) v1 in protobuf; one
 * asked for in YAML is skipped for the next range (client-go and controller-runtime always offer
 * JSON next).
 */
import type { IncomingMessage } from 'node:http';
import type { KubeObject, WatchEventType } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { EventEncoder } from '../cache/event.js';
import {
  type AllowsTransform,
  negotiateOutput,
  notAcceptableMessage,
  PROTOBUF_CONTENT_TYPE,
} from '../http/media-types.js';
import { internalMetadata } from '../kinds/apps/daemonset-generation.js';
import type { ResourceKind } from '../kinds/types.js';
import { OBJECT_META_FIELDS } from '../registry/meta.js';
import type { ListResult } from './list.js';

/** The meta.k8s.io versions holding Table and PartialObjectMetadata(List). */
export type MetaVersion = 'v1' | 'v1beta1';

/** What a read answers with: undefined is the object (or list) itself. */
export type ReadOutput =
  | { as: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList'; version: MetaVersion }
  | undefined;

const TRANSFORMS = new Set(['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

/** handlers/rest.go `AllowsMediaTypeTransform`, for a built-in (`custom` false) or custom kind. */
export function allowsTransform(custom: boolean): AllowsTransform {
  return (type, subtype, convert) => {
    if (!convert) return !custom || `${type}/${subtype}` !== PROTOBUF_CONTENT_TYPE;
    if (convert.group !== 'meta.k8s.io' || (convert.version !== 'v1' && convert.version !== 'v1beta1')) {
      return false;
    }
    if (!TRANSFORMS.has(convert.kind) || type !== 'application') return false;
    // Upstream: Table in JSON or YAML, PartialObjectMetadata in any. We write the transformations
    // in JSON, and PartialObjectMetadata(List) of meta.k8s.io/v1 in protobuf (v1beta1's list
    // numbers its fields otherwise, and is not in our schema); a YAML range is skipped.
    if (subtype === 'json') return true;
    return (
      `${type}/${subtype}` === PROTOBUF_CONTENT_TYPE && convert.kind !== 'Table' && convert.version === 'v1'
    );
  };
}

/** Negotiates a get, list or watch of `kind`; throws the 406 when no Accept range is served. */
export function negotiateRead(accept: string | undefined, kind: ResourceKind): ReadOutput {
  const chosen = negotiateOutput(accept, allowsTransform(kind.custom !== undefined));
  if (!chosen) throw StatusError.of('NotAcceptable', notAcceptableMessage());
  const convert = chosen.convert;
  if (!convert) return undefined;
  return { as: convert.kind as NonNullable<ReadOutput>['as'], version: convert.version as MetaVersion };
}

// The internal Go packages of built-in kinds whose package is not the group's first label.
const INTERNAL_PACKAGES: Record<string, string> = {
  '': 'core',
  'events.k8s.io': 'core',
  'rbac.authorization.k8s.io': 'rbac',
  'internal.apiserver.k8s.io': 'apiserverinternal',
};

/** The `%T` of the object kube-apiserver transforms: the internal type, or unstructured's. */
function goType(kind: ResourceKind, list: boolean): string {
  if (kind.custom) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const pkg = INTERNAL_PACKAGES[kind.group] ?? kind.group.split('.')[0];
  return `*${pkg}.${kind.kind}${list ? 'List' : ''}`;
}

/** response.go `asPartialObjectMetadata` of a list. */
export function partialOfList(kind: ResourceKind): StatusError {
  return StatusError.of(
    'NotAcceptable',
    `you requested PartialObjectMetadata, but the requested object is a list (${goType(kind, true)})`,
  );
}

/** response.go `asPartialObjectMetadataList` of one object. */
export function listOfObject(kind: ResourceKind): StatusError {
  return StatusError.of(
    'NotAcceptable',
    `you requested PartialObjectMetadataList, but the requested object is not a list (${goType(kind, false)})`,
  );
}

/**
 * The ObjectMeta of `object` as its Go struct holds it: known fields, in the Go order (which is
 * the JSON order of a PartialObjectMetadata).
 */
function objectMeta(object: KubeObject): Record<string, unknown> {
  const from = internalMetadata(object);
  const meta: Record<string, unknown> = {};
  for (const field of OBJECT_META_FIELDS) {
    if (from[field] !== undefined) meta[field] = from[field];
  }
  return meta;
}

/**
 * The JSON text of `object` as a PartialObjectMetadata: only its metadata is serialised, the
 * internal object's where the kind serves another form (`ResourceKind.printed`).
 */
export function partialObjectMetadataJson(
  object: KubeObject,
  version: MetaVersion,
  kind?: ResourceKind,
): string {
  const internal = kind?.printed?.(object) ?? object;
  return `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/${version}","metadata":${JSON.stringify(objectMeta(internal))}}`;
}

/**
 * A list as a PartialObjectMetadataList: the list's ListMeta and each item's metadata. The items'
 * JSON text, when the cache holds it, is not looked at. An empty list's `items` is `null`, as the
 * Go list built by appending to a nil slice encodes.
 */
export function renderPartialList(result: ListResult, version: MetaVersion, kind?: ResourceKind): string {
  const metadata: Record<string, unknown> = { resourceVersion: String(result.resourceVersion) };
  if (result.continue) metadata.continue = result.continue;
  if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  const head = `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/${version}","metadata":${JSON.stringify(metadata)},"items":`;
  if (result.items.length === 0) return `${head}null}`;
  const items = result.items.map((item) => partialObjectMetadataJson(item.object, version, kind));
  return `${head}[${items.join(',')}]}`;
}

/**
 * A watch line encoder sending each object as a PartialObjectMetadata; lines are shared by every
 * watcher of the same version (the cache keys them by `id`).
 */
export function partialMetadataEncoder(version: MetaVersion): EventEncoder {
  return {
    id: `partial-${version}`,
    encode(type: WatchEventType, object: KubeObject): Buffer {
      return Buffer.from(`{"type":"${type}","object":${partialObjectMetadataJson(object, version)}}\n`);
    },
  };
}

/** A get's metadata-only answer (`output` not a Table): the PartialObjectMetadata, or the 406. */
export function partialObjectAnswer(
  kind: ResourceKind,
  object: KubeObject,
  output: NonNullable<ReadOutput>,
): string {
  if (output.as === 'PartialObjectMetadataList') throw listOfObject(kind);
  return partialObjectMetadataJson(object, output.version, kind);
}

/** A list's metadata-only answer (`output` not a Table): the PartialObjectMetadataList, or the 406. */
export function partialListAnswer(
  kind: ResourceKind,
  result: ListResult,
  output: NonNullable<ReadOutput>,
): string {
  if (output.as === 'PartialObjectMetadata') throw partialOfList(kind);
  return renderPartialList(result, output.version, kind);
}

/** A watch's encoder and bookmark type when it asked for PartialObjectMetadata; else undefined. */
export function partialWatch(
  output: ReadOutput,
): { encoder: EventEncoder; bookmarkType: { kind: string; apiVersion: string } } | undefined {
  // `as=PartialObjectMetadataList` fails on every event, which `watchEmbeddedEncoder` then sends
  // untransformed. (kube-apiserver encodes it with the meta.k8s.io codecs, which know custom
  // resources' unstructured objects but not built-in types: there its stream ends at the first
  // event. We send the object, as for custom kinds.)
  if (output?.as !== 'PartialObjectMetadata') return undefined;
  return {
    encoder: partialMetadataEncoder(output.version),
    bookmarkType: { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${output.version}` },
  };
}

/**
 * The metadata-only answer a write asked for, by request. create.go, update.go, patch.go and
 * delete.go negotiate the output (`NegotiateOutputMediaType`) before anything else, so a 406
 * comes before the write, and transform the written object with it afterwards
 * (`transformResponseObject`): a controller's metadata client gets a PartialObjectMetadata back.
 */
const writeOutputs = new WeakMap<IncomingMessage, NonNullable<ReadOutput>>();

/** Negotiates a write's answer (throwing the 406 now) and remembers a metadata-only one for {@link writeOutputOf}. */
export function negotiateWrite(req: IncomingMessage, kind: ResourceKind): void {
  const output = negotiateRead(req.headers.accept, kind);
  if (output && output.as !== 'Table') writeOutputs.set(req, output);
}

/** The metadata-only form a write's answer takes, if its request asked for one. */
export function writeOutputOf(req: IncomingMessage): NonNullable<ReadOutput> | undefined {
  return writeOutputs.get(req);
}
