/**
 * Adoption and release, as client-go's `ControllerRefManager`: a controller
 * owns the objects whose controller reference points at it and that its
 * selector still matches. It adopts matching orphans (after checking, with a
 * fresh read, that it is not itself being deleted: an orphaning delete must
 * not be undone by re-adoption) and releases owned objects its selector no
 * longer matches. Patches are JSON patches that `test` the object's uid, so
 * a recreated object of the same name is never touched.
 */
import type { ResourceClient } from '../../client/rest.js';
import type { KubeObject } from '../../protocol/events.js';
import type { LabelSelectorObject } from '../../protocol/labels.js';
import { isNotFound } from '../../protocol/status.js';
import {
  controllerOf,
  controllerRef,
  type GroupVersionKind,
  isDeleting,
  selectorMatches,
} from './objects.js';

/** What {@link claimObjects} needs to know about the claiming controller. */
export interface ClaimContext<T extends KubeObject> {
  owner: KubeObject;
  /** The owner's kind (client-go's controllerKind): a listed owner carries none. */
  ownerKind: GroupVersionKind;
  selector: LabelSelectorObject | undefined;
  /** REST client for the claimed kind, in the owner's namespace. */
  client: ResourceClient<T>;
  signal: AbortSignal;
}

/** Removes the owner reference to `ownerUid` from `obj` (a release). */
export async function removeOwnerReference<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  ownerUid: string,
  signal: AbortSignal,
): Promise<T | undefined> {
  const refs = obj.metadata?.ownerReferences ?? [];
  const i = refs.findIndex((r) => r.uid === ownerUid);
  if (i < 0) return obj;
  const patch = [
    { op: 'test', path: '/metadata/uid', value: obj.metadata?.uid },
    { op: 'test', path: `/metadata/ownerReferences/${i}/uid`, value: ownerUid },
    { op: 'remove', path: `/metadata/ownerReferences/${i}` },
  ];
  try {
    return await client.patch(obj.metadata?.name ?? '', patch, 'json', { signal });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function adopt<T extends KubeObject>(c: ClaimContext<T>, obj: T): Promise<T | undefined> {
  const refs = obj.metadata?.ownerReferences ?? [];
  const ref = controllerRef(c.owner, c.ownerKind);
  const patch = [
    { op: 'test', path: '/metadata/uid', value: obj.metadata?.uid },
    refs.length === 0
      ? { op: 'add', path: '/metadata/ownerReferences', value: [ref] }
      : { op: 'add', path: '/metadata/ownerReferences/-', value: ref },
  ];
  try {
    return await c.client.patch(obj.metadata?.name ?? '', patch, 'json', { signal: c.signal });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * The objects `c.owner` controls among `candidates` (its own and the
 * namespace's orphans), adopting and releasing on the way.
 */
export async function claimObjects<T extends KubeObject>(
  c: ClaimContext<T>,
  candidates: T[],
  canAdopt: () => Promise<boolean>,
): Promise<T[]> {
  const ownerUid = c.owner.metadata?.uid;
  const claimed: T[] = [];
  let adoptable: boolean | undefined;
  for (const obj of candidates) {
    const ref = controllerOf(obj);
    const matches = selectorMatches(c.selector, obj.metadata?.labels);
    if (ref) {
      if (ref.uid !== ownerUid) continue;
      if (matches) claimed.push(obj);
      else if (!isDeleting(c.owner)) await removeOwnerReference(c.client, obj, ownerUid, c.signal);
      continue;
    }
    if (!matches || isDeleting(c.owner) || isDeleting(obj)) continue;
    adoptable ??= await canAdopt();
    if (!adoptable) continue;
    const adopted = await adopt(c, obj);
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

/** A `canAdopt` that re-reads the owner: same uid and not being deleted (kube's RecheckDeletionTimestamp). */
export function recheckOwner<T extends KubeObject>(
  client: ResourceClient<T>,
  owner: KubeObject,
  signal: AbortSignal,
): () => Promise<boolean> {
  return async () => {
    const fresh = await client.find(owner.metadata?.name ?? '', { signal });
    return Boolean(fresh && fresh.metadata?.uid === owner.metadata?.uid && !isDeleting(fresh));
  };
}
