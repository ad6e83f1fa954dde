/**
 * What a custom resource contributes to its group-version's OpenAPI documents, as
 * apiextensions-apiserver builds them (pkg/controller/openapi/builder/builder.go
 * `generateBuilder`, `buildRoute`, `descriptionFor`; the v3 documents of every definition in a
 * group-version merged by pkg/controller/openapiv3 `updateGroupVersion`):
 *
 * - the paths: list (and list in all namespaces), create, deletecollection, read, replace,
 *   delete, patch, and `/status` and `/scale` when the version has them;
 * - PATCH takes JSON patch, merge patch and apply patch only: no strategic merge patch, so
 *   kubectl 1.29+ (`gvkSupportsPatchOpenAPIV3`) sends custom objects a merge patch;
 * - the operationIds and tags of apiserver endpoints/openapi `GetOperationIDAndTags`
 *   (`listExampleComV1NamespacedWidget`, tag `exampleCom_v1`);
 * - `components.schemas`: the kind (`com.example.v1.Widget`) and its list, converted by
 *   custom-schema.ts, and the meta types they refer to (ObjectMeta, ListMeta and what those
 *   reach; autoscaling/v1 Scale with `/scale`), with the upstream descriptions.
 */
import type { ResourceKind } from '../kinds/types.js';
import {
  CUSTOM_KIND_REFERENCES,
  customKindSchema,
  customListSchema,
  type OpenApiVersion,
  refTo,
} from './custom-schema.js';
import type { ApiDescriptionTable } from './openapi-model.js';
import { namedTypeSchemas, type OpenApiSchema, schemaNameOf } from './openapi-schemas.js';
import { type OpenApiPathItem, type OperationMedia, type OpSpec, operation } from './operations.js';
import { P } from './parameters.js';

/** The info of a document built from definitions (builder.go `getOpenAPIV3Config`). */
export const CUSTOM_DOCUMENT_INFO = { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' };

/** What a custom resource's handlers produce and consume (builder.go `buildRoute`). */
const CUSTOM_MEDIA: OperationMedia = {
  object: ['application/json', 'application/yaml'],
  list: ['application/json', 'application/yaml'],
  write: ['application/json', 'application/yaml'],
  patch: ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'],
};

const SCALE_SCHEMA = 'io.k8s.api.autoscaling.v1.Scale';

/**
 * apiserver endpoints/openapi `ToValidOperationID`: letters, `_` and (not first) digits kept,
 * each other character dropped and the letter after it capitalized.
 */
export function toValidOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  [...s].forEach((c, i) => {
    if (/\p{L}/u.test(c) || c === '_' || (i !== 0 && /\p{Nd}/u.test(c))) {
      out += capitalize ? c.toUpperCase() : c;
      capitalize = false;
    } else {
      capitalize = true;
    }
  });
  return out;
}

/** apiserver endpoints `GetArticleForNoun`: none for a plural-looking noun, else " a " or " an ". */
function articleFor(noun: string): string {
  if (!noun.endsWith('ss') && noun.endsWith('s')) return ' ';
  return /^[aeiou]/i.test(noun) ? ' an ' : ' a ';
}

/** builder.go `descriptionFor`. */
function descriptionFor(kind: string, sub: string, verb: OpSpec['verb']): string {
  const of = sub ? ` ${sub} of` : '';
  switch (verb) {
    case 'list':
      return `list${of} objects of kind ${kind}`;
    case 'read':
    case 'replace':
      return `${verb}${of} the specified ${kind}`;
    case 'patch':
      return `partially update${of} the specified ${kind}`;
    case 'create':
    case 'delete':
      return `${verb}${of}${articleFor(kind)}${kind}`;
    case 'deletecollection':
      return `delete collection of${of ? `${of} a` : ''} ${kind}`;
  }
}

/** The selectable fields of a custom kind, as its field-selector table lists them. */
function selectableFieldsOf(k: ResourceKind): string[] {
  return Object.keys(k.fields);
}

/** The paths one custom kind contributes to its group-version document. */
export function customKindPaths(
  k: ResourceKind,
  version: OpenApiVersion = 'v3',
): Record<string, OpenApiPathItem> {
  const group = k.group.replace(/\.k8s\.io$/, '');
  const prefix = `${toValidOperationId(group, true)}${toValidOperationId(k.version, true)}`;
  const tag = `${toValidOperationId(group, false)}_${toValidOperationId(k.version, false)}`;
  const gvk = { group: k.group, version: k.version, kind: k.kind };
  const kindRef = { $ref: refTo(schemaNameOf(k), version) };
  const listRef = { $ref: refTo(listSchemaNameOf(k), version) };
  const scaleRef = { $ref: refTo(SCALE_SCHEMA, version) };
  const ns = k.namespaced ? 'Namespaced' : '';
  const base = `/apis/${k.group}/${k.version}`;
  const collection = k.namespaced ? `${base}/namespaces/{namespace}/${k.plural}` : `${base}/${k.plural}`;
  const item = `${collection}/{name}`;
  const scopeParams = k.namespaced ? [P.namespace] : [];
  const op = (verb: OpSpec['verb'], sub: '' | 'status' | 'scale', schemas: Partial<OpSpec> = {}) =>
    operation({
      verb,
      subject: `${ns}${k.kind}${sub ? sub.charAt(0).toUpperCase() + sub.slice(1) : ''}`,
      gvk,
      tag,
      prefix,
      description: descriptionFor(k.kind, sub, verb),
      media: CUSTOM_MEDIA,
      ...schemas,
    });
  const object = { objectSchema: kindRef };
  const paths: Record<string, OpenApiPathItem> = {
    [collection]: {
      get: op('list', '', { listSchema: listRef }),
      post: op('create', '', object),
      delete: op('deletecollection', ''),
      parameters: [...scopeParams, P.pretty],
    },
    [item]: {
      get: op('read', '', object),
      put: op('replace', '', object),
      delete: op('delete', ''),
      patch: op('patch', '', object),
      parameters: [P.name(k.kind), ...scopeParams, P.pretty],
    },
  };
  for (const sub of k.subresources.filter((s) => s === 'status' || s === 'scale')) {
    const schemas = { objectSchema: sub === 'scale' ? scaleRef : kindRef };
    paths[`${item}/${sub}`] = {
      get: op('read', sub, schemas),
      put: op('replace', sub, schemas),
      patch: op('patch', sub, schemas),
      parameters: [P.name(k.kind), ...scopeParams, P.pretty],
    };
  }
  if (k.namespaced) {
    // builder.go names this route's operation itself: `list<Kind>ForAllNamespaces`.
    paths[`${base}/${k.plural}`] = {
      get: {
        ...op('list', '', { listSchema: listRef }),
        operationId: `list${prefix}${k.kind}ForAllNamespaces`,
      },
      parameters: [P.pretty],
    };
  }
  return paths;
}

/**
 * The `components.schemas` custom kinds bring to a v3 group-version document: each kind and
 * its list, and the meta types they refer to, by name.
 */
export function customComponentSchemas(
  kinds: readonly ResourceKind[],
  descriptions?: ApiDescriptionTable,
): Record<string, OpenApiSchema> {
  const custom = kinds.filter((k) => k.custom);
  if (custom.length === 0) return {};
  const roots = [...CUSTOM_KIND_REFERENCES];
  if (custom.some((k) => k.subresources.includes('scale'))) roots.push(SCALE_SCHEMA);
  const schemas: Record<string, OpenApiSchema> = namedTypeSchemas(roots, descriptions);
  for (const k of custom) {
    const name = schemaNameOf(k);
    const selectableFields = selectableFieldsOf(k);
    const input = { ...k, openAPIV3Schema: k.custom?.openAPIV3Schema, selectableFields };
    // A definition's schema is any JSON Schema the CRD holds, wider than the built-in types' form.
    schemas[name] = customKindSchema(input, 'v3') as OpenApiSchema;
    schemas[listSchemaNameOf(k)] = customListSchema(
      { ...input, listKind: listKindOf(k), plural: k.plural, kindSchemaName: name },
      'v3',
    ) as OpenApiSchema;
    if (k.subresources.includes('scale')) {
      schemas[SCALE_SCHEMA]!['x-kubernetes-group-version-kind'] = [
        { group: 'autoscaling', kind: 'Scale', version: 'v1' },
      ];
    }
  }
  return schemas;
}

/** The OpenAPI name of a custom kind's list: `com.example.v1.WidgetList`. */
function listSchemaNameOf(k: ResourceKind): string {
  return schemaNameOf({ ...k, kind: listKindOf(k) });
}

/**
 * A custom kind's list kind: `spec.names.listKind`, whose default is `<Kind>List`
 * (apiextensions/v1 defaults.go `SetDefaults_CustomResourceDefinitionSpec`).
 */
export function listKindOf(k: ResourceKind): string {
  const listKind = (k.custom as { listKind?: unknown } | undefined)?.listKind;
  return typeof listKind === 'string' && listKind !== '' ? listKind : `${k.kind}List`;
}
