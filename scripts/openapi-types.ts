/**
 * Generates src/server/openapi/openapi-types.generated.ts (the structure of every Kubernetes type
 * the served kinds reach: OpenAPI v3 `components.schemas`, the schema engine, SSA),
 * src/server/openapi/openapi-descriptions.generated.ts (their `description` texts, which
 * `kubectl explain` shows) and src/server/openapi/column-docs.generated.ts (the few of those texts
 * that describe Table columns) from the OpenAPI v3 documents Kubernetes itself publishes for the
 * reference's release: `api/openapi-spec/v3/*.json` of the Go module k8s.io/kubernetes, which
 * `go mod download` fetches into the module cache (see go-modules.ts).
 *
 *   npx tsx scripts/openapi-types.ts [version]     (default v1.37.2, the reference's release)
 *
 * test/server/openapi/openapi-types.test.ts fails when the committed files are not what this writes.
 * The output is formatted by biome, so lint accepts it as is.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nameColumnDoc } from '../src/server/kinds/columns.js';
import { BUILTIN_RESOURCES } from '../src/server/kinds/discovery.generated.js';
import { REGISTRY } from '../src/server/kinds/served/registry.js';
import type { ResourceKind, TypeField } from '../src/server/kinds/types.js';
import type { ApiDescriptionTable, ApiFieldType, ApiType } from '../src/server/openapi/openapi-model.js';
import { schemaNameOf } from '../src/server/openapi/openapi-schemas.js';
import { wrapDocComment as wrap } from './doc-comment.js';
import { goModule } from './go-modules.js';

/** The Kubernetes release whose published OpenAPI the committed tables come from. */
export const KUBERNETES_VERSION = 'v1.37.2';
/** The generated files, relative to the repository. */
export const GENERATED_TYPES = 'src/server/openapi/openapi-types.generated.ts';
export const GENERATED_DESCRIPTIONS = 'src/server/openapi/openapi-descriptions.generated.ts';
export const GENERATED_COLUMN_DOCS = 'src/server/openapi/column-docs.generated.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SPEC_DIR = 'api/openapi-spec/v3';
const REF_PREFIX = '#/components/schemas/';

/** An OpenAPI v3 schema as kube-openapi writes the built-in types' (only what is read here). */
interface Schema {
  description?: string;
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
}

/**
 * Every `components.schemas` entry of the documents in `dir`, by OpenAPI name. A type is in each
 * group-version document that reaches it, the same every time but for the GVK list of the shared
 * options and event types (DeleteOptions, WatchEvent), which the table does not read.
 */
function componentSchemas(dir: string): Map<string, Schema> {
  const schemas = new Map<string, Schema>();
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      components?: { schemas?: Record<string, Schema> };
    };
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      if (!schemas.has(name)) schemas.set(name, schema);
    }
  }
  return schemas;
}

/**
 * Named types with a JSON form of their own, which their schema alone does not tell apart: the
 * table's scalar for each. Time and MicroTime are `string` of format `date-time`, IntOrString
 * of format `int-or-string`, Quantity a `oneOf` of integer and string (its JSON form is a string);
 * FieldsV1 and RawExtension a free-form `object`; the apiextensions `JSON` any JSON value and its
 * unions each decoded by its own UnmarshalJSON (apiextensions/v1 marshal.go), published untyped.
 */
const APIEXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
const SCALARS: Readonly<Record<string, ApiType>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { scalar: 'date-time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { scalar: 'date-time' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { scalar: 'string' },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { scalar: 'int-or-string' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { scalar: 'object' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { scalar: 'object' },
  [`${APIEXTENSIONS}.JSON`]: { scalar: 'json' },
  [`${APIEXTENSIONS}.JSONSchemaPropsOrBool`]: { scalar: 'schema-or-bool' },
  [`${APIEXTENSIONS}.JSONSchemaPropsOrArray`]: { scalar: 'schema-or-array' },
  [`${APIEXTENSIONS}.JSONSchemaPropsOrStringArray`]: { scalar: 'schema-or-string-array' },
};

/** The OpenAPI name a `$ref` (or a property's `allOf: [{$ref}]`, as v3 writes a described ref) names. */
function refOf(schema: Schema): string | undefined {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  if (ref === undefined) return undefined;
  if (!ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref ${ref}`);
  return ref.slice(REF_PREFIX.length);
}

/** The types reachable from `roots` (OpenAPI names), and their descriptions. */
export function generateApiTables(
  schemas: ReadonlyMap<string, Schema>,
  roots: readonly string[],
): { types: Record<string, ApiType>; descriptions: ApiDescriptionTable } {
  const types = new Map<string, ApiType>();
  const descriptions = new Map<string, Record<string, string>>();
  const addDescription = (type: string, field: string, text: string | undefined) => {
    if (!text) return;
    const entry = descriptions.get(type) ?? {};
    entry[field] = text;
    descriptions.set(type, entry);
  };

  /** A property's (or list item's, map value's) type in the table's notation. */
  const fieldType = (schema: Schema, where: string): ApiFieldType => {
    const ref = refOf(schema);
    if (ref !== undefined) return namedType(ref);
    switch (schema.type) {
      case 'string':
        if (schema.format === undefined) return 'string';
        if (schema.format === 'byte') return 'bytes';
        break;
      case 'boolean':
        return 'boolean';
      case 'integer':
        // Go's int32 and int64: the decoder refuses 3000000000 for an int32.
        if (schema.format === 'int32' || schema.format === 'int64') return schema.format;
        break;
      case 'number':
        if (schema.format === 'double') return 'number';
        break;
      case 'array':
        if (schema.items) return `[]${fieldType(schema.items, `${where}[]`)}`;
        break;
      case 'object':
        if (typeof schema.additionalProperties === 'object' && !schema.properties) {
          return `{}${fieldType(schema.additionalProperties, `${where}{}`)}`;
        }
        break;
    }
    throw new Error(`${where}: unsupported schema ${JSON.stringify({ ...schema, description: undefined })}`);
  };

  /** Declares the named type `name`, with everything it reaches. */
  const namedType = (name: string): string => {
    if (types.has(name)) return name;
    const schema = schemas.get(name);
    if (!schema) throw new Error(`Kubernetes ${KUBERNETES_VERSION} publishes no schema ${name}`);
    addDescription(name, '', schema.description);
    const scalar = SCALARS[name];
    if (scalar) {
      types.set(name, scalar);
      return name;
    }
    if (schema.type !== 'object') {
      throw new Error(`${name}: a schema of type ${schema.type ?? '(none)'} without a scalar in SCALARS`);
    }
    // A struct; without properties an empty Go struct (CustomResourceSubresourceStatus), whose
    // strict decoding reports any field set in it, not free-form JSON.
    const struct: { fields: Record<string, ApiFieldType>; required?: string[] } = { fields: {} };
    types.set(name, struct); // before the fields, so that a recursive type terminates
    const properties = Object.entries(schema.properties ?? {}).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    for (const [field, property] of properties) {
      struct.fields[field] = fieldType(property, `${name}.${field}`);
      addDescription(name, field, property.description);
    }
    if (schema.required?.length) struct.required = [...schema.required];
    return name;
  };

  for (const root of roots) namedType(root);
  const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    types: Object.fromEntries([...types].sort(byName)),
    descriptions: descriptionTable(Object.fromEntries([...descriptions].sort(byName))),
  };
}

/**
 * Descriptions with each distinct text stored once (`apiVersion`, `kind` and `metadata` say the
 * same on every kind; PodSpec's fields are reached from five kinds): a type's fields map to
 * indexes into `texts`.
 */
function descriptionTable(byType: Record<string, Record<string, string>>): ApiDescriptionTable {
  const texts: string[] = [];
  const index = new Map<string, number>();
  const types: Record<string, Record<string, number>> = {};
  for (const [type, fields] of Object.entries(byType)) {
    types[type] = {};
    for (const [field, text] of Object.entries(fields)) {
      let i = index.get(text);
      if (i === undefined) {
        i = texts.push(text) - 1;
        index.set(text, i);
      }
      types[type][field] = i;
    }
  }
  return { texts, types };
}

/**
 * The roots: every kind the reference serves (discovery.generated.ts), the kinds its
 * subresources take and answer (autoscaling/v1 Scale, policy/v1 Eviction, authentication/v1
 * TokenRequest, core/v1 Binding), ListMeta (the custom resources' list schemas,
 * openapi/custom-openapi.ts), and the CustomResourceDefinition kind, which every server serves
 * but which is registered beside the CRD serving code (server/crd/serve/), not in REGISTRY. A
 * kind watchmark does not serve yet is reached all the same, so that its types are here when
 * it comes.
 */
function roots(kinds: readonly ResourceKind[]): string[] {
  const served = BUILTIN_RESOURCES.flatMap((r) => [
    { group: r.group, version: r.version, kind: r.kind },
    ...r.subresources.flatMap((s) =>
      s.kind && /^[A-Z]/.test(s.kind.kind) && !s.kind.kind.endsWith('Options')
        ? [{ group: s.kind.group || r.group, version: s.kind.version || r.version, kind: s.kind.kind }]
        : [],
    ),
  ]);
  return [
    ...new Set([
      ...kinds.map(schemaNameOf),
      ...served.map(schemaNameOf),
      'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
      schemaNameOf({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }),
    ]),
  ];
}

/**
 * The fields whose docs describe Table columns (printers.go's `T{}.SwaggerDoc()["field"]`, which
 * is the text the OpenAPI publishes as the field's `description`): the Name column's, and every
 * built-in kind's columns' `fieldDoc`, with their texts, by type and field.
 */
function columnDocs(
  kinds: readonly ResourceKind[],
  descriptions: ApiDescriptionTable,
): Record<string, Record<string, string>> {
  const fields: TypeField[] = [
    nameColumnDoc,
    ...kinds.flatMap((k) => k.columns.flatMap((c) => c.fieldDoc ?? [])),
  ];
  const docs: Record<string, Record<string, string>> = {};
  for (const { type, field } of fields.sort((a, b) =>
    `${a.type}.${a.field}`.localeCompare(`${b.type}.${b.field}`),
  )) {
    const i = descriptions.types[type]?.[field];
    if (i === undefined) throw new Error(`a Table column names ${type}.${field}, which has no description`);
    docs[type] = { ...docs[type], [field]: descriptions.texts[i]! };
  }
  return docs;
}

/** `text` formatted by biome as `path`, so that lint accepts the generated file as is. */
function formatted(path: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const biome = execFile(
      join(REPO, 'node_modules', '.bin', 'biome'),
      ['format', `--stdin-file-path=${path}`],
      { cwd: REPO, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
    biome.stdin!.end(text);
  });
}

/**
 * The generated modules' text, from the OpenAPI v3 documents of k8s.io/kubernetes at `version`
 * (downloaded into the Go module cache when missing).
 */
export async function generatedSources(
  version: string = KUBERNETES_VERSION,
): Promise<{ types: string; descriptions: string; columnDocs: string }> {
  const module = goModule('k8s.io/kubernetes', version);
  const { types, descriptions } = generateApiTables(
    componentSchemas(join(module.dir, SPEC_DIR)),
    roots(REGISTRY),
  );
  const source =
    `the OpenAPI v3 documents Kubernetes ${version} publishes (${SPEC_DIR}/*.json of the Go module ` +
    `k8s.io/kubernetes@${version}, ${module.sum}; Apache-2.0)`;
  const body = Object.entries(types)
    .map(([name, t]) => `  ${JSON.stringify(name)}: ${JSON.stringify(t)},`)
    .join('\n');
  const typesText = `/**
 * ${wrap(`The structure of the Kubernetes API types the served kinds reach, for the OpenAPI v3 \`components.schemas\` (see openapi-schemas.ts) and the schema engine (schema/). GENERATED from ${source} by scripts/openapi-types.ts: do not edit; regenerate with \`npx tsx scripts/openapi-types.ts\`.`)}
 */
import type { ApiType } from './openapi-model.js';

/** Every type, by its OpenAPI name. */
export const API_TYPES: Readonly<Record<string, ApiType>> = {
${body}
};
`;
  // One JSON string literal, parsed on first use: a string costs the parser a scan, where an
  // object literal of a thousand entries would cost it a full parse and a thousand objects.
  const descriptionsText = `/**
 * ${wrap(`The upstream descriptions of the types in openapi-types.generated.ts, shown by \`kubectl explain\`: the \`description\` texts of ${source}. GENERATED by scripts/openapi-types.ts: do not edit; regenerate with \`npx tsx scripts/openapi-types.ts\`.`)}
 *
 * The server imports this module on the first /openapi/v3 request, never at start-up (see
 * openapi-descriptions.ts for what it costs).
 */
import type { ApiDescriptionTable } from './openapi-model.js';

/** Each distinct text once, and per type (OpenAPI name) its fields' (\`''\`: the type's own) text index. */
export const API_DESCRIPTIONS: ApiDescriptionTable = JSON.parse(${JSON.stringify(JSON.stringify(descriptions))});
`;
  const columnDocsText = `/**
 * ${wrap(`The field docs that describe the built-in kinds' Table columns where printers.go writes \`T{}.SwaggerDoc()["field"]\` (kinds/columns.ts \`swaggerDoc\`): the \`description\` texts of ${source}. A few of openapi-descriptions.generated.ts' texts, kept apart so that printing a Table does not load them all. GENERATED by scripts/openapi-types.ts: do not edit; regenerate with \`npx tsx scripts/openapi-types.ts\`.`)}
 */

/** Per type (OpenAPI name), the docs of the fields Table columns name. */
export const COLUMN_DOCS: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(columnDocs(REGISTRY, descriptions))};
`;
  return {
    types: await formatted(GENERATED_TYPES, typesText),
    descriptions: await formatted(GENERATED_DESCRIPTIONS, descriptionsText),
    columnDocs: await formatted(GENERATED_COLUMN_DOCS, columnDocsText),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sources = await generatedSources(process.argv[2]);
  writeFileSync(join(REPO, GENERATED_TYPES), sources.types);
  writeFileSync(join(REPO, GENERATED_DESCRIPTIONS), sources.descriptions);
  writeFileSync(join(REPO, GENERATED_COLUMN_DOCS), sources.columnDocs);
  console.log(`wrote ${GENERATED_TYPES}, ${GENERATED_DESCRIPTIONS} and ${GENERATED_COLUMN_DOCS}`);
}
