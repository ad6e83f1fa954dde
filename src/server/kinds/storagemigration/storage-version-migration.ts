/**
 * The StorageVersionMigration (storagemigration.k8s.io/v1): validation
 * (pkg/apis/storagemigration/validation `ValidateStorageVersionMigration`, `...Update`,
 * `...StatusUpdate`), strategy (pkg/registry/storagemigration/storagemigration/strategy.go: the
 * status reset on create, kept by a main update; the spec fixed; no PUT without a
 * resourceVersion) and Table (printers.go `printStorageVersionMigration`).
 *
 * Not checked here: the conditions' own rules (meta/v1 `ValidateConditions`) on a status write.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, rec, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { requireBuiltinResource } from '../builtin-table.js';
import { GoRendered, goJsonMarshal } from '../field-value.js';
import type { FieldError, ResourceKind } from '../types.js';
import { invalid, required, validateObjectMeta } from '../validation.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../validation-names.js';

/** `ValidateStorageVersionMigration`: the resource to migrate, a DNS-1035 label, in a DNS-subdomain group. */
export function validateStorageVersionMigration(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const resource = rec(rec(obj.spec).resource);
  const plural = str(resource.resource);
  if (plural === '') errors.push(required('spec.resource.resource', 'resource is required to be set'));
  else {
    const msgs = isDNS1035Label(plural);
    if (msgs.length > 0) errors.push(invalid('spec.resource.resource', plural, msgs.join(',')));
  }
  const group = str(resource.group);
  if (group !== '') {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length > 0) errors.push(invalid('spec.resource.group', group, msgs.join(',')));
  }
  return errors;
}

/** The internal spec as `ValidateImmutableField` prints it: Go field names, no json tags. */
function specValue(obj: KubeObject): GoRendered {
  const resource = rec(rec(obj.spec).resource);
  return new GoRendered(
    `{"Resource":{"Group":${goJsonMarshal(str(resource.group))},"Resource":${goJsonMarshal(str(resource.resource))}}}`,
  );
}

/** `ValidateStorageVersionMigrationUpdate`'s own part: the spec never changes. */
export function validateStorageVersionMigrationUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const now = specValue(obj);
  return now.text === specValue(old).text ? [] : [invalid('spec', now, 'field is immutable')];
}

function conditionTrue(obj: KubeObject, type: string): boolean {
  return objects(rec(obj.status).conditions).some((c) => c.type === type && c.status === 'True');
}

/**
 * `ValidateStorageVersionMigrationStatusUpdate`: a resourceVersion set once stays; Succeeded and
 * Failed are never both true, and neither goes back once true.
 */
export function validateStorageVersionMigrationStatus(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const rv = str(rec(obj.status).resourceVersion);
  if (rv !== '' && !/^[1-9][0-9]*$/.test(rv)) {
    errors.push(invalid('status.resourceVersion', rv, `resource version is not well formed: ${rv}`));
  }
  const oldRv = str(rec(old.status).resourceVersion);
  if (oldRv !== '' && oldRv !== rv) errors.push(invalid('status.resourceVersion', rv, 'field is immutable'));
  const conditions = new GoRendered(goJsonMarshal(objects(rec(obj.status).conditions)));
  const succeeded = conditionTrue(obj, 'Succeeded');
  const failed = conditionTrue(obj, 'Failed');
  if (succeeded && failed) {
    errors.push(
      invalid(
        'status.conditions',
        conditions,
        'Both success and failed conditions cannot be true at the same time',
      ),
    );
  }
  if (conditionTrue(old, 'Succeeded') && !succeeded) {
    errors.push(
      invalid('status.conditions', conditions, 'Success condition cannot be set to false once it is true'),
    );
  }
  if (conditionTrue(old, 'Failed') && !failed) {
    errors.push(
      invalid('status.conditions', conditions, 'Failed condition cannot be set to false once it is true'),
    );
  }
  return errors;
}

/** printers.go: the last true Running, Failed or Succeeded condition names the status; none, Unknown. */
function statusCell(obj: KubeObject): string {
  let status = 'Unknown';
  for (const c of objects(rec(obj.status).conditions)) {
    if (c.status !== 'True') continue;
    if (c.type === 'Running' || c.type === 'Failed' || c.type === 'Succeeded') status = c.type;
  }
  return status;
}

/** printers.go: the GroupResource as `resource.group` (schema.GroupResource `String`). */
function resourceCell(obj: KubeObject): string {
  const r = rec(rec(obj.spec).resource);
  const group = str(r.group);
  return group === '' ? str(r.resource) : `${str(r.resource)}.${group}`;
}

/**
 * Go decodes into the types: the spec and its GroupResource are always there, their strings
 * (`group`, `resource`, not omitempty) written even when empty.
 */
export function defaultStorageVersionMigration(obj: KubeObject): void {
  if (!isObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Record<string, unknown>;
  if (!isObject(spec.resource)) spec.resource = {};
  const resource = spec.resource as Record<string, unknown>;
  resource.group ??= '';
  resource.resource ??= '';
}

/** The status strategy's PrepareForUpdate: meta/v1 `ResetObjectMetaForStatus`. */
function resetMetadataForStatus(obj: KubeObject, old: KubeObject): void {
  // The status is a struct: written, empty, when a write leaves it out.
  obj.status ??= {};
  obj.metadata ??= {};
  const meta = obj.metadata as Record<string, unknown>;
  const was = (old.metadata ?? {}) as Record<string, unknown>;
  for (const key of [
    'deletionTimestamp',
    'generation',
    'labels',
    'annotations',
    'finalizers',
    'ownerReferences',
  ]) {
    if (was[key] === undefined) delete meta[key];
    else meta[key] = was[key];
  }
}

const base = builtinKind('storagemigration.k8s.io', 'v1', 'storageversionmigrations', {
  validate: validateStorageVersionMigration,
  validateUpdate: validateStorageVersionMigrationUpdate,
  defaults: defaultStorageVersionMigration,
  validateStatusUpdate: validateStorageVersionMigrationStatus,
  prepareForStatusUpdate: resetMetadataForStatus,
  // PrepareForCreate: an empty status, whatever was sent.
  prepareForCreate: (obj) => {
    obj.status = {};
  },
  cells: { Resource: resourceCell, Status: statusCell },
  allowUnconditionalUpdate: false,
});

/** The reference's Name column (printers.go's, format `''`, not the table builder's `name`). */
const nameDefinition = requireBuiltinResource('storagemigration.k8s.io', 'v1', 'storageversionmigrations')
  .columns?.[0];

/** The StorageVersionMigration's entry in the served kinds. */
export const storageVersionMigrationKind: ResourceKind = {
  ...base,
  columnsIncludeName: true,
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: nameDefinition?.format ?? '',
      description: nameDefinition?.description ?? '',
      priority: 0,
      cell: (o) => str(o.metadata?.name),
    },
    ...base.columns,
  ],
};
