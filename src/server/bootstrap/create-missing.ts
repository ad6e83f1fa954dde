/**
 * What every bootstrap writer does: create those of its objects that are not stored yet, as
 * kube-apiserver's post-start hooks do, through the ordinary write path under the manager
 * `kube-apiserver` (the hooks' loopback client's user agent). What is stored is left as it is,
 * so a server starting over another's etcd, or from a snapshot, writes nothing.
 *
 * The generated objects carry the ownership the reference's field manager recorded for them
 * (without its time): the first write of a start runs the field manager, which reads the server's
 * clock; the others take that time and skip the field manager, which would compute the same
 * entries again (a start writes some 140 objects, and the field manager was most of their cost).
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { objects, str } from '../kinds/access.js';
import { findByKind } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ObjectStorage } from '../registry/object-storage.js';

const MANAGER = 'kube-apiserver';

/** One start's bootstrap writes. */
export class BootstrapWrites {
  /** The managedFields time of this start's writes, once the first one has it from the clock. */
  private time: string | undefined;

  constructor(private readonly storage: ObjectStorage) {}

  /** Creates each of `wanted` (all of one kind) that is missing; one list per namespace finds them. */
  async createMissing(wanted: readonly KubeObject[]): Promise<void> {
    if (wanted.length === 0) return;
    const kind = findByKind(wanted[0].apiVersion ?? '', wanted[0].kind ?? '');
    if (!kind) throw new Error(`bootstrap: ${wanted[0].apiVersion} ${wanted[0].kind} is not served`);
    const stored = new Map<string, Set<string>>();
    for (const obj of wanted) {
      const namespace = obj.metadata?.namespace ?? '';
      let names = stored.get(namespace);
      if (!names) {
        names = new Set((await this.storage.list(kind, namespace)).map((o) => o.metadata?.name ?? ''));
        stored.set(namespace, names);
      }
      if (names.has(obj.metadata?.name ?? '')) continue;
      try {
        await this.create(kind, namespace || undefined, obj);
      } catch (err) {
        // Another server over the same store wrote it first.
        if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
      }
    }
  }

  private async create(kind: ResourceKind, namespace: string | undefined, obj: KubeObject): Promise<void> {
    const copy = structuredClone(obj) as KubeObject;
    const meta = copy.metadata ?? {};
    if (this.time === undefined) {
      delete meta.managedFields;
      const created = await this.storage.create(kind, namespace, copy, {
        owned: true,
        fieldManager: { manager: MANAGER },
      });
      this.time =
        str(objects(created.metadata?.managedFields)[0]?.time) || created.metadata?.creationTimestamp;
      return;
    }
    for (const entry of objects(meta.managedFields)) entry.time = this.time;
    await this.storage.create(kind, namespace, copy, {
      owned: true,
      fieldManager: { manager: MANAGER, recorded: true },
    });
  }
}
