/**
 * The `components.schemas` of a `/openapi/v3` document, as kube-openapi's builder3 collects them:
 * every type the document's routes name as a body or a response, and every type those reach
 * (pkg/builder3/openapi.go `buildDefinitionRecursively`, from `toSchema` of each route's models),
 * plus the schemas of the document's kinds. A type comes, by preference, from:
 *
 * 1. `known`: what the document's own builder made (custom kinds and their lists);
 * 2. the reference's own text (openapi-v3.generated.ts), for the few types no rule builds as it
 *    serves them (the meta/v1 Status, WatchEvent, APIResourceList, DeleteOptions, ...);
 * 3. the type table (openapi-schemas.ts `componentSchemas` over every built-in kind served, each
 *    kind tagged with its group-version-kind);
 * 4. the List rule: `items` of the kind, standard list metadata, the texts of its Go type
 *    (openapi-v2.generated.ts `lists`), as openapi-gen writes every `<Kind>List`;
 * 5. any other type of the table, plain (`namedTypeSchemas`).
 */
import { BUILTIN_RESOURCES } from '../kinds/discovery.generated.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ApiDescriptionTable, V2ListTexts } from './openapi-model.js';
import { componentSchemas, namedTypeSchemas, type OpenApiSchema, schemaNameOf } from './openapi-schemas.js';
import { API_TYPES } from './openapi-types.generated.js';
import { V2_REFERENCE } from './openapi-v2.generated.js';
import type { Json } from './openapi-v2-routes.js';
import { V3_REFERENCE } from './openapi-v3.generated.js';

const REF = '#/components/schemas/';

/** The group-version-kind of every built-in kind the reference serves, by schema name. */
let builtinKinds: Map<string, Json> | undefined;
function builtinKindOf(name: string): Json | undefined {
  if (!builtinKinds) {
    builtinKinds = new Map();
    for (const r of BUILTIN_RESOURCES)
      builtinKinds.set(schemaNameOf(r), { group: r.group, kind: r.kind, version: r.version });
  }
  return builtinKinds.get(name);
}

/** A built-in kind's `<Kind>List` as openapi-gen writes it for v3 (metadata defaulted, its ref wrapped). */
function listSchema(name: string, gvk: Json, texts: V2ListTexts, common: V2ListTexts): Json {
  const described = (text: string | null, schema: Json): Json =>
    text === null ? schema : { description: text, ...schema };
  return {
    ...described(texts[0], {}),
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: described(common[0], { type: 'string' }),
      items: described(texts[1], {
        type: 'array',
        items: { $ref: `${REF}${name.slice(0, -'List'.length)}` },
      }),
      kind: described(common[1], { type: 'string' }),
      metadata: described(texts[2], {
        default: {},
        allOf: [{ $ref: `${REF}io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta` }],
      }),
    },
    'x-kubernetes-group-version-kind': [{ ...gvk, kind: `${gvk.kind}List` }],
  };
}

/**
 * The meta types every group registers in its scheme (metav1.AddToGroupVersion): in a group's
 * document they name the core group-version-kind and the document's own.
 */
export const PER_GROUP_VERSION_SCHEMAS = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
] as const;

/** `schemas` with the group-version's own entry in each per-group-version meta type's kinds. */
export function withGroupVersion(
  schemas: Record<string, Json>,
  group: string,
  version: string,
): Record<string, Json> {
  if (!group) return schemas;
  for (const name of PER_GROUP_VERSION_SCHEMAS) {
    const schema = schemas[name];
    const gvks = schema?.['x-kubernetes-group-version-kind'] as Json[] | undefined;
    if (!schema || !gvks) continue;
    const kind = name.slice(name.lastIndexOf('.') + 1);
    schemas[name] = { ...schema, 'x-kubernetes-group-version-kind': [...gvks, { group, kind, version }] };
  }
  return schemas;
}

/** Resolves type names to schemas for one kind table, each made once. */
export type SchemaSource = (name: string) => Json | undefined;

/** Schema sources by kind table and description table. */
const sources = new WeakMap<readonly ResourceKind[], Map<ApiDescriptionTable | undefined, SchemaSource>>();

/**
 * The schema source (rules 2 to 5) of a kind table, shared per table; with `fixed` (the
 * generator's check of what the rules build) a new one over those fixed texts instead.
 */
export function schemaSource(
  kinds: readonly ResourceKind[],
  descriptions?: ApiDescriptionTable,
  fixed?: Readonly<Record<string, unknown>>,
): SchemaSource {
  if (fixed) return makeSource(kinds, descriptions, fixed);
  let byDescriptions = sources.get(kinds);
  if (!byDescriptions) {
    byDescriptions = new Map();
    sources.set(kinds, byDescriptions);
  }
  let source = byDescriptions.get(descriptions);
  if (!source) {
    source = makeSource(kinds, descriptions, V3_REFERENCE.definitions);
    byDescriptions.set(descriptions, source);
  }
  return source;
}

function makeSource(
  kinds: readonly ResourceKind[],
  descriptions: ApiDescriptionTable | undefined,
  fixed: Readonly<Record<string, unknown>>,
): SchemaSource {
  let table: Record<string, OpenApiSchema> | undefined;
  const made = new Map<string, Json | undefined>();
  const build = (name: string): Json | undefined => {
    if (fixed[name]) return fixed[name] as Json;
    table ??= componentSchemas(
      kinds.filter((k) => !k.custom),
      descriptions,
    );
    if (table[name]) return table[name] as Json;
    const listOf = name.endsWith('List') ? builtinKindOf(name.slice(0, -'List'.length)) : undefined;
    const texts = V2_REFERENCE.lists[name];
    if (listOf && texts) return listSchema(name, listOf, texts, V2_REFERENCE.lists[''] ?? [null, null, null]);
    if (!API_TYPES[name]) return undefined;
    const schema = namedTypeSchemas([name], descriptions)[name] as Json;
    const gvk = builtinKindOf(name);
    if (gvk && !schema['x-kubernetes-group-version-kind']) schema['x-kubernetes-group-version-kind'] = [gvk];
    return schema;
  };
  return (name) => {
    if (!made.has(name)) made.set(name, build(name));
    return made.get(name);
  };
}

/** The schema names each schema refers to, by object: documents share most schemas. */
const schemaRefs = new WeakMap<object, string[]>();

function refsOfSchema(schema: Json): string[] {
  let refs = schemaRefs.get(schema);
  if (!refs) {
    refs = [];
    refsIn(schema, refs);
    schemaRefs.set(schema, refs);
  }
  return refs;
}

/** The schema names `node` refers to. */
function refsIn(node: unknown, into: string[]): void {
  if (Array.isArray(node)) for (const n of node) refsIn(n, into);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF))
        into.push(value.slice(REF.length));
      else refsIn(value, into);
    }
  }
}

/**
 * Every schema `roots` (paths, or kinds' schemas by name) reach, sorted by name as Go writes
 * the map: `known` first, then `source`. A name neither resolves is left out.
 */
export function reachedSchemas(
  roots: { paths: Json; names: readonly string[] },
  known: Readonly<Record<string, unknown>>,
  source: SchemaSource,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  const pending: string[] = [...roots.names];
  // Only bodies and responses name models; the parameters (most of a path's bytes) never do.
  for (const item of Object.values(roots.paths) as Json[]) {
    for (const op of Object.values(item) as Json[]) {
      if (Array.isArray(op)) continue;
      refsIn((op.requestBody as Json | undefined)?.content, pending);
      for (const answer of Object.values((op.responses ?? {}) as Record<string, Json>))
        refsIn(answer.content, pending);
    }
  }
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in out) continue;
    const schema = (known[name] as Json | undefined) ?? source(name);
    if (!schema) continue;
    out[name] = schema;
    pending.push(...refsOfSchema(schema));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
