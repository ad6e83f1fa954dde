/**
 * What a custom resource contributes to its group-version's OpenAPI v3 document besides its
 * paths (those are its routes, openapi-v2-custom-paths.ts, written by openapi-v3-paths.ts), as
 * apiextensions-apiserver builds it (pkg/controller/openapi/builder/builder.go; the v3 documents
 * of every definition in a group-version merged by pkg/controller/openapiv3 `updateGroupVersion`):
 *
 * - `components.schemas`: the kind (`com.example.v1.Widget`) and its list, converted by
 *   custom-schema.ts, and the meta types they refer to (ObjectMeta, ListMeta and what those
 *   reach; autoscaling/v1 Scale with `/scale`), with the upstream descriptions.
 */
import type { ResourceKind } from '../kinds/types.js';
import { CUSTOM_KIND_REFERENCES, customKindSchema, customListSchema } from './custom-schema.js';
import type { ApiDescriptionTable } from './openapi-model.js';
import { namedTypeSchemas, type OpenApiSchema, schemaNameOf } from './openapi-schemas.js';

/** The info of a document built from definitions (builder.go `getOpenAPIV3Config`). */
export const CUSTOM_DOCUMENT_INFO = { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' };

const SCALE_SCHEMA = 'io.k8s.api.autoscaling.v1.Scale';

/** The selectable fields of a custom kind, as its field-selector table lists them. */
function selectableFieldsOf(k: ResourceKind): string[] {
  return Object.keys(k.fields);
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
