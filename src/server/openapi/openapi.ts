/**
 * The OpenAPI answers kubectl needs for `apply` with default validation (kubectl-needs §5, §5a):
 *
 * - `/openapi/v3` root: one `serverRelativeURL` per document, with `?hash=` of its bytes: every
 *   group-version, each built-in group (`apis/apps`), and the server's own web services (`api`,
 *   `apis`, `version`, the OIDC discovery routes), as kube-apiserver registers them;
 * - `/openapi/v3/api/v1`, `/openapi/v3/apis/<g>/<v>`: every route of the group-version's kinds,
 *   written from the `/openapi/v2` routes as kube-openapi's builder3 writes them
 *   (openapi-v3-paths.ts), byte for byte the reference's (openapi-v3-json.ts). kubectl 1.29+ decides that the server validates fields (and so skips client-side validation)
 *   by finding a PATCH operation tagged with the kind's `x-kubernetes-group-version-kind` that
 *   lists a `fieldValidation` query parameter; without one, apply fails.
 * - the same documents' `components.schemas` (openapi-v3-components.ts): every schema the routes
 *   reach, the kinds' with their patch merge keys, from which kubectl 1.29+ computes `apply`'s strategic merge patch. Without
 *   them it warns `error calculating patch from openapi v3 spec: OpenAPI V3 Components is nil`.
 * - `/openapi/v2` (openapi-v2.ts): the Swagger 2.0 document, in gnostic protobuf for kubectl.
 *   1.27/1.28 fetch it up front (a 404 is fatal); every version explains from it with
 *   `--output=plaintext-openapiv2`, and kubectl before 1.27 explains and validates from it.
 *
 * Custom resources' routes and schemas are apiextensions-apiserver's (openapi-v2-custom-paths.ts,
 * custom-openapi.ts). Each
 * kind-table snapshot gets its own documents (KindTable.all() is replaced on every change), so
 * the hashes, the ETags and the v2 document change exactly when the served kinds do.
 */
import { createHash } from 'node:crypto';
import type { ResourceKind } from '../kinds/types.js';
import { CUSTOM_DOCUMENT_INFO, customComponentSchemas } from './custom-openapi.js';
import { groupVersionsOf } from './discovery.js';
import { loadApiDescriptions } from './openapi-descriptions.js';
import type { ApiDescriptionTable } from './openapi-model.js';
import type { OpenApiSchema } from './openapi-schemas.js';
import type { SwaggerDocument } from './openapi-v2.js';
import type { Json } from './openapi-v2-routes.js';
import { V3_REFERENCE } from './openapi-v3.generated.js';
import {
  reachedSchemas,
  type SchemaSource,
  schemaSource,
  withGroupVersion,
} from './openapi-v3-components.js';
import { goJsonDocument } from './openapi-v3-json.js';
import { type OpenApiPathItem, v3GroupVersionPaths, v3ServicePaths } from './openapi-v3-paths.js';

export type { OpenApiOperation, OpenApiParameter, OpenApiPathItem } from './openapi-v3-paths.js';

/** One group-version document (`/openapi/v3/apis/apps/v1`). */
export interface OpenApiV3GroupDocument {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, OpenApiPathItem>;
  components: { schemas: Record<string, OpenApiSchema>; securitySchemes?: Record<string, unknown> };
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
  const add = (key: string, doc: OpenApiV3GroupDocument) => {
    const body = goJsonDocument(doc);
    const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
    documents.set(key, { key, body, hash });
  };
  for (const { group, version } of groupVersionsOf(kinds)) {
    add(openApiV3Key(group, version), openApiV3GroupDocument(kinds, group, version, descriptions));
  }
  // The server's own web services and each built-in group's (`/apis/apps/`): one document each.
  const source = schemaSource(kinds, descriptions);
  for (const [key, paths] of Object.entries(v3ServicePaths(kinds))) {
    add(key, builtinDocument(paths, {}, source));
  }
  // The root lists them sorted, as Go writes the map (kube-openapi handler3 `getGroupBytes`).
  const root: OpenApiV3Root = { paths: {} };
  for (const key of [...documents.keys()].sort()) {
    root.paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${documents.get(key)!.hash}` };
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

/** A built-in web service's document: the reference's info and security scheme, every schema its paths reach. */
function builtinDocument(
  paths: Record<string, OpenApiPathItem>,
  known: Readonly<Record<string, unknown>>,
  source: SchemaSource,
  groupVersion?: { group: string; version: string },
): OpenApiV3GroupDocument {
  let schemas = reachedSchemas({ paths, names: [] }, known, source);
  if (groupVersion) schemas = withGroupVersion(schemas, groupVersion.group, groupVersion.version);
  const doc: OpenApiV3GroupDocument = {
    openapi: '3.0.0',
    info: { ...(V3_REFERENCE.info as OpenApiV3GroupDocument['info']) },
    paths,
    components: {
      schemas: schemas as Record<string, OpenApiSchema>,
      securitySchemes: { ...V3_REFERENCE.securitySchemes },
    },
  };
  // Go leaves an empty map out: the OIDC documents (no group-version's) have no `schemas`.
  if (Object.keys(schemas).length === 0)
    delete (doc.components as Partial<OpenApiV3GroupDocument['components']>).schemas;
  return doc;
}

/**
 * The OpenAPI v3 document of one group-version ("" group = core): every route of its kinds
 * (openapi-v3-paths.ts) and every schema those reach (openapi-v3-components.ts). A group-version
 * of custom resources only is apiextensions-apiserver's document (openapiv3 controller): its own
 * info, its kinds' schemas built from their definitions, no security scheme.
 */
export function openApiV3GroupDocument(
  kinds: readonly ResourceKind[],
  group: string,
  version: string,
  descriptions?: ApiDescriptionTable,
): OpenApiV3GroupDocument {
  const paths = v3GroupVersionPaths(kinds, group, version);
  const served = kinds.filter((k) => k.group === group && k.version === version);
  const known = customComponentSchemas(served, descriptions);
  const source = schemaSource(kinds, descriptions);
  if (served.some((k) => !k.custom)) return builtinDocument(paths, known, source, { group, version });
  const customSource: SchemaSource = (name) =>
    (V3_REFERENCE.customDefinitions[name] as Json | undefined) ?? source(name);
  return {
    openapi: '3.0.0',
    info: { ...CUSTOM_DOCUMENT_INFO },
    paths,
    components: {
      schemas: reachedSchemas({ paths, names: [] }, known, customSource) as Record<string, OpenApiSchema>,
    },
  };
}
