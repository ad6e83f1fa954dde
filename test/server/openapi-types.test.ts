/**
 * Generates `src/server/openapi/openapi-types.generated.ts` (the structure of every Kubernetes type the
 * served kinds reach, for the OpenAPI v3 `components.schemas`) from the kubernetes-types
 * declarations, and fails when the committed file is out of date: after adding a kind or
 * upgrading kubernetes-types, regenerate with
 *
 *     npx vitest run -u test/server/openapi-types.test.ts
 *
 * Generation reads the .d.ts files with the TypeScript compiler, which is why it lives in the
 * tests (a dev dependency) and not in the server.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../src/server/kinds/registry.js';
import type { ResourceKind } from '../../src/server/kinds/types.js';
import type { ApiDescriptionTable, ApiFieldType, ApiType } from '../../src/server/openapi/openapi-model.js';
import { schemaNameOf } from '../../src/server/openapi/openapi-schemas.js';

const GENERATED = 'src/server/openapi/openapi-types.generated.ts';
const GENERATED_DESCRIPTIONS = 'src/server/openapi/openapi-descriptions.generated.ts';
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TYPES_DIR = dirname(createRequire(import.meta.url).resolve('kubernetes-types/package.json'));
const TYPES_VERSION: string = createRequire(import.meta.url)('kubernetes-types/package.json').version;
const CLIENT_NODE_DIR = dirname(
  createRequire(import.meta.url).resolve('@kubernetes/client-node/package.json'),
);
const CLIENT_NODE_VERSION: string = createRequire(import.meta.url)(
  '@kubernetes/client-node/package.json',
).version;
const MODELS_DIR = join(CLIENT_NODE_DIR, 'dist', 'gen', 'models');

/** One field of a @kubernetes/client-node model: its OpenAPI `format` (`int32`, `int64`, `byte`, ...). */
interface ModelAttribute {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

/** A client-node model: each JSON field's format, and its attributes as the model lists them. */
interface Model {
  file: string;
  formats: Map<string, string>;
  attributes: ModelAttribute[];
}

/**
 * The OpenAPI formats of every model's fields, by model class name (`V1DeploymentSpec`,
 * `CoreV1Event`). kubernetes-types says only `number` for Go's int32, int64 and float64 and
 * `string` for []byte; @kubernetes/client-node's models are generated from kube-apiserver's
 * own OpenAPI document and keep its `format` on each field, which the schema engine needs to
 * refuse 3000000000 for an int32 as Go's decoder does.
 */
async function loadModelFormats(): Promise<Map<string, Model>> {
  const models = new Map<string, Model>();
  for (const file of readdirSync(MODELS_DIR)) {
    if (!file.endsWith('.js') || file === 'ObjectSerializer.js' || file === 'all.js') continue;
    const module = (await import(pathToFileURL(join(MODELS_DIR, file)).href)) as Record<
      string,
      { attributeTypeMap?: ModelAttribute[] }
    >;
    const name = file.replace(/\.js$/, '');
    const attributes = module[name]?.attributeTypeMap;
    if (!attributes) continue;
    models.set(name, {
      file: join(MODELS_DIR, `${name}.d.ts`),
      formats: new Map(attributes.map((a) => [a.baseName, a.format])),
      attributes,
    });
  }
  return models;
}

/**
 * The client-node model of an OpenAPI type: `V1<Kind>`, or `<Group>V1<Kind>` where the
 * generator had to tell two groups' types of one name apart (`CoreV1Event`).
 */
function modelOf(models: Map<string, Model>, openApiName: string): Model | undefined {
  const parts = openApiName.split('.');
  const [kind, version, group] = [parts.at(-1)!, parts.at(-2)!, parts.at(-3)!];
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return models.get(`${cap(group)}${cap(version)}${kind}`) ?? models.get(`${cap(version)}${kind}`);
}

/** A field type with the model's format applied to its innermost element. */
function withFormat(type: ApiFieldType, format: string | undefined, where: string): ApiFieldType {
  const inner = type.replace(/^(\[\]|\{\})+/, '');
  const prefix = type.slice(0, type.length - inner.length);
  if (inner === 'integer') {
    if (format === 'int32' || format === 'int64') return `${prefix}${format}`;
    if (format === 'double') return `${prefix}number`;
    throw new Error(`${where}: a number without an int32/int64/double format in the client-node model`);
  }
  if (inner === 'string' && format === 'byte') return `${prefix}bytes`;
  return type;
}

/**
 * The kubernetes-types modules whose types live outside `io.k8s.api.<group>.<version>`, by their
 * OpenAPI name prefix: the apimachinery packages, and the apiextensions-apiserver's own API
 * (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1, whose OpenAPI names keep the
 * module path, `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps`).
 */
const PACKAGES: Readonly<Record<string, string>> = {
  'meta/v1': 'io.k8s.apimachinery.pkg.apis.meta.v1',
  'api/resource': 'io.k8s.apimachinery.pkg.api.resource',
  runtime: 'io.k8s.apimachinery.pkg.runtime',
  'apiextensions/v1': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1',
};

/** kubernetes-types module (`core/v1`, `meta/v1`, `api/resource`, `runtime`) → OpenAPI name prefix. */
function openApiPackage(module: string): string {
  return PACKAGES[module] ?? `io.k8s.api.${module.replace('/', '.')}`;
}

/** The kubernetes-types module and interface of an OpenAPI name (the inverse of {@link openApiPackage}). */
function moduleOf(openApiName: string): { module: string; name: string } {
  const dot = openApiName.lastIndexOf('.');
  const [prefix, name] = [openApiName.slice(0, dot), openApiName.slice(dot + 1)];
  const known = Object.entries(PACKAGES).find(([, p]) => p === prefix);
  return { module: known ? known[0] : prefix.replace(/^io\.k8s\.api\./, '').replace('.', '/'), name };
}

/** Type aliases of kubernetes-types whose JSON form is a scalar. */
const SCALAR_ALIASES: Record<string, ApiType> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { scalar: 'date-time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { scalar: 'date-time' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { scalar: 'string' },
};
/** kubernetes-types inlines IntOrString as `number | string`; the OpenAPI document names it. */
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/**
 * The apiextensions types with a JSON form of their own (apiextensions/v1 marshal.go: each has an
 * UnmarshalJSON): `JSON` (any JSON value: `default`, `example`, `enum` items), and the unions
 * kubernetes-types declares as TypeScript unions.
 */
const APIEXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
const SPECIAL_INTERFACES: Record<string, ApiType> = {
  [`${APIEXTENSIONS}.JSON`]: { scalar: 'json' },
  // An empty Go struct, not free-form JSON: strict decoding reports any field set in it.
  [`${APIEXTENSIONS}.CustomResourceSubresourceStatus`]: { fields: {} },
};
Object.assign(SCALAR_ALIASES, {
  [`${APIEXTENSIONS}.JSONSchemaPropsOrBool`]: { scalar: 'schema-or-bool' },
  [`${APIEXTENSIONS}.JSONSchemaPropsOrArray`]: { scalar: 'schema-or-array' },
  [`${APIEXTENSIONS}.JSONSchemaPropsOrStringArray`]: { scalar: 'schema-or-string-array' },
});

/**
 * Fields of a Go struct embedded inline that kubernetes-types 1.30 leaves out of the interface:
 * admissionregistration/v1 `RuleWithOperations` embeds `Rule` (`json:",inline"`), whose
 * `resources` and `scope` kube-apiserver publishes (k8s.io/api/admissionregistration/v1/types.go).
 * They are taken from the client-node model, as the `x-kubernetes-*` fields are.
 */
const INLINED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.api.admissionregistration.v1.RuleWithOperations': ['resources', 'scope'],
};

/**
 * A client-node model attribute's type as a table field type, for the fields kubernetes-types
 * leaves out (JSONSchemaProps' `x-kubernetes-*`, whose names are not TypeScript identifiers).
 */
function modelFieldType(type: string, named: (modelClass: string) => string): ApiFieldType {
  const list = /^Array<(.+)>$/.exec(type);
  if (list) return `[]${modelFieldType(list[1]!, named)}`;
  if (type === 'string' || type === 'boolean') return type;
  if (/^V\d/.test(type)) return named(type);
  throw new Error(`unsupported client-node attribute type ${type}`);
}

/** The TSDoc of each member of a client-node model class, by its JavaScript name. */
function modelDocs(file: string): Map<string, string> {
  const program = ts.createProgram([file], { noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const docs = new Map<string, string>();
  ts.forEachChild(program.getSourceFile(file)!, function visit(node) {
    if (ts.isPropertyDeclaration(node)) {
      const symbol = checker.getSymbolAtLocation(node.name);
      const text = symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() : '';
      docs.set(node.name.getText().replace(/^'(.*)'$/, '$1'), text);
    }
    ts.forEachChild(node, visit);
  });
  return docs;
}

/** The types reachable from `roots` (OpenAPI names such as `io.k8s.api.apps.v1.Deployment`). */
function generateApiTypes(
  roots: string[],
  models: Map<string, Model>,
): {
  types: Record<string, ApiType>;
  descriptions: ApiDescriptionTable;
} {
  const modules = roots.map((r) => moduleOf(r).module);
  const program = ts.createProgram(
    [...new Set(modules)].map((m) => join(TYPES_DIR, `${m}.d.ts`)),
    { noEmit: true, types: [] },
  );
  const checker = program.getTypeChecker();
  const types = new Map<string, ApiType>();
  // The upstream descriptions: kubernetes-types carries each Go doc comment as the TSDoc of the
  // interface or property, the text kube-apiserver publishes as `description`.
  const descriptions = new Map<string, Record<string, string>>();
  const docOf = (name: ts.Node | undefined) => {
    const symbol = name && checker.getSymbolAtLocation(name);
    return symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() : '';
  };
  const addDescription = (type: string, field: string, text: string) => {
    if (!text) return;
    const entry = descriptions.get(type) ?? {};
    entry[field] = text;
    descriptions.set(type, entry);
  };

  const nameOf = (decl: ts.Declaration & { name?: ts.Node }) => {
    const module = relative(TYPES_DIR, decl.getSourceFile().fileName).replace(/\.d\.ts$/, '');
    return `${openApiPackage(module)}.${decl.name!.getText()}`;
  };

  const fieldType = (node: ts.TypeNode): ApiFieldType => {
    if (node.kind === ts.SyntaxKind.StringKeyword || ts.isLiteralTypeNode(node)) return 'string';
    if (node.kind === ts.SyntaxKind.NumberKeyword) return 'integer';
    if (node.kind === ts.SyntaxKind.BooleanKeyword) return 'boolean';
    if (ts.isArrayTypeNode(node)) return `[]${fieldType(node.elementType)}`;
    if (ts.isUnionTypeNode(node)) {
      const members = node.types.map((t) => t.kind).sort();
      if (members.join() === [ts.SyntaxKind.NumberKeyword, ts.SyntaxKind.StringKeyword].sort().join()) {
        types.set(INT_OR_STRING, { scalar: 'int-or-string' });
        return INT_OR_STRING;
      }
    }
    if (
      ts.isTypeLiteralNode(node) &&
      node.members.length === 1 &&
      ts.isIndexSignatureDeclaration(node.members[0])
    ) {
      return `{}${fieldType(node.members[0].type)}`;
    }
    if (ts.isTypeReferenceNode(node)) {
      if (node.typeName.getText() === 'Array') return `[]${fieldType(node.typeArguments![0])}`;
      let symbol = checker.getSymbolAtLocation(node.typeName)!;
      if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      return namedType(symbol.declarations![0]);
    }
    throw new Error(`unsupported type ${node.getText()} in ${node.getSourceFile().fileName}`);
  };

  const namedType = (decl: ts.Declaration): string => {
    const name = nameOf(decl as ts.Declaration & { name: ts.Node });
    if (types.has(name)) return name;
    if (ts.isTypeAliasDeclaration(decl)) {
      const scalar = SCALAR_ALIASES[name];
      if (!scalar) throw new Error(`unknown type alias ${name}`);
      types.set(name, scalar);
      addDescription(name, '', docOf(decl.name));
      return name;
    }
    if (!ts.isInterfaceDeclaration(decl)) throw new Error(`unsupported declaration of ${name}`);
    addDescription(name, '', docOf(decl.name));
    const special = SPECIAL_INTERFACES[name];
    if (special) {
      types.set(name, special);
      return name;
    }
    if (decl.members.length === 0) {
      // FieldsV1, RawExtension: free-form JSON objects.
      types.set(name, { scalar: 'object' });
      return name;
    }
    const struct: { fields: Record<string, ApiFieldType>; required?: string[] } = { fields: {} };
    types.set(name, struct); // before the fields, so that a recursive type terminates
    const required: string[] = [];
    const model = modelOf(models, name);
    for (const member of decl.members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const field = member.name.getText().replace(/^"(.*)"$/, '$1');
      struct.fields[field] = withFormat(
        fieldType(member.type),
        model?.formats.get(field),
        `${name}.${field}`,
      );
      addDescription(name, field, docOf(member.name));
      if (!member.questionToken) required.push(field);
    }
    // Fields kube-apiserver publishes that kubernetes-types has no name for (JSONSchemaProps'
    // `x-kubernetes-*`): their types and texts from the client-node model, which is generated
    // from the published document.
    // (Only those: client-node is generated from a newer Kubernetes than kubernetes-types, and
    // its other extra fields are newer API, not served here.)
    const missing =
      model?.attributes.filter(
        (a) =>
          (a.baseName.startsWith('x-kubernetes-') || INLINED_FIELDS[name]?.includes(a.baseName)) &&
          !(a.baseName in struct.fields),
      ) ?? [];
    if (missing.length) {
      const docs = modelDocs(model!.file);
      for (const a of missing) {
        struct.fields[a.baseName] = modelFieldType(a.type, (cls) =>
          namedInterface(`${name.slice(0, name.lastIndexOf('.'))}.${cls.replace(/^V\d+/, '')}`),
        );
        addDescription(name, a.baseName, docs.get(a.name) ?? '');
      }
      struct.fields = Object.fromEntries(
        Object.entries(struct.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    if (required.length) struct.required = required;
    return name;
  };

  /** Declares the kubernetes-types interface of an OpenAPI name, with everything it reaches. */
  function namedInterface(openApiName: string): string {
    const { module, name } = moduleOf(openApiName);
    const file = program.getSourceFile(join(TYPES_DIR, `${module}.d.ts`));
    const decl = file?.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
    );
    if (!decl) throw new Error(`kubernetes-types ${TYPES_VERSION} has no ${openApiName}`);
    return namedType(decl);
  }

  for (const root of roots) namedInterface(root);
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
 * The roots: every built-in kind (REGISTRY), autoscaling/v1 Scale (the `/scale` subresource),
 * ListMeta (the custom resources' list schemas, openapi/custom-openapi.ts), and the
 * CustomResourceDefinition kind, which every server serves but which is registered beside the
 * CRD serving code (server/crd/serve/), not in REGISTRY.
 */
function roots(kinds: readonly ResourceKind[]): string[] {
  return [
    ...kinds.map(schemaNameOf),
    schemaNameOf({ group: 'autoscaling', version: 'v1', kind: 'Scale' }),
    'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
    schemaNameOf({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }),
  ];
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

/** The generated modules' text. */
async function generatedSources(): Promise<{ types: string; descriptions: string }> {
  const { types, descriptions } = generateApiTypes(roots(REGISTRY), await loadModelFormats());
  const body = Object.entries(types)
    .map(([name, t]) => `  ${JSON.stringify(name)}: ${JSON.stringify(t)},`)
    .join('\n');
  const typesText = `/**
 * The structure of the Kubernetes API types the served kinds reach, for the OpenAPI v3
 * \`components.schemas\` (see openapi-schemas.ts) and the schema engine (schema/). GENERATED from
 * kubernetes-types ${TYPES_VERSION}, with the integer and byte formats of @kubernetes/client-node
 * ${CLIENT_NODE_VERSION}'s models, by test/server/openapi-types.test.ts: do not edit; regenerate with
 * \`npx vitest run -u test/server/openapi-types.test.ts\`.
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
 * The upstream descriptions of the types in openapi-types.generated.ts (the TSDoc of
 * kubernetes-types ${TYPES_VERSION}, which is kube-apiserver's published \`description\` text), shown by
 * \`kubectl explain\`. GENERATED by test/server/openapi-types.test.ts: do not edit; regenerate with
 * \`npx vitest run -u test/server/openapi-types.test.ts\`.
 *
 * The server imports this module on the first /openapi/v3 request, never at start-up (see
 * openapi-descriptions.ts for what it costs).
 */
import type { ApiDescriptionTable } from './openapi-model.js';

/** Each distinct text once, and per type (OpenAPI name) its fields' (\`''\`: the type's own) text index. */
export const API_DESCRIPTIONS: ApiDescriptionTable = JSON.parse(${JSON.stringify(JSON.stringify(descriptions))});
`;
  return {
    types: await formatted(GENERATED, typesText),
    descriptions: await formatted(GENERATED_DESCRIPTIONS, descriptionsText),
  };
}

describe('generated OpenAPI type table', () => {
  it(`matches kubernetes-types for every served kind (${GENERATED}, ${GENERATED_DESCRIPTIONS})`, {
    timeout: 60_000,
  }, async () => {
    const sources = await generatedSources();
    await expect(sources.types).toMatchFileSnapshot(join(REPO, GENERATED));
    await expect(sources.descriptions).toMatchFileSnapshot(join(REPO, GENERATED_DESCRIPTIONS));
  });
});
