/**
 * Creating generated bootstrap objects with the ownership the reference recorded for them, under
 * another manager than the RBAC policy's `kube-apiserver` (the APF configuration's producer and
 * consumer): the first write of a set runs the field manager, which reads the server's clock; the
 * others take its time and skip the field manager, which would compute the same entries again.
 * Objects already stored are left as they are (another server over the same etcd wrote them).
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { objects, str } from '../kinds/access.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ObjectStorage } from '../registry/object-storage.js';

/** Creates each of `wanted` (cluster-scoped, all of `kind`) that is missing; answers what it created, as stored. */
export async function createRecorded(
  storage: ObjectStorage,
  kind: ResourceKind,
  wanted: readonly KubeObject[],
  manager: string,
): Promise<KubeObject[]> {
  const stored = new Set((await storage.list(kind, '')).map((o) => o.metadata?.name ?? ''));
  const created: KubeObject[] = [];
  let time: string | undefined;
  for (const obj of wanted) {
    if (stored.has(obj.metadata?.name ?? '')) continue;
    const copy = structuredClone(obj) as KubeObject;
    const meta = copy.metadata ?? {};
    const own = objects(meta.managedFields).filter(
      (e) => e.manager === manager && e.subresource === undefined,
    );
    try {
      if (time === undefined) {
        delete meta.managedFields;
        const out = await storage.create(kind, undefined, copy, { owned: true, fieldManager: { manager } });
        time = str(objects(out.metadata?.managedFields)[0]?.time) || out.metadata?.creationTimestamp;
        created.push(out);
        continue;
      }
      for (const entry of own) entry.time = time;
      meta.managedFields = own as never;
      created.push(
        await storage.create(kind, undefined, copy, {
          owned: true,
          fieldManager: { manager, recorded: true },
        }),
      );
    } catch (err) {
      if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
    }
  }
  return created;
}
