/**
 * The `paths` of the `/openapi/v3/<group-version>` documents, made from the same routes as
 * `/openapi/v2`'s (openapi-v2-paths.ts, before its parameters are shared): kube-apiserver hands
 * the installer's routes to both of kube-openapi's builders, and builder3 (pkg/builder3/openapi.go
 * `BuildOpenAPISpecFromRoutes`) writes them differently:
 *
 * - a parameter is `name`, `in`, `description`, `required` (when true) and a `schema` of its
 *   type and `uniqueItems` (`buildParameter`); the path-level and per-operation split and the
 *   name-then-location order are the same (`findCommonParameters`, util.go `sortParameters`);
 * - a body parameter becomes the operation's `requestBody`: one `content` entry per media type
 *   the route consumes, `required` when it is (`buildRequestBody`);
 * - each response carries its model once per media type the route produces (`buildResponse`);
 *   a response without a model (401) is its description alone;
 * - no shared parameter table: every parameter stays inline.
 *
 * Key order follows spec3's Go structs (Operation: tags, description, operationId, parameters,
 * requestBody, responses, then the extensions; Path: the methods, then parameters) and Go's
 * sorted map keys (media types, status codes), so a document's bytes match the reference's.
 */
import type { ResourceKind } from '../kinds/types.js';
import { v2Paths } from './openapi-v2-paths.js';
import type { Json } from './openapi-v2-routes.js';

/** A v3 parameter object (builder3 `buildParameter`). */
export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  description?: string;
  required?: boolean;
  schema: { type: string; format?: string; uniqueItems?: boolean };
}

type Content = Record<string, { schema: object }>;

/** A v3 operation object with the Kubernetes extensions kubectl reads. */
export interface OpenApiOperation {
  tags?: string[];
  description?: string;
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content: Content; description?: string; required?: boolean };
  responses: Record<string, { description: string; content?: Content }>;
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string };
}

/** A v3 path item: operations plus the parameters all of them take. */
export type OpenApiPathItem = { parameters?: OpenApiParameter[] } & Partial<
  Record<(typeof METHODS)[number], OpenApiOperation>
>;

const V2_REF = '#/definitions/';
const V3_REF = '#/components/schemas/';
/** spec3.Path's methods in its JSON order. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** A v2 response or body schema as v3 refers to it (`#/components/schemas/`). */
function v3Schema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Json;
  if (typeof s.$ref === 'string') return { $ref: s.$ref.replace(V2_REF, V3_REF) };
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) out[k] = k === 'items' ? v3Schema(v) : v;
  return out;
}

/** `content`: one entry per media type, sorted as Go writes a map. */
function content(mediaTypes: unknown, schema: unknown): Json {
  const types = [...new Set((mediaTypes ?? []) as string[])].sort();
  return Object.fromEntries(types.map((t) => [t, { schema: v3Schema(schema) }]));
}

/** A v2 query, path or header parameter in v3 form (builder3 `buildParameter`). */
export function v3Parameter(p: Json): Json {
  const schema: Json = { type: p.type };
  if (p.format !== undefined) schema.format = p.format;
  if (p.uniqueItems) schema.uniqueItems = true;
  const out: Json = { name: p.name, in: p.in };
  if (p.description) out.description = p.description;
  if (p.required) out.required = true;
  out.schema = schema;
  return out;
}

function v3Operation(op: Json): Json {
  const params = (op.parameters ?? []) as Json[];
  const body = params.find((p) => p.in === 'body');
  const rest = params.filter((p) => p.in !== 'body').map(v3Parameter);
  const out: Json = {};
  if (op.tags) out.tags = op.tags;
  if (op.description) out.description = op.description;
  if (op.operationId) out.operationId = op.operationId;
  if (rest.length > 0) out.parameters = rest;
  if (body) {
    const requestBody: Json = { content: content(op.consumes, body.schema) };
    if (body.description) requestBody.description = body.description;
    if (body.required) requestBody.required = true;
    out.requestBody = requestBody;
  }
  const responses: Json = {};
  for (const [code, answer] of Object.entries((op.responses ?? {}) as Record<string, Json>).sort(byKey)) {
    responses[code] =
      answer.schema === undefined
        ? { description: answer.description }
        : { description: answer.description, content: content(op.produces, answer.schema) };
  }
  out.responses = responses;
  for (const [key, value] of Object.entries(op).sort(byKey)) {
    if (!key.startsWith('x-')) continue;
    // The installer sets a schema.GroupVersionKind, which Go writes in field order.
    const gvk = value as Json;
    out[key] =
      key === 'x-kubernetes-group-version-kind'
        ? { group: gvk.group, version: gvk.version, kind: gvk.kind }
        : value;
  }
  return out;
}

/** One v2 path item (parameters inline) in v3 form. */
export function v3PathItem(item: Json): OpenApiPathItem {
  const out: Json = {};
  for (const method of METHODS) {
    const op = item[method] as Json | undefined;
    if (op) out[method] = v3Operation(op);
  }
  const shared = (item.parameters ?? []) as Json[];
  if (shared.length > 0) out.parameters = shared.map(v3Parameter);
  return out as OpenApiPathItem;
}

/** The v2 paths of a kind table, built once per table (KindTable.all() is a new array on every change). */
const v2ByKinds = new WeakMap<readonly ResourceKind[], Record<string, Json>>();

function routesOf(kinds: readonly ResourceKind[]): Record<string, Json> {
  let all = v2ByKinds.get(kinds);
  if (!all) {
    all = v2Paths(kinds);
    v2ByKinds.set(kinds, all);
  }
  return all;
}

/**
 * The v3 paths of one group-version ("" group = core): its resource-list route
 * (`/apis/<g>/<v>/`), every route of its kinds (watch and all-namespaces routes included) and
 * their special subresources, sorted by path as Go writes the map.
 */
export function v3GroupVersionPaths(
  kinds: readonly ResourceKind[],
  group: string,
  version: string,
): Record<string, OpenApiPathItem> {
  const all = routesOf(kinds);
  const base = group ? `/apis/${group}/${version}/` : `/api/${version}/`;
  const out: Record<string, OpenApiPathItem> = {};
  for (const path of Object.keys(all).sort()) {
    if (path.startsWith(base)) out[path] = v3PathItem(all[path]!);
  }
  return out;
}

/**
 * The documents of the server's own web services and of each built-in group, by root key: `api`
 * (`/api/`), `apis`, `version`, the OIDC discovery routes, and `apis/<group>` (`/apis/<group>/`,
 * the group's discovery route; custom groups have none, as apiextensions-apiserver registers
 * no group web service for v3).
 */
export function v3ServicePaths(
  kinds: readonly ResourceKind[],
): Record<string, Record<string, OpenApiPathItem>> {
  const all = routesOf(kinds);
  const out: Record<string, Record<string, OpenApiPathItem>> = {};
  for (const path of Object.keys(all).sort()) {
    // `/version/`, `/apis/`, `/apis/apps/`, `/.well-known/openid-configuration/`; not `/apis/apps/v1/`.
    const key = path.replace(/^\/|\/$/g, '');
    const service =
      /^(?:api|apis|version|\.well-known\/openid-configuration|openid\/v1\/jwks|apis\/[^/]+)$/.test(key);
    if (service) out[key] = { [path]: v3PathItem(all[path]!) };
  }
  return out;
}
