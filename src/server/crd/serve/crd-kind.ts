/**
 * The CustomResourceDefinition resource itself (apiextensions.k8s.io/v1), as
 * apiextensions-apiserver's registry serves it (pkg/registry/customresourcedefinition:
 * strategy.go, etcd.go): cluster-scoped, with a status subresource, defaulted as
 * pkg/apis/apiextensions/v1/defaults.go does and validated by ../definition/validation.ts.
 */
import type { KubeObject } from '../../../protocol/events.js';
import { arr, rec, str } from '../../kinds/access.js';
import type { ResourceKind } from '../../kinds/types.js';
import { validateObjectMeta } from '../../kinds/validation.js';
import { jsonEqual } from '../../registry/meta.js';
import { setCondition } from '../definition/names.js';
import type { CustomResourceDefinitionCondition } from '../definition/types.js';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
} from '../definition/validation.js';
import { dropLenientlyDecodedFields } from './schema-decode.js';

/** The finalizer a definition's deletion gets, until its objects are gone (apiextensions `CustomResourceCleanupFinalizer`). */
const spec = (o: KubeObject) => rec(o.spec);

/** The Versions cell: the served versions, `(storage)` after the storage one, sorted as strings. */
function servedVersions(o: KubeObject): string {
  return arr(spec(o).versions)
    .map(rec)
    .filter((v) => v.served === true)
    .map((v) => `${str(v.name)}${v.storage === true ? '(storage)' : ''}`)
    .sort()
    .join(',');
}

export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/**
 * defaults.go `SetDefaults_CustomResourceDefinitionSpec`: the singular is the lower-cased kind,
 * the list kind `<Kind>List`, conversion `None`; `SetDefaults_ServiceReference`: a webhook
 * service's port is 443.
 */
export function defaultCustomResourceDefinition(obj: KubeObject): void {
  // Decoding comes before defaulting: what Go's lenient decode of nested schemas drops is gone.
  dropLenientlyDecodedFields(obj);
  const spec = rec(obj.spec);
  if (typeof obj.spec !== 'object' || obj.spec === null) return;
  const names = rec(spec.names);
  if (typeof spec.names === 'object' && spec.names !== null) {
    if (str(names.singular) === '') names.singular = str(names.kind).toLowerCase();
    if (str(names.listKind) === '' && str(names.kind) !== '') names.listKind = `${str(names.kind)}List`;
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
  const service = rec(rec(rec(spec.conversion).webhook).clientConfig).service;
  if (typeof service === 'object' && service !== null && rec(service).port === undefined)
    rec(service).port = 443;
}

/** The version marked `storage: true`, or undefined. */
export function storageVersionOf(crd: unknown): string | undefined {
  const v = arr(rec(rec(crd).spec).versions).find((x) => rec(x).storage === true);
  return v === undefined ? undefined : str(rec(v).name);
}

/**
 * strategy.go `PrepareForCreate`: a new definition's status is empty but for the storage
 * version, recorded in `storedVersions`; accepted names start empty (their two required
 * fields are always written) and the controllers fill them in.
 */
function prepareCreate(obj: KubeObject): void {
  const storage = storageVersionOf(obj);
  // types.go `CustomResourceDefinitionStatus.Conditions` has no omitempty: no conditions yet are `null`.
  obj.status = {
    conditions: null,
    acceptedNames: { plural: '', kind: '' },
    storedVersions: storage ? [storage] : [],
  };
}

/** strategy.go `PrepareForUpdate`: a storage version not stored before joins `storedVersions`. */
function prepareUpdate(obj: KubeObject, _old: KubeObject): void {
  const storage = storageVersionOf(obj);
  if (storage === undefined) return;
  const status = rec(obj.status);
  const stored = arr(status.storedVersions).map(str);
  if (!stored.includes(storage)) obj.status = { ...status, storedVersions: [...stored, storage] };
}

/**
 * etcd.go `REST.Delete`, on the first delete: the definition is marked, gets the cleanup
 * finalizer, and says it is terminating; the finalizer controller then deletes its objects.
 */
function markDeleted(obj: KubeObject, now: string): void {
  const meta = obj.metadata ?? {};
  const finalizers = meta.finalizers ?? [];
  if (!finalizers.includes(CLEANUP_FINALIZER)) meta.finalizers = [...finalizers, CLEANUP_FINALIZER];
  const status = rec(obj.status);
  const conditions = arr(status.conditions) as CustomResourceDefinitionCondition[];
  obj.status = {
    ...status,
    conditions: setCondition(
      conditions,
      {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      },
      now,
    ),
  };
}

/** The registry's entry of `customresourcedefinitions`. */
export const CUSTOM_RESOURCE_DEFINITIONS: ResourceKind = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  fields: {},
  subresources: ['status'],
  // strategy.go `PrepareForUpdate`: any spec change bumps the generation.
  generationFields: ['spec'],
  // strategy.go `AllowUnconditionalUpdate` (of the status strategy too): a PUT names its version.
  allowUnconditionalUpdate: false,
  defaults: defaultCustomResourceDefinition,
  prepareForCreate: prepareCreate,
  prepareForUpdate: prepareUpdate,
  markDeleted,
  validate: (obj, old) => {
    if (!old) return validateCustomResourceDefinition(obj);
    // An update that leaves the spec as it was (the controllers' status writes, a label) has
    // nothing new to judge there: update validation allows whatever the old definition already
    // had (validation.go `ValidateCustomResourceDefinitionUpdate` derives its options from the
    // old object), and the status strategy validates no spec at all (strategy.go
    // `statusStrategy.ValidateUpdate`). Skipping it spares a full schema and CEL check per write.
    if (jsonEqual(obj.spec, old.spec)) return validateObjectMeta(obj);
    return validateCustomResourceDefinitionUpdate(obj, old);
  },
  // The registry's table convertor (apiextensions-apiserver
  // pkg/registry/customresourcedefinition/tableconvertor `ConvertToTable`, since 1.34): after
  // Name, the scope, the served versions sorted with the storage one marked, the creation time
  // in RFC 3339 UTC, and with -o wide the group, kind, short names and whether it is Established.
  columns: [
    {
      name: 'Scope',
      type: 'string',
      description: 'Cluster/Namespaced',
      priority: 0,
      cell: (o) => str(spec(o).scope),
    },
    { name: 'Versions', type: 'string', description: 'Served versions', priority: 0, cell: servedVersions },
    {
      name: 'Created At',
      type: 'date',
      fieldDoc: { type: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', field: 'creationTimestamp' },
      priority: 0,
      cell: (obj) => str(obj.metadata?.creationTimestamp),
    },
    { name: 'Group', type: 'string', description: 'API group', priority: 1, cell: (o) => str(spec(o).group) },
    {
      name: 'Kind',
      type: 'string',
      description: 'CustomResource kind',
      priority: 1,
      cell: (o) => str(rec(spec(o).names).kind),
    },
    {
      name: 'ShortNames',
      type: 'string',
      description: 'Short names',
      priority: 1,
      cell: (o) =>
        arr(rec(spec(o).names).shortNames)
          .map(String)
          .join(','),
    },
    {
      name: 'Established',
      type: 'boolean',
      description: 'Established status',
      priority: 1,
      cell: (o) =>
        arr(rec(o.status).conditions).some((c) => rec(c).type === 'Established' && rec(c).status === 'True'),
    },
  ],
};
