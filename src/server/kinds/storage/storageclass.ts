/**
 * The StorageClass (storage.k8s.io/v1, cluster-scoped): defaults (pkg/apis/storage/v1/defaults.go
 * `SetDefaults_StorageClass`: reclaim policy Delete, binding mode Immediate), validation
 * (pkg/apis/storage/validation `ValidateStorageClass`, `ValidateStorageClassUpdate`: provisioner,
 * parameters, reclaim policy and binding mode are immutable) and the columns (printers.go
 * `printStorageClass`). Not served: the strategy's warnings on deprecated topology labels.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, rec, sameJson, setIfAbsent, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import type { FieldError, ResourceKind } from '../types.js';
import { duplicate, invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import { sameStringMap, validateParameters, validateProvisioner } from './class-rules.js';

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

/** The class's defaults. */
export function defaultStorageClass(obj: KubeObject): void {
  setIfAbsent(obj, 'reclaimPolicy', 'Delete');
  setIfAbsent(obj, 'volumeBindingMode', 'Immediate');
}

/**
 * `validateAllowedTopologies` with core's `ValidateTopologySelectorTerm`: each requirement has
 * values, none twice, a key once per term; two terms alike are duplicates.
 */
function validateAllowedTopologies(topologies: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen: string[] = [];
  arr(topologies).forEach((term, i) => {
    const termPath = `${path}[${i}]`;
    const exprPath = `${termPath}.matchLabelExpressions`;
    const exprMap: Record<string, string[]> = {};
    arr(rec(term).matchLabelExpressions).forEach((req, j) => {
      const r = rec(req);
      const valuesPath = `${exprPath}[${j}].values`;
      const values = arr(r.values).map(str);
      if (values.length === 0) errors.push(required(valuesPath));
      const set = new Set<string>();
      values.forEach((v, k) => {
        if (set.has(v)) errors.push(duplicate(`${valuesPath}[${k}]`, v));
        set.add(v);
      });
      const key = str(r.key);
      if (key in exprMap) errors.push(duplicate(`${exprPath}[${j}].key`, key));
      exprMap[key] = [...set].sort();
    });
    const canonical = JSON.stringify(
      Object.keys(exprMap)
        .sort()
        .map((k) => [k, exprMap[k]]),
    );
    for (const earlier of seen) {
      if (earlier === canonical) errors.push(duplicate(`${termPath}.matchLabelExpressions`, ''));
    }
    seen.push(canonical);
  });
  return errors;
}

/** `ValidateStorageClass`. */
export function validateStorageClass(obj: KubeObject): FieldError[] {
  const o = obj as Record<string, unknown>;
  const errors = validateObjectMeta(obj);
  errors.push(...validateProvisioner(o.provisioner, 'provisioner'));
  errors.push(...validateParameters(o.parameters, true, 'parameters'));
  const policy = o.reclaimPolicy;
  if (typeof policy === 'string' && policy !== '' && !RECLAIM_POLICIES.includes(policy)) {
    errors.push(notSupported('reclaimPolicy', policy, RECLAIM_POLICIES));
  }
  const mode = o.volumeBindingMode;
  if (mode === undefined || mode === null) errors.push(required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(str(mode)))
    errors.push(notSupported('volumeBindingMode', mode, BINDING_MODES));
  errors.push(...validateAllowedTopologies(o.allowedTopologies, 'allowedTopologies'));
  return errors;
}

/**
 * `ValidateStorageClassUpdate`: provisioner, parameters, reclaim policy and binding mode stay.
 * Declarative validation (+k8s:immutable) reports these in the type's field order, without the
 * value (`Invalid value: null`), in place of the handwritten checks it covers.
 */
export function validateStorageClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const o = obj as Record<string, unknown>;
  const p = old as Record<string, unknown>;
  const changed: Record<string, boolean> = {
    provisioner: str(o.provisioner) !== str(p.provisioner),
    parameters: !sameStringMap(o.parameters, p.parameters),
    reclaimPolicy: !sameJson(o.reclaimPolicy ?? null, p.reclaimPolicy ?? null),
    volumeBindingMode: !sameJson(o.volumeBindingMode ?? null, p.volumeBindingMode ?? null),
  };
  return Object.keys(changed)
    .filter((f) => changed[f])
    .map((f) => invalid(f, null, 'field is immutable'));
}

/** The StorageClass's entry in the served kinds. */
export const storageClassKind: ResourceKind = builtinKind('storage.k8s.io', 'v1', 'storageclasses', {
  defaults: defaultStorageClass,
  validate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
  cells: {
    Provisioner: (o) => str((o as Record<string, unknown>).provisioner),
    ReclaimPolicy: (o) => str((o as Record<string, unknown>).reclaimPolicy) || 'Delete',
    VolumeBindingMode: (o) => str((o as Record<string, unknown>).volumeBindingMode) || 'Immediate',
    AllowVolumeExpansion: (o) => (o as Record<string, unknown>).allowVolumeExpansion === true,
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
