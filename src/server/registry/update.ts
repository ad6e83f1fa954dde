/**
 * A PUT through the object storage: registry/store.go `Update`, with its checks of the name and
 * namespace sent, the resourceVersion precondition, and create-on-update where the strategy
 * allows it.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { conflict } from '../kinds/api-errors.js';
import type { ResourceKind } from '../kinds/types.js';
import { invalid } from '../kinds/validation.js';
import { metaOf } from './meta.js';
import type { UpdateScope } from './prepare-write.js';
import { checkTypeMeta, failOn } from './write-checks.js';
import type { UpdateResult, WriteOptions } from './write-options.js';

/** What a PUT needs of the object storage: its create and its read-modify-write. */
export interface UpdateStorage {
  create(
    kind: ResourceKind,
    namespace: string | undefined,
    input: KubeObject,
    opts: WriteOptions,
  ): Promise<KubeObject>;
  guaranteedUpdate(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    scope: UpdateScope,
    opts: WriteOptions,
    mutate: (current: KubeObject) => KubeObject | Promise<KubeObject>,
    ifMissing?: () => Promise<KubeObject | undefined>,
  ): Promise<KubeObject>;
}

/**
 * Replaces an object with `input` (PUT). A resourceVersion in `input` must
 * match the stored one (409 otherwise); without one the update is
 * unconditional where the kind's strategy allows it, else a 422. A missing
 * object is a 404, or created from `input` where the strategy allows create
 * on update (registry/store.go `Update`).
 */
export async function updateObject(
  storage: UpdateStorage,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  input: KubeObject,
  scope: UpdateScope,
  opts: WriteOptions = {},
): Promise<UpdateResult> {
  checkTypeMeta(kind, input);
  const inputMeta = metaOf(input);
  if (inputMeta.name !== undefined && inputMeta.name !== name) {
    throw StatusError.of(
      'BadRequest',
      `the name of the object (${inputMeta.name}) does not match the name on the URL (${name})`,
    );
  }
  if (kind.namespaced && inputMeta.namespace && inputMeta.namespace !== namespace) {
    throw StatusError.of(
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  const wanted = inputMeta.resourceVersion;
  // An owned input serves the first attempt as it is; a retry after a storage conflict needs
  // a fresh copy, the first attempt having changed it.
  let handOver = opts.owned === true;
  let created = false;
  // store.go `Update` creates a missing object as a create would, its sent resourceVersion
  // ignored (the storage writes none); the subresources' REST never creates.
  const createInstead =
    kind.allowCreateOnUpdate === true && scope === 'main'
      ? async () => {
          const fresh = structuredClone(input);
          delete metaOf(fresh).resourceVersion;
          try {
            const object = await storage.create(kind, namespace, fresh, { ...opts, owned: true });
            created = true;
            return object;
          } catch (err) {
            // Someone created it meanwhile: update what is there now, as GuaranteedUpdate retries.
            if (err instanceof StatusError && err.status.reason === 'AlreadyExists') return undefined;
            throw err;
          }
        }
      : undefined;
  const object = await storage.guaranteedUpdate(
    kind,
    namespace,
    name,
    scope,
    opts,
    (current) => {
      // Strategies that refuse unconditional updates (Lease, the webhook configurations, custom
      // resources and their definitions: `AllowUnconditionalUpdate`): registry/store.go `Update`
      // says so once the object is found, before any validation.
      if (kind.allowUnconditionalUpdate === false && (wanted === undefined || wanted === '')) {
        // The error names the resource (store.go `qualifiedResourceFromContext`), not the kind.
        failOn({ ...kind, kind: kind.plural, custom: undefined }, input, [
          invalid('metadata.resourceVersion', 0, 'must be specified for an update'),
        ]);
      }
      if (wanted !== undefined && wanted !== '' && wanted !== current.metadata?.resourceVersion)
        throw conflict(kind, name);
      if (handOver) {
        handOver = false;
        return input;
      }
      return structuredClone(input);
    },
    createInstead,
  );
  return { object, created };
}
