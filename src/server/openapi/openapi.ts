/**
 * The OpenAPI answers kubectl needs for `apply` with default validation (kubectl-needs §5, §5a):
 *
 * - `/openapi/v3` root: one `serverRelativeURL` per group-version, with `?hash=` of the document;
 * - `/openapi/v3/api/v1`, `/openapi/v3/apis/<g>/<v>`: per kind, the operations of the real document.
 *   kubectl 1.29+ decides that the server validates fields (and so skips client-side validation)
 *   by finding a PATCH operation tagged with the kind's `x-kubernetes-group-version-kind` that
 *   lists a `fieldValidation` query parameter; without one, apply fails.
 * - the same documents' `components.schemas` (openapi-schemas.ts): the kinds' schemas with their
 *   patch merge keys, from which kubectl 1.29+ computes `apply`'s strategic merge patch. Without
 *   them it warns `error calculating patch from openapi v3 spec: OpenAPI V3 Components is nil`.
 * - `/openapi/v2` (openapi-v2.ts): the Swagger 2.0 document, in gnostic protobuf for kubectl.
 *   1.27/1.28 fetch it up front (a 404 is fatal); every version explains from it with
 *   `--output=plaintext-openapiv2`, and kubectl before 1.27 explains and validates from it.
 *
 * Custom resources' paths and schemas are apiextensions-apiserver's (custom-openapi.ts). Each
 * kind-table snapshot gets its own documents (KindTable.all() is replaced on every change), so
 * the hashes, the ETags and the v2 document change exactly when the served kinds do.
 */
import { createHash } from 'node:crypto';
import type { ResourceKind } from '../kinds/types.js';
import { CUSTOM_DOCUMENT_INFO, customComponentSchemas, customKindPaths } from './custom-openapi.js';
import { groupVersionsOf, resourceVerbs } from './discovery.js';
import { loadApiDescriptions } from './openapi-descriptions.js';
import type { ApiDescriptionTable } from './openapi-model.js';
import { componentSchemas, type OpenApiSchema } from './openapi-schemas.js';
import type { SwaggerDocument } from './openapi-v2.js';
import { BUILTIN_MEDIA, type Gvk, type OpenApiPathItem, type OpSpec, operation } from './operations.js';
import { P } from './parameters.js';
import { KUBE_GIT_VERSION } from './version.js';

export type { OpenApiOperation, OpenApiPathItem } from './operations.js';
export type { OpenApiParameter } from './parameters.js';

/** One group-version document (`/openapi/v3/apis/apps/v1`). */
export interface OpenApiV3GroupDocument {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, OpenApiPathItem>;
  components: { schemas: Record<string, OpenApiSchema> };
}

/** The `/openapi/v3` root. */
export interface OpenApiV3Root {
  paths: Record<string, { serverRelativeURL: string }>;
}

/** A group-version document, serialized once so that its bytes and its hash agree. */
export interface OpenApiV3Document {
  /** `api/v1` or `apis/apps/v1`: the path under `/openapi/v3/`. */
  key: string;
  /** The JSON body to send (Content-Type `application/json`). */
  body: string;
  /** Upper-case hex SHA-512 of `body`, as kube-apiserver puts in `?hash=` (and the ETag). */
  hash: string;
}

/** Everything `/openapi/v3*` serves, precomputed from the kind table. */
export interface OpenApiV3 {
  root: OpenApiV3Root;
  /** Keyed by {@link OpenApiV3Document.key}. */
  documents: Map<string, OpenApiV3Document>;
}

/** The `/openapi/v3` root key of a group-version: `api/v1` for core, `apis/<g>/<v>` otherwise. */
export function openApiV3Key(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/** Built documents by kind table and description table: with their schemas they take milliseconds to build and hash. */
const built = new WeakMap<readonly ResourceKind[], Map<ApiDescriptionTable | undefined, OpenApiV3>>();

/**
 * Builds the `/openapi/v3` root and every group-version document, with the upstream
 * `descriptions` on the schemas when given. The kind table is fixed at start-up, so each table
 * is built once (and the answer shared); the root's `?hash=` then always matches the body.
 */
export function buildOpenApiV3(
  kinds: readonly ResourceKind[],
  descriptions?: ApiDescriptionTable,
): OpenApiV3 {
  let byDescriptions = built.get(kinds);
  if (!byDescriptions) {
    byDescriptions = new Map();
    built.set(kinds, byDescriptions);
  }
  let openapi = byDescriptions.get(descriptions);
  if (!openapi) {
    openapi = buildDocuments(kinds, descriptions);
    byDescriptions.set(descriptions, openapi);
  }
  return openapi;
}

/**
 * What the server serves at `/openapi/v3*`: the documents with the upstream descriptions, which
 * are loaded on the first call (the first OpenAPI request), not when the server starts.
 */
export async function servedOpenApiV3(kinds: readonly ResourceKind[]): Promise<OpenApiV3> {
  return buildOpenApiV3(kinds, await loadApiDescriptions());
}

function buildDocuments(kinds: readonly ResourceKind[], descriptions?: ApiDescriptionTable): OpenApiV3 {
  const documents = new Map<string, OpenApiV3Document>();
  const root: OpenApiV3Root = { paths: {} };
  for (const { group, version } of groupVersionsOf(kinds)) {
    const key = openApiV3Key(group, version);
    const body = JSON.stringify(openApiV3GroupDocument(kinds, group, version, descriptions));
    const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
    documents.set(key, { key, body, hash });
    root.paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { root, documents };
}

/** Built v2 documents by kind table: the document, and its JSON and protobuf bodies, each made on first use. */
const builtV2 = new WeakMap<
  readonly ResourceKind[],
  Partial<Record<'json' | 'protobuf', OpenApiV2Body>> & { doc?: SwaggerDocument }
>();

/** A `/openapi/v2` body with its ETag (upper-case hex SHA-512, handler.go `computeETag`). */
interface OpenApiV2Body {
  body: Buffer;
  etag: string;
}

/** The answer to `GET /openapi/v2`: 406 when the Accept header takes neither form. */
export type OpenApiV2Answer =
  | { status: 200; contentType: string; body: Buffer; etag: string }
  | { status: 406; body: Buffer };

const V2_MEDIA = {
  json: 'application/json',
  protobuf: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
} as const;

/**
 * The form an Accept header asks `/openapi/v2` for, as kube-openapi handler.go
 * `RegisterOpenAPIVersionedService` picks it: the clauses by preference, the first that is JSON,
 * the protobuf type, or its deprecated `@v1.0` spelling kubectl sends (no header: any).
 */
function negotiateV2(accept: string | undefined): 'json' | 'protobuf' | undefined {
  const clauses = (accept || '*/*')
    .split(',')
    .map((c, i) => {
      const [type = '', ...params] = c.split(';').map((p) => p.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { type: type.toLowerCase(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((c) => c.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { type } of clauses) {
    if (type === '*/*' || type === 'application/*' || type === 'application/json') return 'json';
    if (type === 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' || type === V2_MEDIA.protobuf) {
      return 'protobuf';
    }
  }
  return undefined;
}

/**
 * The answer to `GET /openapi/v2` (openapi-v2.ts): gnostic protobuf for kubectl's Accept
 * (answered as `...spec.v2.v1.0+protobuf`, a type Go's mime parser takes), JSON for `*\/*` or
 * JSON, with the body's ETag. Built once per kind table and form, with the upstream descriptions.
 */
export async function openApiV2Response(
  kinds: readonly ResourceKind[],
  accept: string | undefined,
): Promise<OpenApiV2Answer> {
  const form = negotiateV2(accept);
  if (!form) return { status: 406, body: Buffer.alloc(0) };
  let cached = builtV2.get(kinds);
  if (!cached) {
    cached = {};
    builtV2.set(kinds, cached);
  }
  let built = cached[form];
  if (!built) {
    const descriptions = await loadApiDescriptions();
    const [{ buildOpenApiV2 }, { encodeOpenApiV2 }] = await Promise.all([
      import('./openapi-v2.js'),
      import('./openapi-v2-proto.js'),
    ]);
    // Both forms are made from one document, built once per kind table.
    cached.doc ??= buildOpenApiV2(kinds, descriptions);
    const doc = cached.doc;
    const body = form === 'protobuf' ? encodeOpenApiV2(doc) : Buffer.from(JSON.stringify(doc));
    built = { body, etag: createHash('sha512').update(body).digest('hex').toUpperCase() };
    cached[form] = built;
  }
  return { status: 200, contentType: V2_MEDIA[form], ...built };
}

// ---------------------------------------------------------------------------
// Group-version documents

/** `apps` → `Apps`, `coordination.k8s.io` → `Coordination`, `rbac.authorization.k8s.io` → `RbacAuthorization`. */
function groupPascal(group: string): string {
  if (!group) return 'Core';
  return group
    .replace(/\.k8s\.io$/, '')
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The paths (with all their operations) one kind contributes to its group-version document. */
function kindPaths(k: ResourceKind): Record<string, OpenApiPathItem> {
  const base = k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`;
  const gvk = { group: k.group, version: k.version, kind: k.kind };
  const prefix = `${groupPascal(k.group)}${k.version.charAt(0).toUpperCase()}${k.version.slice(1)}`;
  const tag = `${k.group ? k.group.replace(/\.k8s\.io$/, '').replace(/\./g, '_') : 'core'}_${k.version}`;
  const ns = k.namespaced ? 'Namespaced' : '';
  const collection = k.namespaced ? `${base}/namespaces/{namespace}/${k.plural}` : `${base}/${k.plural}`;
  const item = `${collection}/{name}`;
  const scopeParams = k.namespaced ? [P.namespace] : [];
  const op = (verb: OpSpec['verb'], subject: string, description: string, opGvk: Gvk = gvk) =>
    operation({ verb, subject, gvk: opGvk, tag, prefix, description, media: BUILTIN_MEDIA });

  const paths: Record<string, OpenApiPathItem> = {
    [collection]: {
      get: op('list', `${ns}${k.kind}`, `list or watch objects of kind ${k.kind}`),
      post: op('create', `${ns}${k.kind}`, `create a ${k.kind}`),
      ...(resourceVerbs(k).includes('deletecollection')
        ? { delete: op('deletecollection', `${ns}${k.kind}`, `delete collection of ${k.kind}`) }
        : {}),
      parameters: [...scopeParams, P.pretty],
    },
    [item]: {
      get: op('read', `${ns}${k.kind}`, `read the specified ${k.kind}`),
      put: op('replace', `${ns}${k.kind}`, `replace the specified ${k.kind}`),
      delete: op('delete', `${ns}${k.kind}`, `delete a ${k.kind}`),
      patch: op('patch', `${ns}${k.kind}`, `partially update the specified ${k.kind}`),
      parameters: [P.name(k.kind), ...scopeParams, P.pretty],
    },
  };
  for (const sub of k.subresources.filter((s) => s === 'status' || s === 'scale')) {
    const Sub = sub === 'status' ? 'Status' : 'Scale';
    // The scale subresource reads and writes an autoscaling/v1 Scale, whatever the parent kind.
    const subGvk = sub === 'scale' ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : gvk;
    paths[`${item}/${sub}`] = {
      get: op('read', `${ns}${k.kind}${Sub}`, `read ${sub} of the specified ${k.kind}`, subGvk),
      put: op('replace', `${ns}${k.kind}${Sub}`, `replace ${sub} of the specified ${k.kind}`, subGvk),
      patch: op(
        'patch',
        `${ns}${k.kind}${Sub}`,
        `partially update ${sub} of the specified ${k.kind}`,
        subGvk,
      ),
      parameters: [P.name(k.kind), ...scopeParams, P.pretty],
    };
  }
  if (k.namespaced) {
    paths[`${base}/${k.plural}`] = {
      get: op('list', `${k.kind}ForAllNamespaces`, `list or watch objects of kind ${k.kind}`),
      parameters: [P.pretty],
    };
  }
  return paths;
}

/**
 * The OpenAPI v3 document of one group-version ("" group = core): every path of its kinds, with
 * list/create/deletecollection, read/replace/patch/delete, status/scale and all-namespaces list
 * operations, each tagged with `x-kubernetes-group-version-kind`, and the `components.schemas`
 * of its kinds (with `descriptions`, the upstream description of every type and field).
 */
export function openApiV3GroupDocument(
  kinds: readonly ResourceKind[],
  group: string,
  version: string,
  descriptions?: ApiDescriptionTable,
): OpenApiV3GroupDocument {
  const paths: Record<string, OpenApiPathItem> = {};
  const served = kinds
    .filter((k) => k.group === group && k.version === version)
    .sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  for (const k of served) Object.assign(paths, k.custom ? customKindPaths(k) : kindPaths(k));
  const builtins = served.filter((k) => !k.custom);
  const schemas = {
    ...componentSchemas(builtins, descriptions),
    ...customComponentSchemas(served, descriptions),
  };
  return {
    openapi: '3.0.0',
    // A group-version of definitions only is apiextensions-apiserver's document (openapiv3 controller).
    info:
      builtins.length === 0
        ? { ...CUSTOM_DOCUMENT_INFO }
        : { title: 'Kubernetes', version: KUBE_GIT_VERSION },
    paths,
    components: { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))) },
  };
}
