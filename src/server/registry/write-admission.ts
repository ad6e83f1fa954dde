/**
 * Where a write meets admission (admission/ provides it; the handlers pass it in
 * WriteOptions): the interface storage calls, and what a create shows mutating admission.
 */
import type { KubeObject } from '../../protocol/events.js';
import type { ResourceKind } from '../kinds/types.js';
import { metaOf } from './meta.js';
import { prepareCreate } from './prepare-write.js';

/**
 * Admission of one write, run where kube-apiserver's registry runs it (store.go): `mutate` on the
 * decoded, defaulted object before the strategy's PrepareFor* and validation (create.go,
 * update.go and patch.go call mutating admission there), `validate` after validation, just
 * before storage (the registry's createValidation/updateValidation/deleteValidation). Both throw
 * the StatusError that stops the write; nothing is stored then.
 */
export interface WriteAdmission {
  /** Mutating admission of a create (`old` undefined) or an update; returns the object to go on with. */
  mutate(obj: KubeObject, old: KubeObject | undefined): Promise<KubeObject>;
  /** Validating admission; a delete passes `obj` undefined and the object it deletes as `old`. */
  validate(obj: KubeObject | undefined, old: KubeObject | undefined): Promise<void>;
}

/**
 * Mutating admission of a create. create.go calls it on the decoded, defaulted object the field
 * manager has seen, before store.go's BeforeCreate fills the server's metadata: so the hooks see
 * no uid, creationTimestamp or generation, and no name where generateName is to make one
 * (`name` "" in the AdmissionRequest). The server's part runs again on what they answer, as
 * BeforeCreate runs after them upstream.
 */
export async function mutateCreate(
  kind: ResourceKind,
  obj: KubeObject,
  sentName: string | undefined,
  admission: WriteAdmission,
  now: number,
): Promise<KubeObject> {
  const meta = metaOf(obj);
  delete meta.uid;
  delete meta.creationTimestamp;
  delete meta.generation;
  if (!sentName) delete meta.name;
  const mutated = await admission.mutate(obj, undefined);
  prepareCreate(kind, mutated, now);
  return mutated;
}

/**
 * The NamespaceLifecycle admission plugin as storage meets it (admission/ provides it): the
 * first check of every create of a namespaced object, before the kind's own admission and
 * the strategy, and of every namespace delete. Both throw the refusal.
 */
export interface NamespaceAdmission {
  /** A create of `obj` (of the namespaced `kind`) in `namespace`. */
  admitCreate(kind: ResourceKind, namespace: string, obj: KubeObject): Promise<void>;
  /** A delete of the namespace `name` that reaches admission. */
  admitNamespaceDelete(name: string): void;
}
