/**
 * The served kinds of an established CustomResourceDefinition: one {@link ResourceKind} per
 * served version, as apiextensions-apiserver's crdHandler builds a version's storage and
 * handler (pkg/apiserver/customresource_handler.go `getOrCreateServingInfoFor`): the accepted
 * names, the scope, the version's schema compiled once (pruning, defaulting, validation), its
 * subresources, printer columns and selectable fields.
 */
import type { KubeObject } from '../../../protocol/events.js';
import { arr, getPath, rec, str } from '../../kinds/access.js';
import type { CustomDefinitionState, FieldError, ResourceKind, TableColumn } from '../../kinds/types.js';
import { invalid, validateObjectMeta } from '../../kinds/validation.js';
import { compileCrdSchemaWithCel } from '../cel/index.js';
import { type CustomResourceColumnDefinition, printerColumns } from '../definition/printer-columns.js';
import { type CrdSchema, compileCrdSchema } from '../schema/engine.js';
import type { CrdSchemaProps } from '../schema/structural.js';

/** `.spec.replicas` → `spec.replicas` (the paths are simple JSON paths; validation says so). */
const dotted = (jsonPath: string): string => jsonPath.replace(/^\./, '');

/**
 * apihelpers `serveDefaultColumnsIfEmpty`: a version without printer columns is printed with
 * its age.
 */
const AGE_COLUMN: CustomResourceColumnDefinition = {
  name: 'Age',
  type: 'date',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  jsonPath: '.metadata.creationTimestamp',
};

/**
 * A selectable field's value as the field selector compares it (strategy.go
 * `selectableFields`): strings as they are, booleans and integers in their decimal form.
 */
function selectableReader(path: string): (obj: KubeObject) => string | undefined {
  return (obj) => {
    const v = getPath(obj, path);
    if (typeof v === 'string') return v;
    if (typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v))) return String(v);
    return undefined;
  };
}

/**
 * validator.go `ValidateScaleSpec` and `ValidateScaleStatus`: the replicas at the scale paths
 * are non-negative int32s, the selector a string. Paths are named as the CRD spells them.
 */
function validateScale(obj: KubeObject, scale: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const replicas = (jsonPath: string): void => {
    if (jsonPath === '') return;
    const v = getPath(obj, dotted(jsonPath));
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      errors.push(
        invalid(
          jsonPath,
          0,
          `${jsonPath} accessor error: ${JSON.stringify(v)} is of the type ${typeof v}, expected int64`,
        ),
      );
    } else if (v < 0) errors.push(invalid(jsonPath, v, 'should be a non-negative integer'));
    else if (v > 2147483647) errors.push(invalid(jsonPath, v, 'should be less than or equal to 2147483647'));
  };
  replicas(str(scale.specReplicasPath));
  replicas(str(scale.statusReplicasPath));
  const selectorPath = str(scale.labelSelectorPath);
  if (selectorPath !== '') {
    const v = getPath(obj, dotted(selectorPath));
    if (v !== undefined && typeof v !== 'string') {
      errors.push(
        invalid(
          selectorPath,
          '',
          `${selectorPath} accessor error: ${JSON.stringify(v)} is of the type ${typeof v}, expected string`,
        ),
      );
    }
  }
  return errors;
}

/** True when any node of the schema carries `x-kubernetes-validations` (read before compiling). */
function hasCelRules(s: unknown): boolean {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return false;
  const node = s as Record<string, unknown>;
  if (Array.isArray(node['x-kubernetes-validations']) && node['x-kubernetes-validations'].length > 0)
    return true;
  const props = node.properties;
  if (typeof props === 'object' && props !== null && Object.values(props).some(hasCelRules)) return true;
  const lists = [node.allOf, node.anyOf, node.oneOf].filter(Array.isArray) as unknown[][];
  if (lists.some((l) => l.some(hasCelRules))) return true;
  return hasCelRules(node.items) || hasCelRules(node.additionalProperties) || hasCelRules(node.not);
}

/**
 * Compiled schemas by definition uid, generation and version. The generation moves with every
 * spec change (crd-kind.ts, strategy.go `PrepareForUpdate`) and a uid is never reused, so one
 * entry always means one schema: a server that starts over stored definitions it (or another
 * server of this process, over a copy of the same store) has compiled before skips the work,
 * which for large real definitions is most of a start.
 */
const COMPILED_MAX = 512;
const compiled = new Map<string, CrdSchema>();

function compiledSchema(
  meta: Record<string, unknown>,
  version: string,
  schemaProps: CrdSchemaProps | undefined,
): CrdSchema {
  const compile = () =>
    hasCelRules(schemaProps) ? compileCrdSchemaWithCel(schemaProps) : compileCrdSchema(schemaProps);
  const uid = str(meta.uid);
  if (!uid || typeof meta.generation !== 'number') return compile();
  const key = `${uid}/${meta.generation}/${version}`;
  let schema = compiled.get(key);
  if (schema === undefined) {
    schema = compile();
    compiled.set(key, schema);
    if (compiled.size > COMPILED_MAX) compiled.delete(compiled.keys().next().value as string);
  }
  return schema;
}

/**
 * The kinds a definition serves now: one per served version, named by its accepted names
 * (`status.acceptedNames`, which the names controller grants), all sharing `state`.
 */
export function customKindsOf(crdIn: unknown, state: CustomDefinitionState): ResourceKind[] {
  const crd = rec(crdIn);
  const spec = rec(crd.spec);
  const names = rec(rec(crd.status).acceptedNames);
  const versions = arr(spec.versions).map(rec);
  const storageVersion = str(versions.find((v) => v.storage === true)?.name);
  const servedVersions = versions.filter((v) => v.served === true).map((v) => str(v.name));
  const meta = rec(crd.metadata);
  const storageApiVersion = `${str(spec.group)}/${storageVersion}`;
  const webhook = rec(spec.conversion).strategy === 'Webhook';
  // customresource_handler.go `getOrCreateServingInfoFor`: every version of the definition, with
  // its scale subresource's replicas path or null (`replicasPathInCustomResource`).
  const replicasPathByVersion: Record<string, string | null> = {};
  for (const v of versions) {
    const vScale = rec(v.subresources).scale;
    replicasPathByVersion[`${str(spec.group)}/${str(v.name)}`] =
      vScale === undefined || vScale === null ? null : dotted(str(rec(vScale).specReplicasPath));
  }
  return versions
    .filter((v) => v.served === true)
    .map((version): ResourceKind => {
      const apiVersion = `${str(spec.group)}/${str(version.name)}`;
      const schemaProps = rec(version.schema).openAPIV3Schema as CrdSchemaProps | undefined;
      // The schema, with its CEL rules (`x-kubernetes-validations`) when it has any, compiled
      // once per version. Without rules there is no CEL validator at all (cel/validation.go
      // `NewValidator` returns nil), so nothing reports rules left unchecked.
      const schema = compiledSchema(meta, str(version.name), schemaProps);
      const sub = rec(version.subresources);
      const scale = sub.scale === undefined || sub.scale === null ? undefined : rec(sub.scale);
      const defs = arr(version.additionalPrinterColumns) as CustomResourceColumnDefinition[];
      const { columns } = printerColumns(defs.length > 0 ? defs : [AGE_COLUMN]);
      const fields: ResourceKind['fields'] = {};
      for (const f of arr(version.selectableFields)) {
        const path = dotted(str(rec(f).jsonPath));
        fields[path] = selectableReader(path);
      }
      const validateRest = (obj: KubeObject, old: KubeObject | undefined): FieldError[] => [
        ...validateObjectMeta(obj),
        ...schema.validate(obj, old ? { oldObject: old } : {}),
        ...(scale ? validateScale(obj, scale) : []),
      ];
      const kind: ResourceKind = {
        group: str(spec.group),
        version: str(version.name),
        kind: str(names.kind),
        plural: str(names.plural),
        singular: str(names.singular),
        namespaced: spec.scope === 'Namespaced',
        shortNames: arr(names.shortNames).map(str),
        categories: arr(names.categories).map(str),
        fields,
        subresources: [
          ...(sub.status !== undefined && sub.status !== null ? (['status'] as const) : []),
          ...(scale ? (['scale'] as const) : []),
        ],
        generationFields: [],
        defaults: (obj) => schema.default(obj),
        // The storage codec (customresource_handler.go `schemaCoercingConverter`): a stored object
        // is converted to this version, coerced to its schema (unknown fields pruned, silently)
        // and defaulted by it; written objects are converted to the storage version.
        fromStorage: (obj, written) => {
          if (obj.apiVersion !== apiVersion) obj.apiVersion = apiVersion;
          if (written) return;
          schema.prune(obj);
          schema.default(obj);
        },
        toStorage: (obj) => {
          obj.apiVersion = storageApiVersion;
        },
        pruneUnknown: (obj) => schema.prune(obj),
        // strategy.go `Validate`/`ValidateUpdate` through validator.go: the metadata (names are
        // DNS subdomains), the schema (ratcheting unchanged values on update), then the scale paths.
        validate: (obj, old) => {
          // validator.go `ValidateTypeMeta` comes first, and alone when it fails.
          if (obj.kind !== str(names.kind)) return [invalid('kind', obj.kind, `must be ${str(names.kind)}`)];
          return validateRest(obj, old);
        },
        columns: columns as TableColumn[],
        // pkg/registry/customresource/strategy.go `AllowUnconditionalUpdate`.
        allowUnconditionalUpdate: false,

        custom: {
          crdName: str(meta.name),
          crdUid: str(meta.uid),
          listKind: str(names.listKind) || `${str(names.kind)}List`,
          storageVersion,
          servedVersions,
          openAPIV3Schema: schemaProps as Readonly<Record<string, unknown>> | undefined,
          state,
          // A version other than the storage one needs the webhook for every object, and
          // watchmark calls no webhooks (yet): such requests get a clear error, never wrong data.
          ...(webhook && str(version.name) !== storageVersion
            ? {
                conversionError: `conversion webhook for ${storageApiVersion}, Kind=${str(names.kind)} failed: watchmark does not call conversion webhooks; use the storage version ${storageApiVersion}`,
              }
            : {}),
          ...(version.deprecated === true ? { deprecated: true } : {}),
          ...(typeof version.deprecationWarning === 'string'
            ? { deprecationWarning: version.deprecationWarning }
            : {}),
        },
      };
      if (scale) {
        kind.scale = {
          specReplicas: dotted(str(scale.specReplicasPath)),
          statusReplicas: dotted(str(scale.statusReplicasPath)),
          labelSelector: dotted(str(scale.labelSelectorPath)),
          replicasPathByVersion,
        };
      }
      return kind;
    });
}
