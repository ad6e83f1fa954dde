/**
 * `/openapi/v2`: the Swagger 2.0 document of every served kind, built from the same parts as
 * the v3 group-version documents, as kube-apiserver publishes it (kube-openapi builder
 * `BuildOpenAPISpecFromRoutes` for the built-ins; for custom resources apiextensions-apiserver's
 * builder.go `BuildOpenAPIV2` with the v2 schema rules of custom-schema.ts, merged into the
 * static spec by pkg/controller/openapi `updateSpecLocked`):
 *
 * - each operation with `consumes`/`produces` (the v3 media types), its query and path
 *   parameters typed inline, the request body as an `in: body` parameter, and each response's
 *   schema;
 * - `definitions` under `#/definitions/`, a `$ref` keeping its siblings (v2 has no WrapRefs).
 *
 * kubectl fetches it as protobuf (client-go discovery `OpenAPISchema`, gnostic openapi_v2):
 * openapi-v2-proto.ts encodes it. kubectl 1.27+ explains from v3 and reads v2 only for
 * `explain --output=plaintext-openapiv2`; older kubectl explains and validates from it.
 */
import type { ResourceKind } from '../kinds/types.js';
import { listKindOf } from './custom-openapi.js';
import { customKindSchema, customListSchema } from './custom-schema.js';
import { schemaNameOf } from './openapi-schemas.js';
import type { OpenApiOperation, OpenApiPathItem } from './operations.js';
import { KUBE_GIT_VERSION } from './version.js';

type Json = Record<string, unknown>;

/** A Swagger 2.0 document. */
export interface SwaggerDocument {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, Json>;
  definitions: Record<string, Json>;
}

/** What the v2 document reads of a v3 group-version document (openapi.ts `OpenApiV3GroupDocument`). */
interface V3Document {
  paths: Record<string, OpenApiPathItem>;
  components: { schemas: Record<string, unknown> };
}

const V3_REF = '#/components/schemas/';
const V2_REF = '#/definitions/';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** A v3 schema as v2 writes it: refs under `#/definitions/`, a lone allOf-wrapped ref unwrapped. */
function v2Schema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(v2Schema);
  if (typeof node !== 'object' || node === null) return node;
  const src = node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(src)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace(V3_REF, V2_REF);
    else if (key === 'properties' && typeof value === 'object' && value !== null) {
      // Property names are data: a property may be called `enum` or `default`.
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, v2Schema(sub)]));
    } else if (key === 'enum' || key === 'default' || key === 'example' || key.startsWith('x-')) {
      out[key] = value;
    } else out[key] = v2Schema(value);
  }
  const allOf = out.allOf as Json[] | undefined;
  if (allOf?.length === 1 && Object.keys(allOf[0]!).length === 1 && allOf[0]!.$ref) {
    delete out.allOf;
    return { $ref: allOf[0]!.$ref, ...out };
  }
  return out;
}

/** One v3 operation as a v2 one. */
function v2Operation(op: OpenApiOperation): Json {
  const ok = op.responses['200']?.content;
  const out: Json = { description: op.description };
  if (op.requestBody) out.consumes = Object.keys(op.requestBody.content);
  if (ok) out.produces = Object.keys(ok);
  out.schemes = ['https'];
  out.tags = op.tags;
  out.operationId = op.operationId;
  const parameters: Json[] = [];
  if (op.requestBody) {
    const first = Object.values(op.requestBody.content)[0];
    parameters.push({
      name: 'body',
      in: 'body',
      ...(op.requestBody.required ? { required: true } : {}),
      schema: v2Schema(first?.schema ?? { type: 'object' }),
    });
  }
  for (const p of op.parameters ?? []) parameters.push(v2Parameter(p));
  if (parameters.length > 0) out.parameters = parameters;
  const responses: Json = {};
  for (const [code, response] of Object.entries(op.responses)) {
    const schema = response.content && Object.values(response.content)[0]?.schema;
    responses[code] = { description: response.description, ...(schema ? { schema: v2Schema(schema) } : {}) };
  }
  out.responses = responses;
  out['x-kubernetes-action'] = op['x-kubernetes-action'];
  out['x-kubernetes-group-version-kind'] = op['x-kubernetes-group-version-kind'];
  return out;
}

/** A v3 query or path parameter as v2 writes it: its type inline. */
function v2Parameter(p: {
  name: string;
  in: string;
  description: string;
  required?: boolean;
  schema: { type: string; uniqueItems?: boolean };
}): Json {
  return {
    ...(p.schema.uniqueItems ? { uniqueItems: true } : {}),
    type: p.schema.type,
    description: p.description,
    name: p.name,
    in: p.in,
    ...(p.required ? { required: true } : {}),
  };
}

/**
 * The v2 document of `kinds`, from their v3 group-version documents: the paths and the
 * built-in definitions converted, and each custom kind's schemas built anew with the v2 rules.
 */
export function buildOpenApiV2(
  kinds: readonly ResourceKind[],
  v3Documents: Iterable<V3Document>,
): SwaggerDocument {
  const paths: Record<string, Json> = {};
  const definitions: Record<string, Json> = {};
  for (const doc of v3Documents) {
    for (const [path, item] of Object.entries(doc.paths)) {
      const v2: Json = {};
      for (const method of METHODS) {
        const op = item[method];
        if (op) v2[method] = v2Operation(op);
      }
      if (item.parameters) v2.parameters = item.parameters.map(v2Parameter);
      paths[path] = v2;
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      definitions[name] = v2Schema(schema) as Json;
    }
  }
  for (const k of kinds) {
    if (!k.custom) continue;
    const name = schemaNameOf(k);
    const input = {
      ...k,
      openAPIV3Schema: k.custom.openAPIV3Schema,
      selectableFields: Object.keys(k.fields),
    };
    definitions[name] = customKindSchema(input, 'v2');
    definitions[schemaNameOf({ ...k, kind: listKindOf(k) })] = customListSchema(
      { ...input, listKind: listKindOf(k), plural: k.plural, kindSchemaName: name },
      'v2',
    );
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1)));
  const sortedDefinitions = Object.fromEntries(
    Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: KUBE_GIT_VERSION },
    paths: sortedPaths,
    definitions: sortedDefinitions,
  };
}
