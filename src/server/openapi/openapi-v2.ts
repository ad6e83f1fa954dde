/**
 * `/openapi/v2`: the Swagger 2.0 document of every served kind, as kube-apiserver publishes it
 * (k8s.io/kube-openapi pkg/builder/openapi.go `BuildOpenAPISpecFromRoutes` over the installer's
 * routes; for custom resources apiextensions-apiserver's builder.go `BuildOpenAPIV2`, merged
 * into the static spec by pkg/controller/openapi `updateSpecLocked`):
 *
 * - paths route by route (openapi-v2-paths.ts), their parameters shared in the top-level
 *   `parameters` table under kube-openapi's hashed names (openapi-v2-parameters.ts);
 * - `definitions`: every type the paths reach, the type table's schemas converted to v2 (no
 *   defaults, a `$ref` keeping its siblings), the kinds' Lists by rule, and the reference's own
 *   text for the few types no table of ours builds as it serves them (openapi-v2.generated.ts);
 * - `info`, `securityDefinitions` (BearerToken) and `security` as the reference's.
 *
 * scripts/openapi-v2-diff.ts compares the result with the reference's, category by category;
 * test/server/openapi/openapi-v2-reference.test.ts requires them equal after key sorting.
 * kubectl fetches it as protobuf (client-go discovery `OpenAPISchema`, gnostic openapi_v2):
 * openapi-v2-proto.ts encodes it. kubectl 1.27+ explains from v3 and reads v2 only for
 * `explain --output=plaintext-openapiv2`; older kubectl explains and validates from it.
 */

import { BUILTIN_RESOURCES } from '../kinds/discovery.generated.js';
import type { ResourceKind } from '../kinds/types.js';
import { listKindOf } from './custom-openapi.js';
import { customKindSchema, customListSchema } from './custom-schema.js';
import type { ApiDescriptionTable, V2ListTexts } from './openapi-model.js';
import { componentSchemas, namedTypeSchemas, schemaNameOf } from './openapi-schemas.js';
import { API_TYPES } from './openapi-types.generated.js';
import { V2_REFERENCE } from './openapi-v2.generated.js';
import { shareParameters } from './openapi-v2-parameters.js';
import { v2Paths } from './openapi-v2-paths.js';

type Json = Record<string, unknown>;

/** A Swagger 2.0 document. */
export interface SwaggerDocument {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, Json>;
  definitions: Record<string, Json>;
  parameters: Record<string, Json>;
  securityDefinitions: Json;
  security: unknown[];
}

const V3_REF = '#/components/schemas/';
const V2_REF = '#/definitions/';

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
    } else if (key === 'default') {
      // Swagger 2.0 definitions carry no defaults: kube-openapi's v2 models have none.
    } else if (key === 'enum' || key === 'example' || key.startsWith('x-')) {
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

/** The `$ref`ed definition names in `node`. */
function refsIn(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const n of node) refsIn(n, into);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(V2_REF))
        into.add(value.slice(V2_REF.length));
      else refsIn(value, into);
    }
  }
}

/** The schema name of every built-in kind the reference serves, with its group-version-kind. */
function builtinKindsByName(): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const r of BUILTIN_RESOURCES) {
    out.set(schemaNameOf(r), { group: r.group, kind: r.kind, version: r.version });
  }
  return out;
}

/**
 * A built-in kind's List definition: `items` of the kind, standard list metadata, with the
 * texts of its Go type (`texts`: the list's, its items', its metadata's; the common apiVersion and
 * kind texts in `common`), as openapi-gen writes every `<Kind>List`.
 */
function listDefinition(name: string, gvk: Json, texts: V2ListTexts, common: V2ListTexts): Json {
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
        items: { $ref: `${V2_REF}${name.slice(0, -'List'.length)}` },
      }),
      kind: described(common[1], { type: 'string' }),
      metadata: described(texts[2], { $ref: `${V2_REF}io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta` }),
    },
    'x-kubernetes-group-version-kind': [{ ...gvk, kind: `${gvk.kind}List` }],
  };
}

/**
 * The built-in definitions as the type table builds them (openapi-schemas.ts, converted to v2),
 * by name, each made when first asked for: the kinds' schemas with their
 * `x-kubernetes-group-version-kind` (every kind the reference serves, served here or not) and the
 * served kinds' patch extensions, any other table type plain, and each kind's List from `lists`.
 */
export function tableDefinitions(
  kinds: readonly ResourceKind[],
  descriptions?: ApiDescriptionTable,
  lists: Readonly<Record<string, V2ListTexts>> = V2_REFERENCE.lists,
): (name: string) => Json | undefined {
  const components = componentSchemas(
    kinds.filter((k) => !k.custom),
    descriptions,
  ) as Record<string, unknown>;
  const builtinKinds = builtinKindsByName();
  const made = new Map<string, Json | undefined>();
  const build = (name: string): Json | undefined => {
    const listOf = name.endsWith('List') ? builtinKinds.get(name.slice(0, -'List'.length)) : undefined;
    const texts = lists[name];
    if (listOf && texts) return listDefinition(name, listOf, texts, lists[''] ?? [null, null, null]);
    const v3 =
      components[name] ?? (API_TYPES[name] ? namedTypeSchemas([name], descriptions)[name] : undefined);
    if (v3 === undefined) return undefined;
    const v2 = v2Schema(v3) as Json;
    const gvk = builtinKinds.get(name);
    if (gvk && !v2['x-kubernetes-group-version-kind']) v2['x-kubernetes-group-version-kind'] = [gvk];
    return v2;
  };
  return (name) => {
    if (!made.has(name)) made.set(name, build(name));
    return made.get(name);
  };
}

/**
 * The v2 document of `kinds`: the built-in kinds' routes (openapi-v2-paths.ts) and the custom
 * kinds' (their v3 operations converted), parameters shared as kube-openapi shares them
 * (openapi-v2-parameters.ts), and every definition the paths reach: the reference's where the
 * type table would differ (lists, meta types; openapi-v2.generated.ts), the table's otherwise,
 * each custom kind's built anew with the v2 rules. kube-openapi builds definitions from the
 * routes' models (builder/openapi.go `buildDefinitionRecursively`), so an unreached type is left out.
 */
export function buildOpenApiV2(
  kinds: readonly ResourceKind[],
  descriptions?: ApiDescriptionTable,
): SwaggerDocument {
  const paths: Record<string, Json> = v2Paths(kinds);
  const known: Record<string, Json> = {};
  for (const k of kinds) {
    if (!k.custom) continue;
    const name = schemaNameOf(k);
    const input = {
      ...k,
      openAPIV3Schema: k.custom.openAPIV3Schema,
      selectableFields: Object.keys(k.fields),
    };
    known[name] = customKindSchema(input, 'v2');
    known[schemaNameOf({ ...k, kind: listKindOf(k) })] = customListSchema(
      { ...input, listKind: listKindOf(k), plural: k.plural, kindSchemaName: name },
      'v2',
    );
  }
  const shared = shareParameters(paths);
  const table = tableDefinitions(kinds, descriptions);
  const definitions: Record<string, Json> = {};
  const pending = new Set<string>();
  refsIn(shared.paths, pending);
  refsIn(shared.parameters, pending);
  while (pending.size > 0) {
    const [name] = pending;
    pending.delete(name!);
    if (name! in definitions) continue;
    const definition = known[name!] ?? (V2_REFERENCE.definitions[name!] as Json | undefined) ?? table(name!);
    if (!definition) continue;
    definitions[name!] = definition;
    const next = new Set<string>();
    refsIn(definition, next);
    for (const n of next) if (!(n in definitions)) pending.add(n);
  }
  const sorted = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    swagger: '2.0',
    info: { ...(V2_REFERENCE.info as SwaggerDocument['info']) },
    paths: sorted(shared.paths),
    definitions: sorted(definitions),
    parameters: sorted(shared.parameters),
    securityDefinitions: { ...V2_REFERENCE.securityDefinitions },
    security: [...V2_REFERENCE.security],
  };
}
